#!/usr/bin/python3
"""The README's directives table: what the unroll directive actions (unroll-x2, unroll-halve)
add to a cycles-reward search, on every integer design in designs/*.yaml on the fpga target.

For each design: XLA's default order, a beam search (width 4, 5,000 pass runs) on the
optimization passes only (`hlsgym search --no-directives`) and the same search with the
directives, each with its FPGA cycles and area (DSP, LUT, BRAM18K) as `hlsgym optimize`
reports the order's result.
Prints a Markdown table; the speed-up is default-order cycles over the search's cycles.
Usage: scripts/directives_table.py [BUILD_DIR]
"""
import json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
HLSGYM = os.path.join(BUILD, "cli", "hlsgym")
SEARCH = ["--algo", "beam", "--beam-width", "4", "--reward", "cycles", "--target", "fpga", "--budget-steps", "5000"]
FLOAT_TYPE = re.compile(r"\b(bf16|f16|f32|f64)\b")


def run(*args):
    out = subprocess.run([HLSGYM, *args, "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"error: hlsgym {' '.join(args)}: {out.stderr.strip()}")
    return json.loads(out.stdout)


def hardware(design, order):
    """The FPGA estimate after `order` (a list of pass names; empty: the design as written)."""
    return run("optimize", design, "--order", ",".join(order), "--target", "fpga")["hardware"]["after"]


def cell(h):
    return h["cycles"], f"{h['dsp']:.0f} / {h['lut']:.0f} / {h['bram18k']:.0f}"


def main():
    if not os.access(HLSGYM, os.X_OK):
        sys.exit(f"error: {HLSGYM} not built (cmake --build {BUILD})")
    designs = sorted(f for f in os.listdir(os.path.join(ROOT, "designs")) if f.endswith(".yaml"))
    print("| design | default order: cycles | DSP / LUT / BRAM | search without directives: cycles | DSP / LUT / BRAM "
          "| search with directives: cycles | DSP / LUT / BRAM | speed-up without / with | directives in the order |")
    print("|---|---|---|---|---|---|---|---|---|")
    for f in designs:
        path = os.path.join(ROOT, "designs", f)
        if FLOAT_TYPE.search(open(path).read()):
            continue
        default = run("optimize", path, "--order", "default", "--target", "fpga")["hardware"]["after"]
        without = run("search", path, *SEARCH, "--no-directives")
        with_directives = run("search", path, *SEARCH)
        d_cycles, d_area = cell(default)
        wo_cycles, wo_area = cell(hardware(path, without["order"]))
        w_cycles, w_area = cell(hardware(path, with_directives["order"]))
        assert wo_cycles == without["cost"] and w_cycles == with_directives["cost"], f  # the search's own cost
        unrolls = sum(p.startswith("unroll-") for p in with_directives["order"])
        print(f"| {f[:-5]} | {d_cycles:.0f} | {d_area} | {wo_cycles:.0f} | {wo_area} | {w_cycles:.0f} | {w_area} "
              f"| {d_cycles / wo_cycles:.2f}x / {d_cycles / w_cycles:.2f}x | {unrolls} |")


main()
