#!/usr/bin/env python3
"""Where Yosys puts the LUTs of a design: every LUT (and SRL) of a flattened synth_xilinx
netlist is followed through the combinational cells it drives (LUT, CARRY4, MUXF7/8) to
the registers, hard-block ports and outputs it feeds, and shared equally among them;
registers are named by the net on their Q pin (the Verilog's reg names: counters t0_y_q0_c1,
read registers, accumulators), a block RAM or DSP by its port. Used to find what the
estimate misses (control, register-file read trees, write decode) per design.
  yosys -p "read_verilog D.v; synth_xilinx -noiopad -top D; write_json net.json"
  scripts/yosys_lut_attribution.py net.json D [by-name]   (by-name: drop bit indices)
An iCE40 netlist (SB_LUT4 through SB_CARRY to SB_DFF*) with ICE40=1 in the environment:
  yosys -p "read_verilog D.v; synth_ice40 -dsp -top D; write_json net.json"
  ICE40=1 scripts/yosys_lut_attribution.py net.json D by-name"""
import json, os, re, sys, collections
j = json.load(open(sys.argv[1]))
mod = j['modules'][sys.argv[2]]
ice40 = os.environ.get('ICE40') == '1'
ff_prefix = ('SB_DFF',) if ice40 else ('FD', 'SRL')
netname = {}
for n, v in mod['netnames'].items():
    if n.startswith('$'): continue
    for i, b in enumerate(v['bits']):
        if isinstance(b, int):
            netname.setdefault(b, n if len(v['bits']) == 1 else n)
comb = re.compile(r'^(SB_LUT4|SB_CARRY)$' if ice40 else r'^(LUT[1-6]|CARRY4|MUXF[78])$')
lut = re.compile(r'^SB_LUT4$' if ice40 else r'^(LUT[1-6]|SRL.*)$')
drivers = collections.defaultdict(list)  # bit -> cells reading it
cells = mod['cells']
for cn, c in cells.items():
    for p, bits in c['connections'].items():
        if c['port_directions'].get(p) == 'input':
            for b in bits:
                if isinstance(b, int): drivers[b].append((cn, p))
def outs(c):
    return [b for p, bits in c['connections'].items() if c['port_directions'].get(p) == 'output' for b in bits if isinstance(b, int)]
outbits = {}
for pn, p in mod['ports'].items():
    if p['direction'] == 'output':
        for b in p['bits']:
            if isinstance(b, int): outbits[b] = 'port:' + pn
def group(cn):
    c = cells[cn]
    t = c['type']
    if t.startswith(ff_prefix):
        q = [b for b in c['connections'].get('Q', []) if isinstance(b, int)]
        n = netname.get(q[0], cn) if q else cn
        return n
    return t
memo = {}
def sinks(cn):
    if cn in memo: return memo[cn]
    memo[cn] = set()
    res = set()
    for b in outs(cells[cn]):
        if b in outbits: res.add(outbits[b])
        for r, p in drivers[b]:
            if comb.match(cells[r]['type']): res |= sinks(r)
            else: res.add(group(r) if cells[r]['type'].startswith(ff_prefix) else cells[r]['type'] + '.' + re.sub(r'[0-9]+$','',p) + '@' + r[-6:])
    memo[cn] = res
    return res
acc = collections.Counter()
def key(n):
    n = re.sub(r'_(nx|base)$', '', n)
    if len(sys.argv) > 3: n = re.sub(r'\[.*', '', n)
    return n
for cn, c in cells.items():
    if lut.match(c['type']):
        s = sinks(cn) if not c['type'].startswith('SRL') else {group(cn)}
        s = {key(x) for x in s} or {'(none)'}
        for x in s: acc[x] += 1.0 / len(s)
tot = sum(acc.values())
for k, v in sorted(acc.items(), key=lambda kv: -kv[1]): print(f'{v:7.1f}  {k}')
print(f'{tot:7.1f}  total')
