#!/usr/bin/env bash
# Measures what Yosys builds for the control logic of the emitted Verilog, one component at
# a time, written as the RTL emitter writes it (rtl/verilog_units.cc emit_loops,
# rtl/verilog_module.cc timelines): a loop counter of `w` bits that restarts on a go pulse
# and wraps at a bound (its compare included), a comparison of a counter with a constant,
# an adder of two index values and a scaling by a constant (affine address arithmetic),
# a timeline's cycle counter (no wrap: its increment alone).
# Prints one row per component and width and the `control:` block of the target file
# (hwmodel/microarch_control.h prices the microarchitecture's control with it).
#   scripts/calibrate_control.sh [xilinx|ice40]     (default xilinx: synth_xilinx -noiopad)
set -euo pipefail
family="${1:-xilinx}"
case "$family" in
  # LUTs as `hlsgym rtl --synth` counts them (rtl/yosys.cc: LUT1..6, SRL, RAM; a CARRY4 or
  # MUXF7/8 is no LUT), so the estimate and the Yosys column count the same cells
  xilinx) synth="synth_xilinx -noiopad -top s"; lut_re='^(LUT[1-6]|SRL.*|RAM.*)$'; ff_re='^FD' ;;
  # LUT4s as `hlsgym rtl --pnr` counts them (SB_LUT4; an SB_CARRY is the logic cell's carry,
  # no LUT), synthesized as it synthesizes (-dsp: a constant stride may become an SB_MAC16)
  ice40) synth="synth_ice40 -dsp -top s"; lut_re='^SB_LUT4$'; ff_re='^SB_DFF' ;;
  *) echo "usage: $0 [xilinx|ice40]" >&2; exit 2 ;;
esac
command -v yosys > /dev/null || { echo "error: yosys not found (Debian package yosys)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# cells COUNT_REGEX: sums the cells of stat.txt whose type matches
cells() { awk -v re="$1" '$1 ~ /^\$?[A-Za-z_0-9]+$/ && $1 ~ re && $2 ~ /^[0-9]+$/ {s += $2} END {print s + 0}' "$work/stat.txt"; }
synth_one() {  # writes stat.txt for $work/s.v
  (cd "$work" && yosys -q -p "read_verilog s.v; $synth; tee -q -o stat.txt stat" > /dev/null)
}

widths=(4 8 12 16 24)
declare -A col
for w in "${widths[@]}"; do
  m=$((w - 1))
  bound=$(( (1 << w) - 3 ))   # not a power of two: the wrap needs its compare
  k=$(( (1 << (w - 1)) - 5 ))
  # counter: restart on go, advance on en, wrap at bound (emit_loops' _nx logic)
  cat > "$work/s.v" <<V
module s(input wire clk, input wire go, input wire en, output reg [$m:0] c);
  always @(posedge clk) if (go) c <= ${w}'d0; else if (en) c <= (c == ${w}'d$bound) ? ${w}'d0 : c + ${w}'d1;
endmodule
V
  synth_one; col[counter_luts,$w]=$(cells "$lut_re"); col[counter_ffs,$w]=$(cells "$ff_re")
  # compare: a counter against a constant, as the ok/guard wires are (< and == alike)
  cat > "$work/s.v" <<V
module s(input wire clk, input wire [$m:0] a, output reg y, output reg z);
  always @(posedge clk) begin y <= a < ${w}'d$k; z <= a == ${w}'d$k; end
endmodule
V
  synth_one; col[compare_luts,$w]=$(( ($(cells "$lut_re") + 1) / 2 ))
  # adder: two index values (a linear form's terms), registered as the address is
  cat > "$work/s.v" <<V
module s(input wire clk, input wire [$m:0] a, input wire [$m:0] b, output reg [$m:0] y);
  always @(posedge clk) y <= a + b;
endmodule
V
  synth_one; col[adder_luts,$w]=$(cells "$lut_re")
  # scale: an index times a constant stride (odd, not a power of two)
  cat > "$work/s.v" <<V
module s(input wire clk, input wire [$m:0] a, output reg [$m:0] y);
  always @(posedge clk) y <= a * ${w}'d$(( (1 << (w / 2)) + 3 ));
endmodule
V
  synth_one; col[scale_luts,$w]=$(cells "$lut_re")
  # timer: a timeline's cycle counter, no wrap (restart on go, +1 while running); its end
  # compare is priced as a compare. Xilinx: the CARRY4 adds (0 LUT); iCE40: an SB_LUT4 per sum bit
  cat > "$work/s.v" <<V
module s(input wire clk, input wire go, input wire run, output reg [$m:0] c);
  always @(posedge clk) if (go) c <= ${w}'d0; else if (run) c <= c + ${w}'d1;
endmodule
V
  synth_one; col[timer_luts,$w]=$(cells "$lut_re")
  echo "$w bits: counter ${col[counter_luts,$w]} LUT ${col[counter_ffs,$w]} FF, compare ${col[compare_luts,$w]}, adder ${col[adder_luts,$w]}, scale ${col[scale_luts,$w]}, timer ${col[timer_luts,$w]}"
done
# The sharing rules hwmodel/microarch_control.cc applies to the whole loop nest, each
# measured on its own microbenchmark (printed, no row of the control: block):
# - an index sum whose operands occupy disjoint bits, (i << 6) + j with j < 64, is wiring;
# - a tag delayed 4 stages without reset is one SRL16E per bit past its first register;
# - the address arithmetic of a register file's read folds into its read multiplexer
#   (LUTs of a 64-word read at i * 6 + j equal within a few of a read at a plain address).
cat > "$work/s.v" <<V
module s(input wire clk, input wire [5:0] i, input wire [5:0] j, output reg [11:0] y);
  always @(posedge clk) y <= ({6'd0, i} << 6) + {6'd0, j};
endmodule
V
synth_one; echo "disjoint index sum (i << 6) + j: $(cells "$lut_re") LUT"
cat > "$work/s.v" <<V
module s(input wire clk, input wire [5:0] a, output reg [5:0] y);
  reg [5:0] t1, t2, t3;
  always @(posedge clk) begin t1 <= a; t2 <= t1; t3 <= t2; y <= t3; end
endmodule
V
synth_one; echo "6-bit tag over 4 stages: $(cells "$lut_re") LUT (SRL16E) $(cells "$ff_re") FF"
for addr in "i * 7'd6 + j" "{i, j}"; do
  cat > "$work/s.v" <<V
module s(input wire clk, input wire we, input wire [5:0] wa, input wire [15:0] wd, input wire [3:0] i, input wire [2:0] j, output reg [15:0] y);
  (* ram_style = "logic" *) reg [15:0] m [0:63];
  wire [6:0] ra = $addr;
  always @(posedge clk) begin if (we) m[wa] <= wd; y <= m[ra[5:0]]; end
endmodule
V
  synth_one; echo "register-file read, 64 x 16, address $addr: $(cells "$lut_re") LUT"
done
row() { local out=(); for w in "${widths[@]}"; do out+=("${col[$1,$w]}"); done; local j; j="$(printf '%s, ' "${out[@]}")"; echo "${j%, }"; }
echo "control: {bits: [$(printf '%s, ' "${widths[@]}" | sed 's/, $//')], counter_luts: [$(row counter_luts)], counter_ffs: [$(row counter_ffs)], compare_luts: [$(row compare_luts)], adder_luts: [$(row adder_luts)], scale_luts: [$(row scale_luts)], timer_luts: [$(row timer_luts)]}"
