#!/usr/bin/env bash
# Measures what Yosys builds for one lane of a unit's datapath alone, written as the RTL
# emitter writes it (rtl/verilog_units.cc: the registered reads -> the task's expression
# -> the value pipeline -> the track's write data), without its counters, tags or memories
# (those are the control: block, scripts/calibrate_control.sh, and the register_file rows,
# scripts/calibrate_memory.sh). The read registers and the word the result is written
# into are the tracks', so they are ports and one output register here, not counted:
# - int_alu, depth 2 (read + 1): the operation is combinational between the read registers
#   and the write (an add of two w-bit values: the row's op; and, xor, max, select,
#   compare printed beside it);
# - mem, depth 3 (read + 2): the value travels one pipeline register (v2) to the write.
# LUTs counted as `hlsgym rtl --synth` counts them (rtl/yosys.cc: LUT1..6, SRL, RAM; not
# CARRY4 or MUXF7/8). Prints the rows for designs/targets/fpga.yaml (units: at 32 bits).
#   scripts/calibrate_datapath.sh
set -euo pipefail
command -v yosys > /dev/null || { echo "error: yosys not found (Debian package yosys)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
lut_re='^(LUT[1-6]|SRL.*|RAM.*)$'
cells() { awk -v re="$1" '$1 ~ /^\$?[A-Za-z_0-9]+$/ && $1 ~ re && $2 ~ /^[0-9]+$/ {s += $2} END {print s + 0}' "$work/stat.txt"; }
synth_one() { (cd "$work" && yosys -q -p "read_verilog s.v; synth_xilinx -noiopad -top s; tee -q -o stat.txt stat" > /dev/null); }

# lane EXPR W [OUT]: the operation on read registers a, b (ports) into the write register
# y; prints "LUT FF" of the lane (FF less y's OUT bits, default W: the track's word, not
# the unit's)
lane() {
  local w=$2 m=$(($2 - 1)) out=${3:-$2}
  cat > "$work/s.v" <<V
module s(input wire clk, input wire signed [$m:0] a, input wire signed [$m:0] b, input wire c, output reg [$m:0] y);
  always @(posedge clk) y <= $1;
endmodule
V
  synth_one
  echo "$(cells "$lut_re") $(($(cells '^FD') - out))"
}
# the mem lane: one pipeline register between the read and the write
mem_lane() {
  local w=$1 m=$(($1 - 1))
  cat > "$work/s.v" <<V
module s(input wire clk, input wire [$m:0] a, output reg [$m:0] y);
  reg [$m:0] v2;
  always @(posedge clk) begin v2 <= a; y <= v2; end
endmodule
V
  synth_one
  echo "$(cells "$lut_re") $(($(cells '^FD') - w))"
}

for w in 8 16 32; do
  echo "$w bits: add $(lane 'a + b' $w), and $(lane 'a & b' $w), xor $(lane 'a ^ b' $w)," \
       "max $(lane '(a > b) ? a : b' $w), select $(lane 'c ? a : b' $w), compare $(lane "{$((w - 1))'d0, a < b}" $w 1)," \
       "mem $(mem_lane $w)  (LUT FF)"
done
# An int_alu lane whose operand is a literal: rtl prints a one-value constant as a literal
# (its read register holds a constant, which synthesis folds), and negate (`0 - a`) and not
# (`~a`) are written against one. Each op as rtl/verilog_ops.cc writes it, the LUTs the mean
# over the literals 7 and -3 (a subtract: both operand orders; a compare: the mean over its
# six directions, its result one bit). Prints the int_alu_literal_luts row.
literals=(7 -3)
mean_luts() {  # EXPR-TEMPLATE (K: the literal) W OUT: mean LUTs over the literals
  local sum=0 n=0 e v q="'"
  for k in "${literals[@]}"; do
    v="$2${q}sd${k#-}"
    [[ $k == -* ]] && v="-$v"
    e="${1//K/$v}"
    read -r l _ <<< "$(lane "$e" "$2" "${3:-$2}")"
    sum=$((sum + l)); n=$((n + 1))
  done
  awk -v s="$sum" -v n="$n" 'BEGIN {printf "%.1f", s / n}'
}
mean_of() { awk 'BEGIN {s = 0; for (i = 1; i < ARGC; i++) s += ARGV[i]; printf "%.1f", s / (ARGC - 1)}' "$@"; }
declare -A lit
literal_ops=(add subtract compare maximum minimum and or xor select shift-left shift-right-logical shift-right-arithmetic negate not)
for w in 8 16 32; do
  z=$((w - 1))
  lit[add,$w]=$(mean_luts 'a + K' $w)
  lit[subtract,$w]=$(mean_of "$(mean_luts 'a - K' $w)" "$(mean_luts 'K - a' $w)")
  cmps=()
  for rel in '<' '<=' '>' '>='; do cmps+=("$(mean_luts "{$z'd0, \$signed(a) $rel \$signed(K)}" $w 1)"); done
  for rel in '==' '!='; do cmps+=("$(mean_luts "{$z'd0, a $rel K}" $w 1)"); done
  lit[compare,$w]=$(mean_of "${cmps[@]}")
  lit[maximum,$w]=$(mean_luts '($signed(a) > $signed(K)) ? a : K' $w)
  lit[minimum,$w]=$(mean_luts '($signed(a) < $signed(K)) ? a : K' $w)
  for op in and:'&' or:'|' xor:'^'; do lit[${op%%:*},$w]=$(mean_luts "a ${op#*:} K" $w); done
  lit[select,$w]=$(mean_of "$(mean_luts 'c ? a : K' $w)" "$(mean_luts 'c ? K : a' $w)")
  # a shift by a literal amount (rtl: the limit compare and the masked amount fold away)
  lit[shift-left,$w]=$(read -r l _ <<< "$(lane "(3 >= $w) ? $w'd0 : (a << (3 & $z))" $w)"; echo "$l")
  lit[shift-right-logical,$w]=$(read -r l _ <<< "$(lane "(3 >= $w) ? $w'd0 : (a >> (3 & $z))" $w)"; echo "$l")
  lit[shift-right-arithmetic,$w]=$(read -r l _ <<< "$(lane "(3 >= $w) ? (\$signed(a) >>> $z) : (\$signed(a) >>> (3 & $z))" $w)"; echo "$l")
  lit[negate,$w]=$(read -r l _ <<< "$(lane "$w'd0 - a" $w)"; echo "$l")
  lit[not,$w]=$(read -r l _ <<< "$(lane '~a' $w)"; echo "$l")
done
row() { echo "[${lit[$1,8]}, ${lit[$1,16]}, ${lit[$1,32]}]"; }
entries=()
for op in "${literal_ops[@]}"; do entries+=("$op: $(row "$op")"); done
echo "int_alu_literal_luts: {bits: [8, 16, 32], $(IFS=,; echo "${entries[*]}" | sed 's/,/, /g')}"
read -r alu_lut alu_ff <<< "$(lane 'a + b' 32)"
read -r mem_lut mem_ff <<< "$(mem_lane 32)"
echo "units: int_alu: {lut: $alu_lut, ff: $alu_ff}  mem: {lut: $mem_lut, ff: $mem_ff}   (one lane at 32 bits)"
