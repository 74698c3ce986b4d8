#!/usr/bin/env bash
# Measures what Yosys synth_xilinx builds for a register file (ram_style "logic", one write
# port, R synchronous read ports) of D words x W bits: the LUTs and FFs behind
# Target::register_file (designs/targets/fpga.yaml, register_file). Prints "D W R LUT FF".
# LUTs = R x W x mux_luts_per_bit(D) + decode_luts(D); FFs = D x W + R x W.
# The 64-word row (24.6 LUT per port bit, decode 91) is priced between 32 and 64 words by
# the line between the two rows (register_file.interpolate_from): Yosys builds 36 x 16 in
# 292 LUT and 48 x 16 in 377, about linear, where the next larger row would give 485.
# Below 32 words the cost jumps past 16 (a 16:1 word multiplexer is one LUT6 level with
# MUXF7/F8), so 18, 20 and 24 words are rows of their own (a file between rows takes the
# next larger); below 16, 10, 12 and 14 words are rows too (14 x 32: 200 LUT against 176
# for 16 words; 10 x 8: 42 against 56). A row: mux_luts_per_bit = (LUT(D, 32, 1) - LUT(D, 8, 1)) / 24,
# decode_luts = LUT(D, 32, 1) - 32 x mux_luts_per_bit (18: 306 and 90 LUT -> 9.0, 18), at
# least 0 (10: 170 and 42 LUT -> 5.33 and -0.7, read 0). Those rows price a file's first read
# port; its further ports at 8 to 16 words: scripts/calibrate_read_ports.sh.
set -euo pipefail
source "$(dirname "$0")/lib/yosys_microbench.sh"
for d in 2 4 8 10 12 14 16 18 20 24 32 64; do
  for w in 8 32; do
    for r in 1 2; do
      register_file_verilog "$d" "$w" "$r"
      synth_m
      lut=$(awk '/LUT[0-9]/ {s += $2} END {print s + 0}' "$work/stat.txt")
      ff=$(awk '/FD/ {s += $2} END {print s + 0}' "$work/stat.txt")
      echo "$d $w $r $lut $ff"
    done
  done
done
