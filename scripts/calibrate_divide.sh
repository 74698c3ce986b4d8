#!/usr/bin/env bash
# Measures the LUTs Yosys synth_xilinx builds for an integer divide and remainder written as
# the RTL emitter writes them (rtl/verilog_ops.cc: XLA's results for a zero divisor and for
# MIN / -1, then Verilog's signed `/` and `%`: one combinational array divider, the unit's
# pipeline registers after it), for each width; prints "width kind luts" rows and the mean
# per width, the `int_divide_luts` table of designs/targets/fpga.yaml (a divider grows with
# the square of its width: the int_div row's LUTs, scaled in proportion, are replaced by it).
set -euo pipefail
command -v yosys > /dev/null || { echo "error: yosys not found (Debian package yosys)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
means=()
for w in 8 16 32 64; do
  total=0
  min="${w}'h8$(printf '0%.0s' $(seq 2 $((w / 4))))"
  for kind in div rem; do
    case $kind in
      div) e="(b == ${w}'h0) ? {${w}{1'b1}} : (a == $min && b == {${w}{1'b1}}) ? $min : (\$signed(a) / \$signed(b))" ;;
      rem) e="(b == ${w}'h0) ? a : (a == $min && b == {${w}{1'b1}}) ? ${w}'h0 : (\$signed(a) % \$signed(b))" ;;
    esac
    cat > "$work/d.v" <<V
module d(input wire clk, input wire [$((w - 1)):0] a, input wire [$((w - 1)):0] b, output reg [$((w - 1)):0] y);
  always @(posedge clk) y <= $e;
endmodule
V
    (cd "$work" && yosys -q -p "read_verilog d.v; synth_xilinx -noiopad -top d; tee -q -o stat.txt stat" > /dev/null)
    luts="$(awk '$1 ~ /^(LUT[1-6]|SRL|RAM)/ {s += $2} END {print s + 0}' "$work/stat.txt")"
    echo "$w $kind $luts"
    total=$((total + luts))
  done
  means+=("$(( (total + 1) / 2 ))")
done
joined="$(printf '%s, ' "${means[@]}")"
echo "int_divide_luts: {bits: [8, 16, 32, 64], luts: [${joined%, }]}"
