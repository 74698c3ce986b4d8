#!/usr/bin/python3
"""The README's table of a hardware-cost policy on held-out designs.

Per design: cycles initially (I), after XLA's default order (D), after the policy's order
(P), after the policy-guided refinement (G, `optimize --refine-budget`), and after beam search
with `hlsgym search`'s default budget (B); the speed-ups D/P, D/G, D/B and the pass runs each
spent. Every number comes from the hlsgym CLI (`optimize --json`, `search --json`); this
script only tabulates. Usage:

  scripts/hw_policy_table.py --policy learned --reward cycles --target fpga \
      --graphs designs/splits/hw-heldout.txt [--refine-budget 200] [--json OUT.json]
"""
import argparse
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def graph_files(spec):
    """A graph list (.txt, as `hlsgym train --graphs` reads it), a folder or a file."""
    if spec.endswith(".txt"):
        base = os.path.dirname(spec)
        out = []
        for line in open(spec):
            line = line.strip()
            if line and not line.startswith("#"):
                out += graph_files(os.path.join(base, line))
        return out
    if os.path.isdir(spec):
        return [os.path.join(spec, f) for f in sorted(os.listdir(spec)) if f.endswith((".yaml", ".hlo"))]
    return [spec]


def run_json(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def row(hlsgym, design, a):
    common = ["--reward", a.reward, "--target", a.target, "--json"]
    default = run_json([hlsgym, "optimize", design, "--order", "default", "--target", a.target, "--json"])
    policy = run_json([hlsgym, "optimize", design, "--order", a.policy] + common)
    guided = run_json([hlsgym, "optimize", design, "--order", a.policy, "--refine-budget", str(a.refine_budget),
                       "--refine-top-k", str(a.refine_top_k)] + common)
    beam = run_json([hlsgym, "search", design, "--algo", "beam", "--reward", a.reward, "--target", a.target,
                     "--json"])
    return {
        "design": os.path.splitext(os.path.basename(design))[0],
        "initial": default["hardware"]["before"][a.reward],
        "default": default["hardware"]["after"][a.reward],
        "policy": policy["hardware"]["after"][a.reward],
        "policy_order": policy["order"],
        "policy_pass_runs": guided["refined"]["policy_pass_runs"],
        "guided": guided["hardware"]["after"][a.reward],
        "guided_pass_runs": guided["refined"]["pass_runs"],
        "beam": beam["cost"],
        "beam_pass_runs": beam["evaluations"],
    }


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--policy", default="learned")
    p.add_argument("--reward", default="cycles")
    p.add_argument("--target", default="fpga")
    p.add_argument("--graphs", default=os.path.join(ROOT, "designs", "splits", "hw-heldout.txt"))
    p.add_argument("--refine-budget", type=int, default=200)
    p.add_argument("--refine-top-k", type=int, default=2)
    p.add_argument("--hlsgym", default=os.path.join(ROOT, "build", "cli", "hlsgym"))
    p.add_argument("--json", help="also write the rows and geomeans here")
    a = p.parse_args()
    rows = [row(a.hlsgym, d, a) for d in graph_files(a.graphs)]
    print(f"policy {a.policy}, reward {a.reward}, target {a.target}; speed-up = default-order {a.reward} / {a.reward}")
    print("| design | initial | default | policy | guided | beam | policy x | guided x | beam x "
          "| pass runs policy / guided / beam |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        d = r["default"]
        print(f"| {r['design']} | {r['initial']:g} | {d:g} | {r['policy']:g} | {r['guided']:g} | {r['beam']:g} "
              f"| {d / r['policy']:.2f} | {d / r['guided']:.2f} | {d / r['beam']:.2f} "
              f"| {r['policy_pass_runs']} / {r['guided_pass_runs']} / {r['beam_pass_runs']} |")
    summary = {k: geomean([r["default"] / r[k] for r in rows]) for k in ("policy", "guided", "beam")}
    runs = {k: sum(r[k + "_pass_runs"] for r in rows) / len(rows) for k in ("policy", "guided", "beam")}
    print(f"| geomean | | | | | | {summary['policy']:.3f} | {summary['guided']:.3f} | {summary['beam']:.3f} "
          f"| {runs['policy']:.0f} / {runs['guided']:.0f} / {runs['beam']:.0f} (mean) |")
    print(f"policy / beam speed-up {summary['policy'] / summary['beam']:.3f}; "
          f"guided / beam {summary['guided'] / summary['beam']:.3f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows, "geomean_speedup": summary, "mean_pass_runs": runs}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
