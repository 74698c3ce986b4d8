# Shared by the scripts/calibrate_*.sh microbenchmarks (sourced, not run): a scratch
# directory removed on exit, Yosys' cell counts read from its `stat`, the address width
# of a D-word file and the register-file microbenchmark.
command -v yosys > /dev/null || { echo "error: yosys not found (Debian package yosys)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
lut_re='^(LUT[1-6]|SRL.*|RAM.*)$'  # as hlsgym rtl --synth counts LUTs on Xilinx (rtl/yosys.cc)
# cells REGEX: the number of cells whose type matches REGEX in the last stat ($work/stat.txt)
cells() { awk -v re="$1" '$1 ~ /^\$?[A-Za-z_0-9]+$/ && $1 ~ re && $2 ~ /^[0-9]+$/ {s += $2} END {print s + 0}' "$work/stat.txt"; }
# synth_m: synth_xilinx -noiopad on $work/m.v (top module m), its stat in $work/stat.txt
synth_m() { (cd "$work" && yosys -q -p "read_verilog m.v; synth_xilinx -noiopad -top m; tee -q -o stat.txt stat" > /dev/null); }
# address_bits D: bits of an address over D words (at least 1)
address_bits() { local aw=1; while ((1 << aw < $1)); do aw=$((aw + 1)); done; echo "$aw"; }
# register_file_verilog D W R: module m, a register file (ram_style "logic") of D words x W
# bits with one write port and R registered read ports, as $work/m.v
register_file_verilog() {
  local d=$1 w=$2 r=$3 aw k
  aw=$(address_bits "$d")
  {
    echo "module m(input wire clk, input wire we, input wire [$((aw - 1)):0] wa, input wire [$((w - 1)):0] wd,"
    for k in $(seq 0 $((r - 1))); do echo "  input wire [$((aw - 1)):0] ra$k, output reg [$((w - 1)):0] rd$k,"; done
    echo "  input wire unused);"
    echo "  (* ram_style = \"logic\" *) reg [$((w - 1)):0] mem [0:$((d - 1))];"
    echo "  always @(posedge clk) begin"
    echo "    if (we) mem[wa] <= wd;"
    for k in $(seq 0 $((r - 1))); do echo "    rd$k <= mem[ra$k];"; done
    echo "  end"
    echo "endmodule"
  } > "$work/m.v"
}
