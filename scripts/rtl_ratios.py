#!/usr/bin/python3
"""Ratios est/Yosys in an RTL table (Markdown, as scripts/rtl_table.sh prints or README holds).
usage: scripts/rtl_ratios.py TABLE.md (README.md works too: every row of 8+ columns with "a / b" cells)   -> per design LUT and FF ratio, and how many lie within +-15 %."""
import re, sys
rows = []
for line in open(sys.argv[1]):
    c = [x.strip() for x in line.strip().strip('|').split('|')]
    if len(c) < 8 or c[0] in ('design',) or c[0].startswith('---'):
        continue
    def r(s):
        m = re.match(r'(\d+)\s*/\s*(\d+)', s)
        if not m: return None
        e, y = int(m.group(1)), int(m.group(2))
        return e / y if y else (1.0 if e == 0 else float('inf'))
    # columns: design lines build cycles dsp bram lut ff ...
    lut, ff = r(c[6]), r(c[7])
    dsp_ok = (lambda m: m and m.group(1) == m.group(2))(re.match(r'(\d+)\s*/\s*(\d+)', c[4]))
    bram_ok = (lambda m: m and m.group(1) == m.group(2))(re.match(r'(\d+)\s*/\s*(\d+)', c[5]))
    rows.append((c[0], lut, ff, dsp_ok, bram_ok))
ok = lambda x: x is not None and 0.85 <= x <= 1.15
for n, l, f, d, b in rows:
    flag = ('' if ok(l) else ' LUT!') + ('' if ok(f) else ' FF!') + ('' if d else ' DSP!') + ('' if b else ' BRAM!')
    print(f"{n:24s} LUT {l if l is None else round(l, 2)!s:>6}  FF {f if f is None else round(f, 2)!s:>6}{flag}")
print(f"LUT within 15%: {sum(ok(r[1]) for r in rows)}/{len(rows)}  FF: {sum(ok(r[2]) for r in rows)}/{len(rows)}  "
      f"DSP equal: {sum(bool(r[3]) for r in rows)}  BRAM equal: {sum(bool(r[4]) for r in rows)}")
