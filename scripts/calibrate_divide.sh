#!/usr/bin/env bash
# Measures the LUTs Yosys synth_xilinx builds for a signed integer divide and remainder
# written as the RTL emitter writes them (rtl/verilog_ops.cc: XLA's results for a zero
# divisor and for MIN / -1, then Verilog's signed `/` and `%`: one combinational array
# divider, the unit's pipeline register after it), for each width given (default 8 16 32
# 64); prints "width kind luts" rows and the mean per width, the `int_divide_luts` table of
# designs/targets/fpga.yaml (a divider grows with the square of its width). rtl builds a
# divider at the width its operands' ranges need (hwmodel::divider_bits, e.g. 34 bits for
# an ap_fixed<20,8> quotient in an s64 container), so the table has rows at those widths:
#   scripts/calibrate_divide.sh 8 16 29 30 32 34 39 49 64
# The divide and the remainder of one width synthesize in parallel.
set -euo pipefail
source "$(dirname "$0")/lib/yosys_microbench.sh"
widths=("$@")
((${#widths[@]})) || widths=(8 16 32 64)
means=()
for w in "${widths[@]}"; do
  min="$(printf "%d'h%x" "$w" $((1 << (w - 1))))"
  for kind in div rem; do
    case $kind in
      div) e="(b == ${w}'h0) ? \$signed({${w}{1'b1}}) : (a == $min && b == {${w}{1'b1}}) ? \$signed($min) : (\$signed(a) / \$signed(b))" ;;
      rem) e="(b == ${w}'h0) ? \$signed(a) : (a == $min && b == {${w}{1'b1}}) ? \$signed(${w}'h0) : (\$signed(a) % \$signed(b))" ;;
    esac
    mkdir -p "$work/$kind"
    cat > "$work/$kind/m.v" <<V
module m(input wire clk, input wire [$((w - 1)):0] a, input wire [$((w - 1)):0] b, output reg [$((w - 1)):0] y);
  always @(posedge clk) y <= $e;
endmodule
V
    (cd "$work/$kind" && yosys -q -p "read_verilog m.v; synth_xilinx -noiopad -top m; tee -q -o stat.txt stat" > /dev/null) &
  done
  wait
  total=0
  for kind in div rem; do
    cp "$work/$kind/stat.txt" "$work/stat.txt"
    luts="$(cells "$lut_re")"
    echo "$w $kind $luts"
    total=$((total + luts))
  done
  means+=("$(((total + 1) / 2))")
done
joined_bits="$(printf '%s, ' "${widths[@]}")"
joined="$(printf '%s, ' "${means[@]}")"
echo "int_divide_luts: {bits: [${joined_bits%, }], luts: [${joined%, }]}"
