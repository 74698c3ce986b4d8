#!/usr/bin/python3
"""Prints nextpnr-ice40's critical path of the clock from its log, one line per cell with
its delay and the net into the next, and the lines of the design's Verilog each net comes
from: what to compare with the estimate's path (hwmodel/clock.h) when they disagree.
Carry-chain steps (0.3 ns each, no routing) are folded into one line.
  scripts/nextpnr_critical_path.py DIR/nextpnr.log     (DIR: hlsgym rtl --pnr's -o)"""
import re, sys

if len(sys.argv) != 2:
    sys.exit(__doc__)
log = open(sys.argv[1]).read().splitlines()
start = next((i for i, l in enumerate(log) if "Critical path report for clock" in l), None)
if start is None:
    sys.exit(f"error: {sys.argv[1]} has no critical path report (did nextpnr finish?)")
steps = []  # [kind, delay, total, name, verilog lines]
for l in log[start + 2:]:
    if "ns logic," in l:
        summary = l.replace("Info: ", "").strip()
        break
    m = re.match(r"Info:\s+([\d.]+)\s+([\d.]+)\s+(Source|Net|Setup)\s+(\S+)", l)
    if m:
        steps.append([m.group(3), float(m.group(1)), float(m.group(2)), m.group(4), set()])
    m = re.search(r"([\w.-]+\.v):(\d+)\.", l)
    if m and steps and not m.group(1).startswith(("cells_map", "arith_map", "pnr_harness")):
        steps[-1][4].add(f"{m.group(1)}:{m.group(2)}")
carry = 0
for kind, d, total, name, lines in steps:
    if kind == "Source" and name.endswith("COUT"):
        carry += 1
        continue
    if kind == "Net" and d == 0:
        continue
    if carry:
        print(f"  carry chain of {carry}")
        carry = 0
    where = " ".join(sorted(lines))
    if kind == "Net":
        print(f"    net {d:4.1f} ns -> {total:5.1f}  {where}")
    else:
        print(f"{kind.lower():6s} {d:4.1f} ns -> {total:5.1f}  {name}")
print(summary)
