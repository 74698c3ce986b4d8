#!/usr/bin/env bash
# Measures the DSP48E1 slices Yosys synth_xilinx builds for an unsigned n x n product kept
# to `out` bits, the table hwmodel::dsp_slices reproduces (tests/hwmodel/target_test.cc,
# DspSlicesMatchYosysMeasurements). Prints "n out dsp" rows.
set -euo pipefail
command -v yosys > /dev/null || { echo "error: yosys not found (Debian package yosys)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for n in 8 16 17 18 24 25 32 40 48 64; do
  for out in "$n" "$((2 * n))"; do
    cat > "$work/m.v" <<V
module m(input wire clk, input wire [$((n - 1)):0] a, input wire [$((n - 1)):0] b, output reg [$((out - 1)):0] p);
  wire [$((out - 1)):0] ax = a;
  wire [$((out - 1)):0] bx = b;
  always @(posedge clk) p <= ax * bx;
endmodule
V
    (cd "$work" && yosys -q -p "read_verilog m.v; synth_xilinx -noiopad -top m; tee -q -o stat.txt stat" > /dev/null)
    dsp="$(awk '/DSP48E1/ {print $2}' "$work/stat.txt" | head -1)"
    echo "$n $out ${dsp:-0}"
  done
done
