#!/usr/bin/env bash
# Calibrates designs/targets/ice40.yaml against Yosys synth_ice40 -dsp (iCE40 UltraPlus):
#   dsp  N OUT SIGNED SB_MAC16   an N x N product kept to OUT bits (hwmodel::dsp_slices with
#                                a_bits = b_bits = 16, signed_only false, min_out_bits 11)
#   ebr  D W SB_RAM40_4K         a D x W memory, one write and one synchronous read port
#                                (the bram.aspects the binding picks from)
#   rf   D W R SB_LUT4 FF        a register file (ram_style "logic") of D words x W bits with R
#                                read ports: LUTs = R x W x mux_luts_per_bit(D) + decode_luts(D)
#                                (depths RF_DEPTHS, default the register_file.depths row)
#   clamp W LIT SB_LUT4          an int_alu lane's clamp of W bits as rtl writes it (a max,
#                                then a min, into the write register), its bounds literals
#                                (LIT 1: int_alu_literal_luts) or read registers (LIT 0:
#                                int_alu_op_luts, at 32 bits); an add of W bits is W SB_LUT4
#   scripts/calibrate_ice40.sh [dsp|ebr|rf|clamp]...   (default: all four)
set -euo pipefail
source "$(dirname "$0")/lib/yosys_microbench.sh"
synth() {  # prints the stat of m.v after synth_ice40 -dsp
  (cd "$work" && yosys -q -p "read_verilog m.v; synth_ice40 -dsp -top m; tee -q -o stat.txt stat" > /dev/null)
  cat "$work/stat.txt"
}
count() { awk -v c="$1" '$1 ~ c {s += $2} END {print s + 0}'; }
parts=("$@")
((${#parts[@]})) || parts=(dsp ebr rf clamp)
for part in "${parts[@]}"; do
  case "$part" in
    dsp)
      for sg in 0 1; do
        for n in 8 11 16 17 24 32; do
          for out in "$n" "$((2 * n))"; do
            s=""; [[ $sg == 1 ]] && s="signed"
            cat > "$work/m.v" <<V
module m(input wire clk, input wire $s [$((n - 1)):0] a, input wire $s [$((n - 1)):0] b, output reg [$((out - 1)):0] p);
  wire $s [$((out - 1)):0] ax = a;
  wire $s [$((out - 1)):0] bx = b;
  always @(posedge clk) p <= ax * bx;
endmodule
V
            echo "dsp $n $out $sg $(synth | count '^SB_MAC16')"
          done
        done
      done ;;
    ebr)
      for dw in "256 16" "512 8" "1024 4" "2048 2" "256 32" "512 16" "128 16" "1024 8" "64 32"; do
        read -r d w <<< "$dw"
        aw=$(address_bits "$d")
        cat > "$work/m.v" <<V
module m(input wire clk, input wire we, input wire [$((aw - 1)):0] wa, input wire [$((w - 1)):0] wd,
  input wire [$((aw - 1)):0] ra, output reg [$((w - 1)):0] rd);
  reg [$((w - 1)):0] mem [0:$((d - 1))];
  always @(posedge clk) begin
    if (we) mem[wa] <= wd;
    rd <= mem[ra];
  end
endmodule
V
        echo "ebr $d $w $(synth | count '^SB_RAM40_4K')"
      done ;;
    rf)
      for d in ${RF_DEPTHS:-2 4 8 16 32}; do
        for w in 8 32; do
          for r in 1 2; do
            register_file_verilog "$d" "$w" "$r"
            st="$(synth)"
            echo "rf $d $w $r $(count '^SB_LUT4' <<< "$st") $(count '^SB_DFF' <<< "$st")"
          done
        done
      done ;;
    clamp)
      for lit in 1 0; do
        for w in 8 16 32; do
          m=$((w - 1)); ports=""; lo="-${w}'sd100"; hi="${w}'sd99"  # literals as rtl prints a one-value constant
          ((lit)) || { ports="input wire signed [$m:0] l, input wire signed [$m:0] h,"; lo=l; hi=h; }
          cat > "$work/m.v" <<V
module m(input wire clk, $ports input wire signed [$m:0] a, output reg [$m:0] y);
  wire signed [$m:0] lo = $lo;
  wire signed [$m:0] hi = $hi;
  wire [$m:0] mx = (a > lo) ? a : lo;
  always @(posedge clk) y <= (\$signed(mx) < hi) ? mx : hi;
endmodule
V
          echo "clamp $w $lit $(synth | count '^SB_LUT4')"
        done
      done ;;
    *) echo "error: unknown part '$part' (dsp, ebr, rf, clamp)" >&2; exit 1 ;;
  esac
done
