#!/usr/bin/python3
"""The README's op-count table: default-flag PPO on the held-out test split, 3 seeds.

Trains one policy per seed with `hlsgym train --graphs TRAIN --seed S` and no tuning flags
(the defaults are the recipe, issue 18), then evaluates each on the test split alone and
with policy-guided refinement (`evaluate --refine-budget N`, every pass run of the policy's
episode and of the search counted), next to plain beam search at N and at 2,000 pass runs
per graph. Pass runs per graph come from `optimize --json` (refined.pass_runs). Every
number comes from the hlsgym CLI; this script only tabulates. Usage:

  scripts/opcount_table.py [--train ../shared/data/hlo/train] [--test ../shared/data/hlo/test]
      [--seeds 1 2 3] [--budget 100] [--out DIR] [--policies P1 P2 ...] [--json OUT.json]
      [--train-args "--observation opcount"]

--policies skips training and evaluates the given policy files (e.g. `learned`).
--train-args adds flags to every `train` (comparisons against the defaults only: the
README's table is the defaults').
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(os.path.dirname(ROOT), "shared", "data", "hlo")


def run_json(cmd):
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def evaluate(hlsgym, test, policy, extra):
    r = run_json([hlsgym, "evaluate", "--graphs", test, "--policy", policy, "--no-baselines", "--json"] + extra)
    return {"geomean": r["geomean"], "at_least_default": r["at_least_default"]}


def mean_pass_runs(hlsgym, test, policy, budget):
    """Mean pass runs per graph of the policy's episode and of the guided refinement."""
    files = [os.path.join(test, f) for f in sorted(os.listdir(test)) if f.endswith((".hlo", ".yaml"))]
    own, guided = [], []
    for f in files:
        r = run_json([hlsgym, "optimize", f, "--order", policy, "--refine-budget", str(budget), "--json"])["refined"]
        own.append(r["policy_pass_runs"])
        guided.append(r["pass_runs"])
    return statistics.mean(own), statistics.mean(guided)


def spread(xs):
    return f"{statistics.mean(xs):.3f} ± {statistics.stdev(xs):.3f}" if len(xs) > 1 else f"{xs[0]:.3f}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--train", default=os.path.join(DATA, "train"))
    p.add_argument("--test", default=os.path.join(DATA, "test"))
    p.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    p.add_argument("--budget", type=int, default=100, help="pass runs per graph for guided refinement and beam")
    p.add_argument("--out", default="opcount-policies", help="folder for the trained policies")
    p.add_argument("--policies", nargs="+", help="evaluate these instead of training")
    p.add_argument("--hlsgym", default=os.path.join(ROOT, "build", "cli", "hlsgym"))
    p.add_argument("--json", help="also write the rows here")
    p.add_argument("--train-args", default="", help="extra `train` flags (a comparison, not the recipe)")
    a = p.parse_args()
    policies = a.policies
    if not policies:
        os.makedirs(a.out, exist_ok=True)
        policies = []
        for s in a.seeds:
            path = os.path.join(a.out, f"seed{s}.policy")
            subprocess.run([a.hlsgym, "train", "--graphs", a.train, "--seed", str(s), "-o", path] + a.train_args.split(),
                           check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            policies.append(path)
    rows = []
    for pol in policies:
        own_runs, guided_runs = mean_pass_runs(a.hlsgym, a.test, pol, a.budget)
        rows.append({"policy": pol, "alone": evaluate(a.hlsgym, a.test, pol, []),
                     "guided": evaluate(a.hlsgym, a.test, pol, ["--refine-budget", str(a.budget)]),
                     "alone_pass_runs": own_runs, "guided_pass_runs": guided_runs})
    beam = {n: evaluate(a.hlsgym, a.test, "beam", ["--budget-steps", str(n)]) for n in (a.budget, 2000)}
    print(f"test split {a.test}; geomean (I-R)/(I-D), R <= D; pass runs per graph (mean)")
    print("| order | geomean (I−R)/(I−D) | R ≤ D | pass runs per graph |")
    print("|---|---|---|---:|")
    for n, b in beam.items():
        print(f"| plain beam, {n:,} pass runs | {b['geomean']:.3f} | {100 * b['at_least_default']:.1f} % | ≤ {n:,} |")
    for r in rows:
        name = os.path.basename(r["policy"])
        print(f"| {name} alone | {r['alone']['geomean']:.3f} | {100 * r['alone']['at_least_default']:.1f} % "
              f"| {r['alone_pass_runs']:.0f} |")
        print(f"| {name} + guided beam | {r['guided']['geomean']:.3f} | {100 * r['guided']['at_least_default']:.1f} % "
              f"| {r['guided_pass_runs']:.0f} |")
    if len(rows) > 1:
        for k in ("alone", "guided"):
            g = [r[k]["geomean"] for r in rows]
            s = ", ".join(f"{100 * r[k]['at_least_default']:.0f}" for r in rows)
            print(f"| {len(rows)} policies, {k}: mean ± sd | {spread(g)} | ({s}) % | |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows, "beam": {str(n): b for n, b in beam.items()}}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
