#!/usr/bin/env bash
# Measures what Yosys synth_xilinx -noiopad builds for the write side of a register file
# (ram_style "logic") written as rtl/verilog_module.cc port_mux writes it: S writers share
# the track's one write port through a priority chain of their enables, the address and
# data defaulting to the last writer's. Prints "D W S LUT FF extra" where extra is the LUTs
# over the same file with one writer (one read port addressed by an input, as
# scripts/calibrate_memory.sh). Not yet part of the estimate: see the README ("RTL: the
# estimate as hardware") for why. Then a literal writer against a value writer (below).
#   scripts/calibrate_write_port.sh
set -euo pipefail
source "$(dirname "$0")/lib/yosys_microbench.sh"
# Both microbenchmarks end alike: the selected write and one read port, clocked.
clocked_write_and_read() {
  echo "  always @(posedge clk) begin"
  echo "    if (we) mem[wa] <= wd;"
  echo "    rd <= mem[ra];"
  echo "  end"
  echo "endmodule"
}
for d in 16 64; do
  aw=$(address_bits "$d")
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
        clocked_write_and_read
      } > "$work/m.v"
      synth_m
      lut=$(cells "$lut_re")
      ((s == 1)) && base=$lut
      echo "$d $w $s $lut $(cells '^FD') $((lut - base))"
    done
  done
done

# A literal writer (a loop's copy-in of a one-value constant: rtl prints the constant as a
# literal) first in the chain of two, against a writer of a value: prints "D W literal LUT
# value LUT". A one-word file makes the literal write the word's synchronous set/reset
# (1 LUT for its condition instead of a W-bit multiplexer: hwmodel/control_flow.cc,
# write_mux_luts); from a few words the per-word enables absorb the multiplexer alike.
for d in 1 6 16; do
  aw=$(address_bits "$d")
  for w in 8 32; do
    row="$d $w"
    for lit in 1 0; do
      {
        echo "module m(input wire clk, input wire we0, input wire [$((aw - 1)):0] wa0, input wire [$((w - 1)):0] v0,"
        echo "  input wire we1, input wire [$((aw - 1)):0] wa1, input wire [$((w - 1)):0] wd1,"
        echo "  input wire [$((aw - 1)):0] ra, output reg [$((w - 1)):0] rd);"
        echo "  (* ram_style = \"logic\" *) reg [$((w - 1)):0] mem [0:$((d - 1))];"
        if ((lit)); then echo "  wire [$((w - 1)):0] wd0 = $w'd7;"; else echo "  wire [$((w - 1)):0] wd0 = v0;"; fi
        echo "  reg we; reg [$((aw - 1)):0] wa; reg [$((w - 1)):0] wd;"
        echo "  always @* begin"
        echo "    we = 1'b0; wa = wa1; wd = wd1;"
        echo "    if (we0) begin we = 1'b1; wa = wa0; wd = wd0; end"
        echo "    else if (we1) we = 1'b1;"
        echo "  end"
        clocked_write_and_read
      } > "$work/m.v"
      synth_m
      row="$row $(cells "$lut_re")"
    done
    echo "$row"
  done
done
