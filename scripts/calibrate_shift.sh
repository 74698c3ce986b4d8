#!/usr/bin/env bash
# Measures the LUTs Yosys synth_xilinx builds for a shift by a run-time amount, written as
# the RTL emitter writes it (rtl/verilog_ops.cc: XLA's semantics for amounts >= the width),
# for each width and kind; prints "width kind luts" rows and the mean per width, the
# `variable_shift_luts` table of designs/targets/fpga.yaml (hwmodel prices a shift whose
# amount is not a constant with it; a constant amount is wiring).
#   scripts/calibrate_shift.sh [xilinx|ice40]   (ice40: synth_ice40 -dsp, SB_LUT4 counted as
#                                               `hlsgym rtl --pnr` counts them, for ice40.yaml)
set -euo pipefail
family="${1:-xilinx}"
case "$family" in
  xilinx) synth="synth_xilinx -noiopad -top s"; lut_re='^(LUT[1-6]|SRL|RAM)' ;;
  ice40) synth="synth_ice40 -dsp -top s"; lut_re='^SB_LUT4$' ;;
  *) echo "usage: $0 [xilinx|ice40]" >&2; exit 2 ;;
esac
command -v yosys > /dev/null || { echo "error: yosys not found (Debian package yosys)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
means=()
for w in 8 16 32 64; do
  total=0
  for kind in shl srl sra; do
    lim="(b >= ${w}'d${w})"
    amt="(b & ${w}'d$((w - 1)))"  # below the limit only the low log2(w) bits matter
    case $kind in
      shl) e="$lim ? ${w}'d0 : (a << $amt)" ;;
      srl) e="$lim ? ${w}'d0 : (a >> $amt)" ;;
      sra) e="$lim ? (\$signed(a) >>> $(( $(echo "l($w)/l(2)" | bc -l | cut -d. -f1) + 1 ))'d$((w - 1))) : (\$signed(a) >>> $amt)" ;;
    esac
    cat > "$work/s.v" <<V
module s(input wire clk, input wire [$((w - 1)):0] a, input wire [$((w - 1)):0] b, output reg [$((w - 1)):0] y);
  always @(posedge clk) y <= $e;
endmodule
V
    (cd "$work" && yosys -q -p "read_verilog s.v; $synth; tee -q -o stat.txt stat" > /dev/null)
    luts="$(awk -v re="$lut_re" '$1 ~ re {s += $2} END {print s + 0}' "$work/stat.txt")"
    echo "$w $kind $luts"
    total=$((total + luts))
  done
  means+=("$(( (total + 1) / 3 ))")
done
joined="$(printf '%s, ' "${means[@]}")"
echo "variable_shift_luts: {bits: [8, 16, 32, 64], luts: [${joined%, }]}"
