#!/usr/bin/python3
"""Measures the register-to-register delays the FPGA timing model composes (hwmodel/clock.h),
with Yosys synth_ice40 -dsp and nextpnr-ice40 on the iCE40 UP5K of designs/targets/ice40.yaml.

Each microbenchmark is one registered component between registers, shaped as the RTL emitter
writes it: a register-file read (a counter addresses `depth` words, a registered read port)
and one integer operation per width on operands held in registers (run-time values, as
the operands of a unit shared by several tasks are: its tag gates them). Inputs are loaded from one serial pin and outputs
shifted out through another, so the part's 39 pins suffice and every path stays register to
register. Prints each measurement and the `timing:` block of ice40.yaml:
  base_ns    a register -> one LUT -> register path (clock-to-out, one net, setup);
  lut_ns     each further LUT level (from the register-file reads: levels by depth);
  carry_ns   each bit of a carry chain (from the adders);
the op and read-port rows are what the model predicts from them, for comparison.
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
    "add": "a + b", "compare": "{{{w1}'d0, $signed(a) < $signed(b)}}", "max": "($signed(a) > $signed(b)) ? a : b",
    "abs": "a[{w1}] ? -a : a", "clamp": "($signed(a) < $signed(b)) ? b : (($signed(a) > $signed(c)) ? c : a)",
    "logic": "a ^ b",
}

def op_bench(expr, w):
    e = expr.format(w=w, w1=w - 1)
    return f"""
module bench(input wire clk, input wire [{3*w-1}:0] i, output wire [{w-1}:0] o);
  reg [{w-1}:0] a, b, c, y;
  always @(posedge clk) begin a <= i[{w-1}:0]; b <= i[{2*w-1}:{w}]; c <= i[{3*w-1}:{2*w}]; y <= {e}; end
  assign o = y;
endmodule
"""

def main():
    keep = sys.argv[sys.argv.index("--keep") + 1] if "--keep" in sys.argv else None
    work = keep or tempfile.mkdtemp()
    rows = {}
    for depth in [2, 4, 8, 16, 32, 64]:
        rows[f"read_{depth}"] = run(f"read_{depth}", read_port(depth, 32), 33, 32, work)
        print(f"read port, {depth:3d} words x 32: {rows[f'read_{depth}']:5.2f} ns", flush=True)
    for op in OPS:
        for w in [8, 16, 32]:
            rows[f"{op}_{w}"] = run(f"{op}_{w}", op_bench(OPS[op], w), 3 * w, w, work)
            print(f"{op:8s} {w:2d} bits: {rows[f'{op}_{w}']:5.2f} ns", flush=True)
    json.dump(rows, open(os.path.join(work, "timing.json"), "w"), indent=1)
    depths = [2, 4, 8, 16, 32, 64]
    # A LUT level with its net: the read port's growth per doubling of the words (one 2:1 level).
    lut = (rows["read_64"] - rows["read_2"]) / (math.log2(64) - math.log2(2))
    carry = (rows["add_32"] - rows["add_8"]) / 24
    def row(keys):
        return ", ".join("%.2f" % rows[k] for k in keys)
    ops = "".join(", %s: [%s]" % (op, row(["%s_%d" % (op, w) for w in [8, 16, 32]])) for op in OPS)
    print("timing:")
    print(f"  lut_ns: {lut:.2f}")
    print(f"  carry_ns: {carry:.3f}")
    print("  read_port: {words: [%s], ns: [%s]}" % (", ".join(map(str, depths)), row(["read_%d" % d for d in depths])))
    print(f"  ops: {{bits: [8, 16, 32]{ops}}}")
    print("raw measurements in", os.path.join(work, "timing.json"))
    if not keep:
        shutil.rmtree(work)

main()
