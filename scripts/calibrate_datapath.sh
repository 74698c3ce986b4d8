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
# - mem, depth 3 (read + 2): the value travels one pipeline register (v2) to the write;
# - int_mac: a product through the multiplier's stages into the accumulator, its clear
#   the slot register's reset (rtl/verilog_units.cc clear_slots), at 8 ... 32-bit factors
#   (one DSP slice up to 18 bits, then several, whose partial products LUTs sum).
# LUTs counted as `hlsgym rtl --synth` counts them (rtl/yosys.cc: LUT1..6, SRL, RAM; not
# CARRY4 or MUXF7/8). Prints the rows for designs/targets/fpga.yaml (units: at 32 bits).
#   scripts/calibrate_datapath.sh [xilinx|ice40]
# ice40: synth_ice40 -dsp, SB_LUT4 and SB_DFF* counted as `hlsgym rtl --pnr` counts them
# (an SB_CARRY is the logic cell's carry, no LUT), the int_alu lanes and the literal row only
# (designs/targets/ice40.yaml; its int_mac lanes are not measured here).
set -euo pipefail
source "$(dirname "$0")/lib/yosys_microbench.sh"
family="${1:-xilinx}"
case "$family" in
  xilinx) synth="synth_xilinx -noiopad -top s"; ff_re='^FD' ;;
  ice40) synth="synth_ice40 -dsp -top s"; lut_re='^SB_LUT4$'; ff_re='^SB_DFF' ;;
  *) echo "usage: $0 [xilinx|ice40]" >&2; exit 2 ;;
esac
synth_one() { (cd "$work" && yosys -q -p "read_verilog s.v; $synth; tee -q -o stat.txt stat" > /dev/null); }

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
  echo "$(cells "$lut_re") $(($(cells "$ff_re") - out))"
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
  echo "$(cells "$lut_re") $(($(cells "$ff_re") - w))"
}

# the int_mac lane: an n x n product (read registers a, b: ports) through the multiplier's
# stages into the accumulator as rtl writes it (the slot register cleared, as a flip-flop
# reset, the cycle before an output's first term; its tags f3/ok4 are ports, priced by the
# control), the sum into the write register y; prints "LUT FF DSP" (FF less y's 32)
mac_lane() {
  local n=$1 m=$(($1 - 1))
  cat > "$work/s.v" <<V
module s(input wire clk, input wire signed [$m:0] a, input wire signed [$m:0] b, input wire f3, input wire ok4, output reg [31:0] y);
  reg [31:0] p2, p3, p4, accr;
  wire [31:0] p1 = \$signed({{$((32 - n)){a[$m]}}, a}) * \$signed({{$((32 - n)){b[$m]}}, b});
  wire [31:0] sum = accr + p4;
  always @(posedge clk) begin
    p2 <= p1; p3 <= p2; p4 <= p3;
    if (ok4) accr <= sum;
    if (f3) accr <= 32'd0;
    y <= sum;
  end
endmodule
V
  synth_one
  echo "$(cells "$lut_re") $(($(cells '^FD') - 32)) $(cells '^DSP48E1')"
}

for w in 8 16 32; do
  echo "$w bits: add $(lane 'a + b' $w), and $(lane 'a & b' $w), xor $(lane 'a ^ b' $w)," \
       "max $(lane '(a > b) ? a : b' $w), select $(lane 'c ? a : b' $w), compare $(lane "{$((w - 1))'d0, a < b}" $w 1)," \
       "mem $(mem_lane $w)  (LUT FF)"
done
# An int_alu lane whose operand is a literal: rtl prints a one-value constant as a literal
# (its read register holds a constant, which synthesis folds), and negate (`0 - a`) and not
# (`~a`) are written against one. The LUTs of each op, the mean over the forms listed (a
# compare's result is one bit), at 8 and 32 bits (linear between): the int_alu_literal_luts
# row. Not in it yet: maximum and minimum (by a literal Yosys gave 8 and 32 LUT at 8 bits,
# 11 and 12 at 32: they keep the int_alu_op_luts / int_alu rows), a logical shift right.
# Nor select: alone, `c ? a : 7` is the register's synchronous set/reset (0 LUT), but on an
# int_alu shared with another task rtl muxes the tasks' results in front of that register,
# and `t ? (c ? a : 7) : 0` takes 8 / 32 LUT at 8 / 32 bits, a full select (mixed_state's
# select of a literal shares its unit with an or-reduce: 33.5 LUT in Yosys); the lane is
# priced before the binding shares units, so a select keeps the int_alu row.
literal_forms() {  # OP W: the forms measured for OP
  local z="$(($2 - 1))'d0"
  case $1 in
    add) echo 'a + 1|a + 12345' ;;
    subtract) echo 'a - 3|7 - a' ;;
    compare) echo "{$z, a < 7}|{$z, a < 100}|{$z, a <= 7}|{$z, a > 3}|{$z, a == 7}|{$z, a != 0}|{$z, a >= 12345}" ;;
    and) echo 'a & 15' ;;
    or) echo 'a | 9' ;;
    xor) echo 'a ^ 5' ;;
    shift-left) echo 'a << 3' ;;
    shift-right-arithmetic) echo 'a >>> 2' ;;
    negate) echo '-a' ;;
    not) echo '~a' ;;
  esac
}
lit_widths=(8 32)
[[ $family == ice40 ]] && lit_widths=(8 16 32)  # ice40.yaml's literal rows (its clamp: 8, 16, 32)
literal_row() {  # OP: "[LUT at each of lit_widths]"
  local out=() w e sum n l
  for w in "${lit_widths[@]}"; do
    sum=0 n=0
    IFS='|' read -r -a forms <<< "$(literal_forms "$1" $w)"
    for e in "${forms[@]}"; do
      if [[ $1 == compare ]]; then read -r l _ <<< "$(lane "$e" $w 1)"; else read -r l _ <<< "$(lane "$e" $w)"; fi
      sum=$((sum + l)) n=$((n + 1))
    done
    out+=("$(awk -v s="$sum" -v n="$n" 'BEGIN {printf "%.1f", s / n}')")
  done
  local j; j="$(printf '%s, ' "${out[@]}")"; echo "[${j%, }]"
}
entries=()
for op in add subtract compare and or xor shift-left shift-right-arithmetic negate not; do
  entries+=("$op: $(literal_row "$op")")
done
echo "int_alu_literal_luts: {bits: [$(IFS=,; echo "${lit_widths[*]}" | sed 's/,/, /g')], $(IFS=,; echo "${entries[*]}" | sed 's/,/, /g; s/  / /g')}"
[[ $family == ice40 ]] && exit 0
read -r alu_lut alu_ff <<< "$(lane 'a + b' 32)"
read -r mem_lut mem_ff <<< "$(mem_lane 32)"
echo "units: int_alu: {lut: $alu_lut, ff: $alu_ff}  mem: {lut: $mem_lut, ff: $mem_ff}   (one lane at 32 bits)"
for n in 8 16 18 24 32; do echo "int_mac lane, $n x $n -> 32 bits: $(mac_lane "$n")  (LUT FF DSP)"; done
read -r one_lut _ one_dsp <<< "$(mac_lane 16)"
read -r split_lut _ split_dsp <<< "$(mac_lane 32)"
((one_dsp == 1 && split_dsp > 1)) || { echo "error: expected 16 x 16 in one DSP slice, 32 x 32 in several" >&2; exit 1; }
((one_lut == alu_lut)) || echo "warning: a one-slice mac lane takes $one_lut LUT, the int_alu add $alu_lut" >&2
echo "units: int_mac: {split_product_lut: $((split_lut - one_lut))}   (the product's slices summed, over the accumulator's adder)"
