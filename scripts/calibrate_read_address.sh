#!/usr/bin/env bash
# Measures what Yosys synth_xilinx -noiopad builds for one read port of a register file
# (ram_style "logic", one write port from inputs as scripts/calibrate_memory.sh) by where
# its address comes from. Prints "D W mode LUT FF":
#   input    the address is an input (the calibrated register_file row);
#   counter  a counter over the D words as rtl writes one (c == D-1 ? 0 : c + 1), whose
#            flip-flops feed both the read multiplexer and their own wrap logic;
#   window   D = 64: a 2 x 2 window over an 8 x 8 image as rtl writes maxpool's read
#            (counters ky, kx inner, oy, ox outer, the inner pair's wrap ticks stepping the
#            outer pair; address {oy, ky, ox, kx}: the bits out of counter order);
#   window_in_order  the same counters read in their nesting order {oy, ox, ky, kx};
#   window_free_ticks  out of order, the outer pair stepped by inputs instead of the
#            inner pair's ticks (no other logic reads the address flip-flops' pairs).
# Why: maxpool's 64 x 16 read tree is 592 LUT in the design (scripts/yosys_lut_attribution.py)
# where the row prices 394. Measured (Yosys 0.23): 16 x 16 input 96, counter 150; 16 x 32
# 176, 209; 64 x 16 480, 524, window 673, in order 442, free ticks 461; 64 x 32 878, 844,
# window 1277: the window's out-of-order address with its own ticks costs 1.45x the row at
# both widths. A register of the read port's own loaded with the next address does not
# avoid it here: its D inputs are the counters', and Yosys merges the two (the window's
# count again, 711 at 64 x 16, with or without (* keep *), whose register then stands for
# the counters). In rtl the counters load under their task's enable and the register every
# cycle, so `keep` holds them apart: rtl builds that register for such reads
# (hwmodel::next_address_bits), maxpool 822 -> 637 LUT, and the estimate prices the port
# at its register_file row. See the README ("RTL: the estimate as hardware").
#   scripts/calibrate_read_address.sh
set -euo pipefail
source "$(dirname "$0")/lib/yosys_microbench.sh"
emit() {  # D W mode
  local d=$1 w=$2 mode=$3 aw
  aw=$(address_bits "$1")
  echo "module m(input wire clk, input wire start, input wire we, input wire [$((aw - 1)):0] wa, input wire [$((w - 1)):0] wd,"
  echo "  input wire [$((aw - 1)):0] ra_in, output reg [$((w - 1)):0] rd);"
  echo "  (* ram_style = \"logic\" *) reg [$((w - 1)):0] mem [0:$((d - 1))];"
  echo "  reg [$((aw - 1)):0] ra;"
  case $mode in
    input) echo "  always @* ra = ra_in;" ;;
    counter)
      echo "  reg [$((aw - 1)):0] c;"
      echo "  always @(posedge clk) c <= start ? $aw'd0 : c == $aw'd$((d - 1)) ? $aw'd0 : c + $aw'd1;"
      echo "  always @* ra = c;" ;;
    window*)
      echo "  reg kx, ky; reg [1:0] ox, oy;"
      echo "  wire kx_n = kx + 1'd1, ky_n = kx == 1'd1 ? ky + 1'd1 : ky;"
      if [[ $mode == window_free_ticks ]]; then echo "  wire tick = ra_in[0], tick2 = ra_in[1];"
      else echo "  wire tick = kx == 1'd1 && ky == 1'd1, tick2 = tick && ox == 2'd3;"; fi
      echo "  wire [1:0] ox_n = tick ? ox + 2'd1 : ox, oy_n = tick2 ? oy + 2'd1 : oy;"
      echo "  always @(posedge clk) if (start) {oy, ox, ky, kx} <= 6'd0; else {oy, ox, ky, kx} <= {oy_n, ox_n, ky_n, kx_n};"
      if [[ $mode == window_in_order ]]; then echo "  always @* ra = {oy, ox, ky, kx};"
      else echo "  always @* ra = {oy, ky, ox, kx};"; fi ;;
  esac
  echo "  always @(posedge clk) begin"
  echo "    if (we) mem[wa] <= wd;"
  echo "    rd <= mem[ra];"
  echo "  end"
  echo "endmodule"
}
for d in 16 64; do
  for w in 16 32; do
    modes="input counter"
    ((d == 64)) && modes="$modes window window_in_order window_free_ticks"
    for mode in $modes; do
      emit "$d" "$w" "$mode" > "$work/m.v"
      synth_m
      echo "$d $w $mode $(cells "$lut_re") $(cells '^FD')"
    done
  done
done
