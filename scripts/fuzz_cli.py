#!/usr/bin/python3
"""Fuzz the hlsgym command line with mutated inputs (issue 21).

Seeds: fuzz/corpus/ (hand-made edge cases), designs/*.yaml, designs/loops/ (control flow),
designs/targets/*.yaml, the
shipped policy, and the real HLO files of shared/data/hlo (the smaller ones). Each round
picks a seed, mutates it (bytes, lines, numbers, element types, opcodes, attribute names,
line endings) and runs it through one of stats, print (twice: print o parse must be a
fixed point), run, optimize --check (default order, a random order, the shipped policy),
report (fpga, cpu, --lenient) and rtl (emission only). Mutated targets and policies are
fed to report --target and optimize --order.

A finding is: an exit code other than 0 or 1 (a crash, a signal, CLI11's codes; 3 with "check
inconclusive" is allowed), a
timeout (hang), an exit 1 whose stderr is not one `error:` line, an `internal` error or
`out of memory`, a failed --check (a wrong pass or a false alarm), or a print that does
not read back to the same text. Findings are written to OUT/NNN-<kind>/ (input, command,
stdout, stderr), one per distinct signature.

    scripts/fuzz_cli.py --hlsgym build/cli/hlsgym --minutes 30 --out build/fuzz-findings
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TYPES = ["pred", "s2", "s4", "s8", "s16", "s32", "s64", "u2", "u4", "u8", "u16", "u32", "u64", "f16", "bf16",
         "f32", "f64", "c64", "f8e5m2", "f8e4m3fn", "f4e2m1fn"]
OPCODES = ["add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "negate", "abs", "exp", "log",
           "sqrt", "rsqrt", "tanh", "compare", "select", "clamp", "convert", "bitcast-convert", "broadcast", "reshape",
           "transpose", "slice", "concatenate", "pad", "iota", "reverse", "dot", "reduce", "reduce-window", "sort",
           "and", "or", "xor", "not", "shift-left", "shift-right-logical", "shift-right-arithmetic", "power", "atan2",
           "round-nearest-even", "floor", "ceil", "sign", "is-finite", "copy", "tuple", "get-tuple-element", "call",
           "while", "conditional", "custom-call", "reduce-precision", "gather", "scatter", "dynamic-slice",
           "dynamic-update-slice", "popcnt", "clz", "map", "convolution", "rng", "constant", "parameter"]
ATTRIBUTES = ["dimensions", "iota_dimension", "direction", "to_apply", "slice", "padding", "window", "index",
              "lhs_contracting_dims", "rhs_contracting_dims", "lhs_batch_dims", "rhs_batch_dims", "dim_labels",
              "exponent_bits", "mantissa_bits", "dynamic_slice_sizes", "metadata", "ENTRY", "body", "condition",
              "calls", "kind", "feature_index", "epsilon", "is_stable", "value", "type", "args", "name", "op"]
NUMBERS = ["0", "1", "-1", "2", "3", "7", "8", "15", "16", "127", "128", "255", "256", "-128", "32767", "32768",
           "40000", "65535", "2147483647", "2147483648", "-2147483648", "4294967296", "9223372036854775807",
           "18446744073709551615", "1e300", "-1e300", "1e-300", "0.5", "nan", "inf", "-inf", "1000000", "99999999999"]
PASSES = ["algsimp", "cse", "dce", "constant_folding", "call-inliner", "tree-reduction-rewriter", "reshape-mover",
          "tuple-simplifier", "while-loop-simplifier", "fusion", "bitwidth-narrowing", "strength-reduction",
          "tree-height-reduction", "loop-unroll-by-2", "flatten-call-graph", "zero_sized_hlo_elimination",
          "sort-simplifier", "dot-decomposer", "conditional-simplifier", "map-inline", "transpose-folding"]


def seeds(hlo_dir, max_hlo_bytes):
    files = []
    for d, exts in ((os.path.join(ROOT, "fuzz", "corpus"), (".hlo", ".yaml")), (os.path.join(ROOT, "designs"), (".yaml",)),
                    (os.path.join(ROOT, "designs", "loops"), (".hlo", ".yaml")),
                    (os.path.join(ROOT, "designs", "indexing"), (".hlo", ".yaml")),
                    (os.path.join(ROOT, "designs", "targets"), (".yaml",)), (os.path.join(ROOT, "designs", "policies"),
                                                                             (".policy",))):
        if os.path.isdir(d):
            files += [os.path.join(d, f) for f in sorted(os.listdir(d)) if f.endswith(exts)]
    if hlo_dir:
        for split in ("train", "test"):
            d = os.path.join(hlo_dir, split)
            if os.path.isdir(d):
                files += [os.path.join(d, f) for f in sorted(os.listdir(d))
                          if f.endswith(".hlo") and os.path.getsize(os.path.join(d, f)) <= max_hlo_bytes]
    return files


def kind_of(path):
    if path.endswith(".policy"):
        return "policy"
    if os.sep + "targets" + os.sep in path:
        return "target"
    return "design"


def mutate(text, rng):
    """One to three mutations of the text."""
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(11)
        lines = text.split("\n")
        if op == 0 and text:  # flip / insert / delete a byte
            k = rng.randrange(len(text))
            choice = rng.randrange(3)
            ch = chr(rng.choice([rng.randrange(32, 127), 0, 9, 13, 0xe9]))
            text = text[:k] + (ch if choice < 2 else "") + text[k + (choice != 1):]
        elif op == 1 and len(lines) > 1:  # delete / duplicate / swap lines
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            choice = rng.randrange(3)
            if choice == 0:
                del lines[a]
            elif choice == 1:
                lines.insert(b, lines[a])
            else:
                lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        elif op == 2:  # a number
            spots = list(re.finditer(r"-?\b\d+(\.\d+)?(e[-+]?\d+)?\b", text))
            if spots:
                m = rng.choice(spots)
                text = text[:m.start()] + rng.choice(NUMBERS) + text[m.end():]
        elif op == 3:  # an element type
            spots = list(re.finditer(r"\b(" + "|".join(TYPES) + r")\b", text))
            if spots:
                m = rng.choice(spots)
                text = text[:m.start()] + rng.choice(TYPES) + text[m.end():]
        elif op == 4:  # an opcode
            spots = list(re.finditer(r"\b(" + "|".join(re.escape(o) for o in OPCODES) + r")\b", text))
            if spots:
                m = rng.choice(spots)
                text = text[:m.start()] + rng.choice(OPCODES) + text[m.end():]
        elif op == 5:  # an attribute name or key
            spots = list(re.finditer(r"\b([a-z_A-Z]+)(=|: )", text))
            if spots:
                m = rng.choice(spots)
                text = text[:m.start(1)] + rng.choice(ATTRIBUTES) + text[m.end(1):]
        elif op == 6:  # drop an attribute
            spots = list(re.finditer(r", [a-z_]+=(\{[^}]*\}|[^,\n]*)", text))
            if spots:
                m = rng.choice(spots)
                text = text[:m.start()] + text[m.end():]
        elif op == 7:  # line endings
            text = text.replace("\n", rng.choice(["\r\n", "\r"]))
        elif op == 8:  # a dimension list
            spots = list(re.finditer(r"\[[0-9,]*\]", text))
            if spots:
                m = rng.choice(spots)
                dims = ",".join(rng.choice(["0", "1", "2", "3", "4", "8", "640", "1048576"]) for _ in range(rng.randrange(4)))
                text = text[:m.start()] + "[" + dims + "]" + text[m.end():]
        elif op == 9:  # a name
            spots = list(re.finditer(r"\b([a-z][a-z0-9_.]*) = ", text))
            if spots:
                m = rng.choice(spots)
                new = rng.choice(["ROOT", "ENTRY", "HloModule", "FileNames", "a b", "9x", "x.1", "%y", m.group(1) * 2])
                text = text.replace(m.group(1), new) if rng.random() < 0.5 else text[:m.start(1)] + new + text[m.end(1):]
        else:  # splice a piece of the text elsewhere
            if len(text) > 2:
                a = rng.randrange(len(text))
                b = min(len(text), a + rng.randrange(1, 200))
                k = rng.randrange(len(text))
                text = text[:k] + text[a:b] + text[k:]
    return text


def run(cmd, timeout):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), time.time() - t0
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        err = (e.stderr or b"").decode("utf-8", "replace")
        return None, out, err, time.time() - t0


def judge(rc, out, err):
    """The finding's kind, or None."""
    if rc is None:
        return "hang"
    if rc < 0:
        return "signal"
    # 3: `optimize --check` proved nothing (interpretation budget exceeded, nothing to
    # compare); a legitimate outcome when it says why in one error line.
    if rc == 3 and "check inconclusive" in err:
        return None
    if rc not in (0, 1):
        return "exit%d" % rc
    if "internal" in err:
        return "internal"
    if "out of memory" in err:
        return "oom"
    if "check FAILED" in err:
        return "check-failed"
    if rc == 1:
        lines = [l for l in err.split("\n") if l.strip()]
        if not lines or not lines[-1].startswith("error: "):
            return "no-error-line"
        if sum(1 for l in lines if l.startswith("error: ")) != 1 or not lines[0].startswith(("error: ", "note: ", "\r")):
            return "not-one-line"
    return None


def signature(kind, command, err):
    words = re.sub(r"[0-9]+", "N", err.strip().split("\n")[-1] if err.strip() else "")
    words = re.sub(r"/\S+", "PATH", words)
    return (kind, command, words[:100])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hlsgym", default=os.path.join(ROOT, "build", "cli", "hlsgym"))
    ap.add_argument("--minutes", type=float, default=30)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "fuzz-findings"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=30, help="seconds per command before it counts as a hang")
    ap.add_argument("--hlo-dir", default=os.environ.get("HLSGYM_HLO_DATA_DIR", os.path.join(ROOT, "..", "shared", "data", "hlo")))
    ap.add_argument("--max-hlo-bytes", type=int, default=30000, help="real HLO files larger than this are not seeds")
    ap.add_argument("--no-rtl", action="store_true", help="skip `rtl` (emission only; it never runs Verilator here)")
    a = ap.parse_args()
    if not os.path.exists(a.hlsgym):
        sys.exit("error: %s: no hlsgym executable (build it first, or pass --hlsgym)" % a.hlsgym)
    rng = random.Random(a.seed)
    corpus = seeds(a.hlo_dir, a.max_hlo_bytes)
    designs = [f for f in corpus if kind_of(f) == "design"]
    os.makedirs(a.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="hlsgym_fuzz_")
    seen, findings, runs, by_command = set(), 0, 0, {}
    end = time.time() + 60 * a.minutes
    try:
        while time.time() < end:
            seed = rng.choice(corpus)
            kind = kind_of(seed)
            with open(seed, encoding="utf-8", errors="replace", newline="") as f:
                text = f.read()
            mutated = mutate(text, rng) if rng.random() < 0.9 else text
            ext = {"policy": ".policy", "target": ".yaml"}.get(kind, os.path.splitext(seed)[1])
            path = os.path.join(work, "input" + ext)
            with open(path, "w", encoding="utf-8", errors="replace", newline="") as f:
                f.write(mutated)
            commands = []
            if kind == "design":
                name = rng.choice(["stats", "print", "run", "optimize", "optimize-random", "optimize-learned", "report",
                                   "report-cpu", "report-lenient", "rtl"])
                if name == "rtl" and a.no_rtl:
                    name = "report"
                args = {"stats": ["stats", path], "print": ["print", path],
                        "run": ["run", path, "--seed", str(rng.randrange(100)), "--json"],
                        "optimize": ["optimize", path, "--order", "default", "--check", "--json"],
                        "optimize-random": ["optimize", path, "--order", ",".join(rng.choice(PASSES) for _ in range(rng.randint(1, 6))),
                                            "--check", "--json"],
                        "optimize-learned": ["optimize", path, "--order", "learned", "--check", "--json"],
                        "report": ["report", path, "--json"], "report-cpu": ["report", path, "--target", "cpu"],
                        "report-lenient": ["report", path, "--lenient"],
                        "rtl": ["rtl", path, "-o", os.path.join(work, "rtl")]}[name]
            elif kind == "target":
                name = "report-target"
                args = ["report", rng.choice([d for d in designs if d.endswith(".yaml")] or designs), "--target", path]
            else:
                name = "optimize-policy"
                args = ["optimize", os.path.join(ROOT, "designs", "fir8.yaml"), "--order", path, "--check"]
            commands.append((name, args))
            for name, args in commands:
                rc, out, err, seconds = run([a.hlsgym] + args, a.timeout)
                runs += 1
                by_command[name] = by_command.get(name, 0) + 1
                verdict = judge(rc, out, err)
                if verdict is None and name == "print" and rc == 0:  # print o parse: a fixed point
                    again = os.path.join(work, "printed.hlo")
                    with open(again, "w", encoding="utf-8", newline="") as f:
                        f.write(out)
                    rc2, out2, err2, _ = run([a.hlsgym, "print", again], a.timeout)
                    if rc2 != 0 or out2 != out:
                        verdict, err = "print-not-fixed-point", err2 or "second print differs"
                if verdict is None:
                    continue
                sig = signature(verdict, name, err)
                if sig in seen:
                    continue
                seen.add(sig)
                findings += 1
                d = os.path.join(a.out, "%03d-%s" % (findings, verdict))
                os.makedirs(d, exist_ok=True)
                shutil.copy(path, os.path.join(d, os.path.basename(path)))
                with open(os.path.join(d, "command"), "w") as f:
                    f.write(" ".join([a.hlsgym] + args).replace(path, os.path.basename(path)) + "\n# seed: " + seed + "\n")
                with open(os.path.join(d, "stdout"), "w") as f:
                    f.write(out)
                with open(os.path.join(d, "stderr"), "w") as f:
                    f.write(err)
                print("finding %d: %s in %s (%s)" % (findings, verdict, name, err.strip().split("\n")[-1][:160] if err.strip() else ""),
                      flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("%d runs (%s), %d distinct findings in %s" % (runs, ", ".join("%s %d" % kv for kv in sorted(by_command.items())),
                                                       findings, a.out))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
