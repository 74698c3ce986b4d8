#!/usr/bin/python3
"""Measures the register-to-register delays the FPGA timing model composes (hwmodel/clock.h),
with Yosys synth_ice40 -dsp and nextpnr-ice40 on the iCE40 UP5K of designs/targets/ice40.yaml.

Each microbenchmark is one registered component between registers, shaped as the RTL emitter
writes it: a register-file read (a counter addresses `depth` words of 16 and of 32 bits, a registered read port)
and one integer operation per width on operands held in registers (run-time values, as
the operands of a unit shared by several tasks are). Inputs are loaded from one serial pin and outputs
shifted out through another, so the part's 39 pins suffice and every path stays register to
register. Prints each measurement and the `timing:` block of ice40.yaml:
  base_ns    a register -> one LUT -> register path (clock-to-out, one net, setup);
  lut_ns     each further LUT level (from the register-file reads: levels by depth);
  carry_ns   each bit of a carry chain (from the adders);
the op and read-port rows are what the model predicts from them, for comparison.
Stop 33 added, each written as rtl writes it: `shift` (a shift by a run-time amount: the
amount's range compare, then the masked shifter), `mac` (an integer mac lane's accumulate
stage, whose product leaves an SB_MAC16's output register: dot_product's 4.1 ns net) and
gather_start (a gather's clamped run-time start in front of a read port, by index bits).
--only NAME,... runs the benches whose names start so (and prints no block).
Usage: scripts/calibrate_timing.py [--keep DIR]
"""
import json, math, os, shutil, subprocess, sys, tempfile

def need(tool, package):
    if shutil.which(tool) is None:
        sys.exit(f"error: {tool} not found (Debian package {package})")

need("yosys", "yosys"); need("nextpnr-ice40", "nextpnr-ice40")

HARNESS = """
module top(input wire clk, input wire si, input wire ld, output wire so);
  reg [{IN}:0] sin;
  always @(posedge clk) sin <= {{sin[{IN_1}:0], si}};
  wire [{OUT}:0] o;
  bench b(.clk(clk), .i(sin), .o(o));
  reg [{OUT}:0] sout;
  always @(posedge clk) sout <= ld ? o : {{sout[{OUT_1}:0], 1'b0}};
  assign so = sout[{OUT}];
endmodule
"""

cells = {}  # logic cells nextpnr used, by bench

def run(name, body, in_bits, out_bits, work):
    d = os.path.join(work, name); os.makedirs(d, exist_ok=True)
    v = body + HARNESS.format(IN=in_bits - 1, IN_1=max(in_bits - 2, 0), OUT=out_bits - 1, OUT_1=max(out_bits - 2, 0))
    open(os.path.join(d, "b.v"), "w").write(v)
    subprocess.run(["yosys", "-q", "-p", "read_verilog b.v; synth_ice40 -dsp -top top -json n.json"], cwd=d, check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["nextpnr-ice40", "--up5k", "--package", "sg48", "--json", "n.json", "--freq", "24", "--report", "r.json",
                    "--seed", "1", "--timing-allow-fail", "-q"], cwd=d, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    r = json.load(open(os.path.join(d, "r.json")))
    fmax = next(iter(r["fmax"].values()))["achieved"]
    cells[name] = r["utilization"]["ICESTORM_LC"]["used"]
    return 1000.0 / fmax

def read_port(depth, w=16):
    a = max(1, math.ceil(math.log2(depth)))
    return f"""
module bench(input wire clk, input wire [{w}:0] i, output wire [{w-1}:0] o);
  (* ram_style = "logic" *)
  reg [{w-1}:0] m [0:{depth-1}];
  reg [{a-1}:0] c, wa;
  reg [{w-1}:0] rd;
  always @(posedge clk) begin
    c <= c + 1'b1; wa <= wa + 1'b1 + i[0];
    if (i[{w}]) m[wa] <= i[{w-1}:0];
    rd <= m[c];
  end
  assign o = rd;
endmodule
"""

OPS = {
    "add": "a + b", "compare": "{{{w1}'d0, $signed(a) < $signed(b)}}", "compare_unsigned": "{{{w1}'d0, a < b}}", "max": "($signed(a) > $signed(b)) ? a : b",
    "abs": "a[{w1}] ? -a : a", "clamp": "(($signed(m) < $signed(c)) ? m : c)",
    "logic": "a ^ b",
    # a shift by a run-time amount as rtl/verilog_ops.cc writes it: the amount's range
    # compare (a carry chain over its bits) selects the sign fill or the masked shifter
    "shift": "(b >= {w}'d{w}) ? ($signed(a) >>> {s}'d{w1}) : ($signed(a) >>> (b & {w}'d{w1}))",
}

def op_bench(expr, w):
    e = expr.format(w=w, w1=w - 1, s=max(1, math.ceil(math.log2(w))))
    return f"""
module bench(input wire clk, input wire [{3*w-1}:0] i, output wire [{w-1}:0] o);
  reg [{w-1}:0] a, b, c, y;
  wire [{w-1}:0] m = ($signed(a) > $signed(b)) ? a : b;  // clamp: max, then min in series (rtl/verilog_ops.cc)
  always @(posedge clk) begin a <= i[{w-1}:0]; b <= i[{2*w-1}:{w}]; c <= i[{3*w-1}:{2*w}]; y <= {e}; end
  assign o = y;
endmodule
"""

SHARE_TASKS = [1, 2, 3, 4, 8]

def shared_bench(n, w=16):
    """A unit instance shared by n tasks as rtl/verilog_units.cc writes it: each task loads its
    operands without its tag (each has logic of its own) and computes its add, the tag
    selects the result. (Until stop 30 the tag also gated the operands, 3.7-4.1 ns more.)
    The tag is registered from constants, one per task's issue window (here an input bit
    each), as rtl writes it: Yosys extracts it as a state machine and recodes it one-hot,
    so the gates decode no tag (a tag loaded from run-time bits costs a decoding level
    more than any design pays)."""
    t = max(1, math.ceil(math.log2(n)))
    regs = "".join(f"  reg [{w-1}:0] a{k}, b{k};\n  reg [{w-1}:0] l{k}a, l{k}b;\n" for k in range(n))
    load = "".join(f"a{k} <= i[{(2*k+1)*w-1}:{2*k*w}]; b{k} <= i[{(2*k+2)*w-1}:{(2*k+1)*w}]; " for k in range(n))
    gate = "".join(f"    l{k}a = a{k}; l{k}b = b{k};\n" for k in range(n))
    pick = "".join(f"    if (tg == {t}'d{k}) v = l{k}a + l{k}b;\n" for k in range(n))
    if n == 1:  # the unshared baseline: no tag
        gate, pick = "    l0a = a0; l0b = b0;\n", "    v = l0a + l0b;\n"
    window = "".join(f"    if (i[{2*n*w+k}]) t0 = {t}'d{k};\n" for k in range(n))
    return f"""
module bench(input wire clk, input wire [{2*n*w+n-1}:0] i, output wire [{w-1}:0] o);
{regs}  reg [{t-1}:0] t0, tg;
  reg [{w-1}:0] v, y;
  always @* begin
    t0 = {t}'d0;
{window}  end
  always @* begin
{gate}    v = {w}'d0;
{pick}  end
  always @(posedge clk) begin {load}tg <= t0; y <= v; end
  assign o = y;
endmodule
"""

WRITE_WORDS = [1, 4, 16, 64]

def write_bench(words, w=16):
    """A 16-bit add whose result one of `words` registers stores, as a unit writes the word
    registers of its destination track: the sum's net reaches every word (fanout `words`).
    Every word is an output (loaded into the harness in parallel), so no read multiplexer
    is on a path."""
    a = max(1, math.ceil(math.log2(words)))
    out = ", ".join(f"r[{k}]" for k in reversed(range(words)))
    return f"""
module bench(input wire clk, input wire [{2*w+a-1}:0] i, output wire [{words*w-1}:0] o);
  reg [{w-1}:0] r [0:{words-1}];
  reg [{w-1}:0] a, b;
  reg [{a-1}:0] wa;
  wire [{w-1}:0] sum = a + b;
  integer k;
  always @(posedge clk) begin
    a <= i[{w-1}:0]; b <= i[{2*w-1}:{w}]; wa <= i[{2*w+a-1}:{2*w}];
    for (k = 0; k < {words}; k = k + 1) if (wa == k) r[k] <= sum;
  end
  assign o = {{{out}}};
endmodule
"""

GATHER_INDEX_BITS = [8, 16, 32]

def gather_bench(ib, depth=16, w=32, rows=4):
    """A gather's read as rtl writes it (rtl/verilog_units.cc emit_lead, clamp_start): the
    start index's read register (`ib` bits, signed) clamped to [0, rows - 1] (its sign bit
    and a carry-chain compare against the last start), its low bits times the row stride
    plus the row's counter as the address of a `depth`-word register file, then the word
    multiplexer and the read register. The stride is a power of two above the counter's
    reach, so the address is wiring (no adder: those are priced apart, hwmodel/clock_address.h);
    against read_{depth} it is what the clamp of a run-time start adds in front of a read port."""
    a = max(1, math.ceil(math.log2(depth)))
    ob = max(1, math.ceil(math.log2(rows)))
    cb = a - ob
    return f"""
module bench(input wire clk, input wire [{w+ib}:0] i, output wire [{w-1}:0] o);
  (* ram_style = "logic" *)
  reg [{w-1}:0] m [0:{depth-1}];
  reg [{a-1}:0] wa;
  reg [{cb-1}:0] c;
  reg [{ib-1}:0] ix;
  reg [{ib-1}:0] clamped;
  reg [{w-1}:0] rd;
  wire [{ob-1}:0] start = clamped[{ob-1}:0];
  wire [{a-1}:0] ra = c + start * {a}'d{1 << cb};
  always @* clamped = ix[{ib-1}] ? {ib}'d0 : ((ix > {ib}'d{rows-1}) ? {ib}'d{rows-1} : ix);
  always @(posedge clk) begin
    c <= c + 1'b1; wa <= wa + 1'b1 + i[0]; ix <= i[{w+ib-1}:{w}];
    if (i[{w+ib}]) m[wa] <= i[{w-1}:0];
    rd <= m[ra];
  end
  assign o = rd;
endmodule
"""

def mac_bench(w=32):
    """An integer mac lane's accumulate stage as rtl/verilog_units.cc writes it
    (emit_accumulate, clear_slots; dot_product's lane): the operands from read registers,
    gated by the stage's task tag, their product registered (p2: Yosys packs it into an
    SB_MAC16's output register), the accumulator operand the slot register selected by
    the tag, the slot cleared by a flag the cycle before an output's first term and loaded
    with slot + product when the stage's ok is set. Against add_{w}: what the product's
    net out of the DSP block adds to the fabric adder."""
    return f"""
module bench(input wire clk, input wire [{2*w+3}:0] i, output wire [{w-1}:0] o);
  reg [{w-1}:0] ra, rb, a, b, p2, acc, sum, accr;
  reg ok2, f1, t1, t2;
  wire [{w-1}:0] p1 = a * b;
  always @* begin
    a = {w}'d0; b = {w}'d0;
    if (t1 == 1'd0) begin a = ra; b = rb; end
    acc = {w}'d0;
    if (t2 == 1'd0) acc = accr;
    sum = acc + p2;
  end
  always @(posedge clk) begin
    ra <= i[{w-1}:0]; rb <= i[{2*w-1}:{w}]; ok2 <= i[{2*w}]; f1 <= i[{2*w+1}]; t1 <= i[{2*w+2}]; t2 <= i[{2*w+3}];
    p2 <= p1;
    if (ok2 && t2 == 1'd0) accr <= sum;
    if (f1) accr <= {w}'d0;
  end
  assign o = accr;
endmodule
"""

PLACED_COPIES = [1, 4, 8]  # 16 copies (~4,000 cells): nextpnr-ice40 exited with an error there

def placed_bench(copies, w=16, depth=8):
    """`copies` distinct copies (each input salted by its own constant, so synthesis merges
    none) of a cell that reads a register file of `depth` words and adds a register to the
    word: the same paths as the read_port and add benches, placed in designs of
    ~300 to ~2,100 logic cells. Their slowest path against one copy's is how nets stretch
    as a placement grows (route_factor)."""
    a = max(1, math.ceil(math.log2(depth)))
    cells = "".join(f"  cell #(.SALT({w + 1}'d{(k * 40503) % (1 << (w + 1))})) c{k}(.clk(clk), .i(i), .o(o[{(k+1)*w-1}:{k*w}]));\n"
                    for k in range(copies))
    return f"""
module cell #(parameter [{w}:0] SALT = 0) (input wire clk, input wire [{2*w}:0] i, output wire [{w-1}:0] o);
  (* ram_style = "logic" *)
  reg [{w-1}:0] m [0:{depth-1}];
  reg [{a-1}:0] c, wa;
  reg [{w-1}:0] rd, b, y;
  wire [{w}:0] s = i[{w}:0] ^ SALT;
  always @(posedge clk) begin
    c <= c + 1'b1; wa <= wa + 1'b1 + s[0];
    if (s[{w}]) m[wa] <= s[{w-1}:0];
    rd <= m[c]; b <= i[{2*w}:{w+1}] ^ SALT[{w-1}:0]; y <= rd + b;
  end
  assign o = y;
endmodule
module bench(input wire clk, input wire [{2*w}:0] i, output wire [{copies*w-1}:0] o);
{cells}endmodule
"""

def main():
    keep = sys.argv[sys.argv.index("--keep") + 1] if "--keep" in sys.argv else None
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""  # run the benches named so
    work = keep or tempfile.mkdtemp()
    benches = [(f"read_{d}", read_port(d, 32), 33, 32) for d in [2, 4, 8, 16, 32, 64]]
    benches += [(f"read16_{d}", read_port(d, 16), 17, 16) for d in [2, 4, 8, 16, 32, 64]]
    benches += [(f"{op}_{w}", op_bench(OPS[op], w), 3 * w, w) for op in OPS for w in [8, 16, 32]]
    benches += [(f"share_{n}", shared_bench(n), 2 * n * 16 + n, 16) for n in SHARE_TASKS]
    benches += [(f"write_{n}", write_bench(n), 32 + max(1, math.ceil(math.log2(n))), 16 * n) for n in WRITE_WORDS]
    benches += [(f"gather_{b}", gather_bench(b), 33 + b, 32) for b in GATHER_INDEX_BITS]
    benches += [(f"mac_{w}", mac_bench(w), 2 * w + 4, w) for w in [8, 16, 32]]
    benches += [(f"placed_{k}", placed_bench(k), 33, 16 * k) for k in PLACED_COPIES]
    rows = {}
    for name, body, i, o in benches:
        if only and not name.startswith(tuple(only.split(","))):
            continue
        rows[name] = run(name, body, i, o, work)
        print(f"{name:10s} {rows[name]:6.2f} ns  {cells[name]:5d} logic cells", flush=True)
    json.dump({"ns": rows, "logic_cells": cells}, open(os.path.join(work, "timing.json"), "w"), indent=1)
    if only:
        return
    depths = [2, 4, 8, 16, 32, 64]
    # A LUT level with its net: the read port's growth per doubling of the words (one 2:1 level).
    lut = (rows["read_64"] - rows["read_2"]) / (math.log2(64) - math.log2(2))
    carry = (rows["add_32"] - rows["add_8"]) / 24
    def row(keys):
        return ", ".join("%.2f" % rows[k] for k in keys)
    ops = "".join(", %s: [%s]" % (op, row(["%s_%d" % (op, w) for w in [8, 16, 32]])) for op in list(OPS) + ["mac"])
    # What sharing adds to a 16-bit add: the operand gates and the result select.
    share = ", ".join("%.2f" % (rows["share_%d" % n] - rows["share_1"]) for n in SHARE_TASKS[1:])
    print("timing:")
    print(f"  lut_ns: {lut:.2f}")
    print(f"  carry_ns: {carry:.3f}")
    print("  read_port: {words: [%s], ns_16bit: [%s], ns_32bit: [%s]}" % (", ".join(map(str, depths)),
          row(["read16_%d" % d for d in depths]), row(["read_%d" % d for d in depths])))
    print(f"  ops: {{bits: [8, 16, 32]{ops}}}")
    # Nets stretch as the placement grows: the copies' slowest path over one copy's, by cells.
    print("  route: {logic_cells: [%s], factor: [%s]}" % (", ".join(str(cells["placed_%d" % k]) for k in PLACED_COPIES),
          ", ".join("%.3f" % (rows["placed_%d" % k] / rows["placed_1"]) for k in PLACED_COPIES)))
    print("  write_port: {words: [%s], ns: [%s]}" % (", ".join(map(str, WRITE_WORDS[1:])),
          ", ".join("%.2f" % (rows["write_%d" % n] - rows["write_1"]) for n in WRITE_WORDS[1:])))
    # What a run-time start index puts in front of a read port: its clamp and the address's
    # adders (the gather bench over the plain read port of its 16 words).
    print("  gather_start: {bits: [%s], ns: [%s]}" % (", ".join(map(str, GATHER_INDEX_BITS)),
          ", ".join("%.2f" % (rows["gather_%d" % b] - rows["read_16"]) for b in GATHER_INDEX_BITS)))
    print("  shared_unit: {tasks: [%s], ns: [%s]}" % (", ".join(map(str, SHARE_TASKS[1:])), share))
    print("raw measurements in", os.path.join(work, "timing.json"))
    if not keep:
        shutil.rmtree(work)

main()
