#!/usr/bin/env bash
# Measures what Yosys synth_xilinx -noiopad builds for a register file (ram_style "logic",
# one write port from inputs, R synchronous read ports addressed by inputs, as
# scripts/calibrate_memory.sh) by its number of read ports: D words x W bits x R ports for
# D 8..16, W 8/16/32, R 1/2/4/6. Prints "D W R LUT FF", then per depth the row
# "further D LUTS_PER_BIT": the least-squares slope (through 0) of LUT(D, W, R) - LUT(D, W, 1)
# over W x (R - 1), the LUTs of each further port per bit.
# Why: calibrate_memory.sh's rows are one and two ports at 8 and 32 bits; a file with more
# ports (float/elementwise_bf16: seven 12-word files, up to 6 ports each) was priced by the
# one-port row per port, which over-prices a 12- or 14-word file's further ports. The
# register_file rows' `further_port_luts_per_bit` (designs/targets/fpga.yaml) is derived
# from this table: see the comment there.
#   scripts/calibrate_read_ports.sh
set -euo pipefail
source "$(dirname "$0")/lib/yosys_microbench.sh"
depths=${DEPTHS:-"8 10 12 14 16"}
for d in $depths; do
  for w in 8 16 32; do
    for r in 1 2 4 6; do
      register_file_verilog "$d" "$w" "$r"
      synth_m
      echo "$d $w $r $(cells "$lut_re") $(cells '^FD')" | tee -a "$work/rows.txt"
    done
  done
done
awk '$3 == 1 {one[$1 " " $2] = $4} $3 > 1 {x = $2 * ($3 - 1); y = $4 - one[$1 " " $2]; sxy[$1] += x * y; sxx[$1] += x * x}
     END {for (d in sxx) printf "further %d %.2f\n", d, sxy[d] / sxx[d]}' "$work/rows.txt" | sort -k2n
