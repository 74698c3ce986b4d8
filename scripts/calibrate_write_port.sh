#!/usr/bin/env bash
# Measures what Yosys synth_xilinx -noiopad builds for the write side of a register file
# (ram_style "logic") written as rtl/verilog_module.cc port_mux writes it: S writers share
# the track's one write port through a priority chain of their enables, the address and
# data defaulting to the last writer's. Prints "D W S LUT FF extra" where extra is the LUTs
# over the same file with one writer (one read port addressed by an input, as
# scripts/calibrate_memory.sh). Not yet part of the estimate: see the README ("RTL: the
# estimate as hardware") for why.
#   scripts/calibrate_write_port.sh
set -euo pipefail
command -v yosys > /dev/null || { echo "error: yosys not found (Debian package yosys)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
lut_re='^(LUT[1-6]|SRL.*|RAM.*)$'  # as hlsgym rtl --synth counts LUTs (rtl/yosys.cc)
cells() { awk -v re="$1" '$1 ~ re && $2 ~ /^[0-9]+$/ {s += $2} END {print s + 0}' "$work/stat.txt"; }
for d in 16 64; do
  aw=1
  while ((1 << aw < d)); do aw=$((aw + 1)); done
  for w in 16 32; do
    base=0
    for s in 1 2 3 4; do
      {
        echo -n "module m(input wire clk"
        for k in $(seq 0 $((s - 1))); do echo -n ", input wire we$k, input wire [$((aw - 1)):0] wa$k, input wire [$((w - 1)):0] wd$k"; done
        echo ", input wire [$((aw - 1)):0] ra, output reg [$((w - 1)):0] rd);"
        echo "  (* ram_style = \"logic\" *) reg [$((w - 1)):0] mem [0:$((d - 1))];"
        echo "  reg we; reg [$((aw - 1)):0] wa; reg [$((w - 1)):0] wd;"
        echo "  always @* begin"
        echo "    we = 1'b0; wa = wa$((s - 1)); wd = wd$((s - 1));"
        for k in $(seq 0 $((s - 1))); do
          els=""
          ((k > 0)) && els="else "
          if ((k + 1 < s)); then echo "    ${els}if (we$k) begin we = 1'b1; wa = wa$k; wd = wd$k; end"
          else echo "    ${els}if (we$k) we = 1'b1;"; fi
        done
        echo "  end"
        echo "  always @(posedge clk) begin"
        echo "    if (we) mem[wa] <= wd;"
        echo "    rd <= mem[ra];"
        echo "  end"
        echo "endmodule"
      } > "$work/m.v"
      (cd "$work" && yosys -q -p "read_verilog m.v; synth_xilinx -noiopad -top m; tee -q -o stat.txt stat" > /dev/null)
      lut=$(cells "$lut_re")
      ((s == 1)) && base=$lut
      echo "$d $w $s $lut $(cells '^FD') $((lut - base))"
    done
  done
done
