// A hardware target: the problem model's "machine" (designs/targets/*.yaml). Two kinds:
//
// - fpga: pipelined functional units (II 1) with a latency, a per-lane area at 32 bits
//   and an energy per operation; a resource budget (DSP, LUT, FF, BRAM18K); BRAM
//   geometry; a default number of instances per unit class (the scheduler's limits).
// - cpu: one or more cores; every task runs on a core, for a per-op overhead plus a
//   roofline time: max(compute on SIMD units, bytes / bandwidth of the memory level the
//   task's working set fits in).
//
// Energies are the 45 nm ASIC numbers of Horowitz (ISSCC 2014) per 32-bit operation;
// the FPGA multiplies them by a fabric factor (Kuon & Rose: ~14x dynamic power for LUT
// logic) or a smaller hard-block factor for units built on DSP slices.
#pragma once
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hwmodel/unit_class.h"
#include "ir/element_type.h"
#include "ir/opcode.h"

namespace hlsgym::hwmodel {

enum class TargetKind : uint8_t { kFpga, kCpu };

// One functional-unit class on a target. Fields a kind does not use stay 0.
struct UnitSpec {
  int latency = 0;                 // fpga: pipeline depth in cycles (II 1)
  double lut = 0, ff = 0, dsp = 0;  // fpga: one lane at 32 bits; dsp of multipliers is
                                    // computed from the DSP port widths (dsp_packed)
  bool dsp_packed = false;
  double energy_pj = 0;            // one element op at 32 bits, 45 nm ASIC (Horowitz)
  double cycles_per_vector = 0;    // cpu: reciprocal throughput of one SIMD instruction
  int instances = 0;               // fpga: instances the scheduler may use (its limit)
  // fpga int_mac (scripts/calibrate_datapath.sh): the LUTs that sum a product cut over
  // several DSP slices, at 32 bits; its lane is then int_alu's adder (the accumulator,
  // its clear a flip-flop reset) plus these when the product takes more than one slice.
  // Absent: the lane is int_mul + int_alu.
  std::optional<double> split_product_lut;
};

// A level of the memory hierarchy, smallest first: fpga {on_chip, dram}; cpu {l1, l2, dram}.
struct MemoryLevel {
  std::string name;
  int64_t capacity_bytes = 0;
  double bytes_per_cycle = 0;
  double pj_per_64bit = 0;  // one 64-bit access (Horowitz: SRAM 8/32 KB/1 MB 10/20/100 pJ)
  int latency = 0;          // cycles before the first word (fpga)
};

struct BramAspect {
  int64_t depth = 0;
  int width = 0;
};

// Place and route of the emitted Verilog (`hlsgym rtl --pnr`): the FPGA family (its Yosys
// synth_<family> script and nextpnr-<family>), device and package. Empty family: none.
struct PnrDevice {
  std::string family, device, package;
};

// One IEEE-754 unit of rtl/float_units.h on the target: its pipeline depth (cycles, one
// operation per cycle) and the area Yosys measured for it alone
// (scripts/calibrate_float_units.sh).
struct FloatUnitCost {
  int latency = 0;
  double lut = 0, ff = 0, dsp = 0;
};

struct FpgaResources {
  double dsp = 0, lut = 0, ff = 0, bram18k = 0;
  // Logic cells that each hold one LUT and one flip-flop (iCE40: 5,280 on a UP5K); 0 when
  // LUTs and flip-flops are counted apart (a Xilinx slice has its own of each). A LUT and a
  // flip-flop share a cell only when the LUT drives nothing but that flip-flop's D (nextpnr's
  // packer), which the RTL's registers rarely offer: most are word registers loaded from a
  // shared write bus, so a design needs about LUTs + flip-flops cells (fits_logic_cells).
  double logic_cells = 0;
  double cells_needed(double lut, double ff) const { return lut + ff; }
};

// A register file (a buffer in flip-flops) as synthesis builds it: per depth (words),
// the LUTs of the word multiplexer per read-port bit and of the write decode. Measured
// with Yosys synth_xilinx by scripts/calibrate_memory.sh; between two listed depths the
// next larger one applies, or, when the smaller is at least `interpolate_from`, the line
// between the two (where the target's measurements say so); beyond the last both grow in
// proportion to the depth. A file's further read ports (all but one) cost
// `further_port_luts_per_bit` each (scripts/calibrate_read_ports.sh: at 10 to 14 words
// Yosys builds them in fewer LUTs than the first); empty: as many as the first.
struct RegisterFileCost {
  std::vector<double> depths{2, 4, 8, 16, 32};
  std::vector<double> mux_luts_per_bit{1, 1, 3, 5, 13.7};
  std::vector<double> decode_luts{2, 4, 14, 16, 39};
  std::vector<double> further_port_luts_per_bit{};
  double interpolate_from = 0;  // 0: never
  // LUTs of a register file of `words` x `bits` with `read_ports` read ports.
  double luts(int64_t words, int bits, int read_ports) const;
  // Its parts: the word multiplexer of the file's first read port whose address reaches
  // `depth` words (a port addressed by fewer bits than the file has reaches only the first
  // 2^bits), that of each further port, and the write decode of `words` words.
  double port_luts(int64_t depth, int bits) const;
  double further_port_luts(int64_t depth, int bits) const;
  double decode(int64_t words) const;
};

// LUTs of one operation by operand width, measured at a few widths: a width between rows
// takes the next row up, beyond the last scales linearly. Empty: not measured, the unit
// class's row prices it. Serves `variable_shift` and `int_divide` below.
struct LutsByWidth {
  std::vector<double> bits, luts;
  double luts_for(int width) const;
};

// The control logic's components as synthesis builds them, per bit width
// (scripts/calibrate_control.sh, Yosys on one component at a time): a loop counter (its
// wrap compare included), a compare with a constant, an adder and a constant stride of the
// index arithmetic. Linear between rows, in proportion beyond the last. Empty: the target
// does not model control logic (hwmodel/microarch_control.h).
// timer_luts (optional, 0 when absent): a timeline's cycle counter without its end compare
// (restart on go, +1 while running). Xilinx adds in its CARRY4s' XORs (0 LUT); an iCE40
// SB_CARRY computes the carry only, so each sum bit is an SB_LUT4 (12 bits: 13 SB_LUT4).
struct ControlCost {
  std::vector<double> bits, counter_luts, counter_ffs, compare_luts, adder_luts, scale_luts, timer_luts;
  bool present() const { return !bits.empty(); }
  double at(const std::vector<double>& row, int width) const;
};

// LUTs of one int_alu lane whose operation has a literal operand, per op and bit width
// (scripts/calibrate_datapath.sh): rtl prints a one-value constant as a literal, which
// synthesis folds into the op (an add of a literal is its carry chain alone, a compare
// with one about a LUT per four bits; a select keeps the int_alu row: on a shared unit it is a full select); negate
// (`0 - a`) and not (`~a`) are written against a literal too. Linear between rows, in
// proportion beyond the last. Empty: such ops cost the int_alu row like any op.
struct LiteralOpCost {
  std::vector<double> bits;
  std::map<ir::Opcode, std::vector<double>> luts;  // one entry per bits row
  // The op's LUTs at `width`, or nullopt when the target does not list it.
  std::optional<double> luts_for(ir::Opcode op, int width) const;
};

// Register-to-register delays of the part's fabric (hwmodel/clock.h composes them into the
// critical path), measured with nextpnr on microbenchmarks by scripts/calibrate_timing.py.
// Empty (no `timing:` in the target): the clock is not modeled and the report says so.
struct TimingModel {
  double lut_ns = 0;    // one more LUT level with its net
  double carry_ns = 0;  // one more bit of a carry chain
  // A register-file read port: counter -> word multiplexer -> read register, by words,
  // measured on 16-bit and 32-bit words (the multiplexer and its address net grow with both).
  std::vector<double> read_words, read_ns_16bit, read_ns_32bit;
  // One registered integer operation, by operand bits: `op_ns[kind][k]` at `op_bits[k]`.
  std::vector<double> op_bits;
  std::map<std::string, std::vector<double>, std::less<>> op_ns;
  // What sharing one unit instance among `shared_tasks[k]` tasks adds to its stage: the
  // operand gates by the task's tag and the result select (a 16-bit add, measured on the
  // first task, whose result passes every later task's select: clock.cc).
  std::vector<double> shared_tasks, shared_ns;
  // What storing a unit's result into a track of `write_words[k]` word registers adds
  // over one register: the result's net reaches every word (a 16-bit add, measured).
  std::vector<double> write_words, write_ns;
  // What a gather's (or dynamic-slice's) run-time start puts in front of a read port: the
  // clamp of the start index, read from its register (its sign and a carry-chain compare
  // against the last start), by the index's bits.
  std::vector<double> gather_bits, gather_ns;
  // Nets in a placed design of `route_cells[k]` logic cells over the microbenchmarks':
  // the slowest path of copies of one cell against one copy's (scripts/calibrate_timing.py).
  std::vector<double> route_cells, route_factors;
  bool present() const { return lut_ns > 0; }
  // Linear between the listed points (and beyond the ends by the last segment's slope).
  // A read port's multiplexer is as deep as its address is wide: `words` counts as the
  // next power of two; `bits` between 16 and 32 interpolates, held at those ends.
  double read_port(int64_t words, int bits) const;
  double op(std::string_view kind, int bits) const;
  double shared_unit(int64_t tasks) const;  // 0 for an unshared instance
  double write_port(int64_t words) const;   // 0 for one word
  double gather_start(int index_bits) const;  // linear in the bits, held at the measured ends
  // The factor at `logic_cells` (LUT4s + flip-flops), held at the measured ends.
  double route_factor(double logic_cells) const;
};

struct Target {
  std::string name, description;
  std::filesystem::path file;  // where it was read from
  TargetKind kind = TargetKind::kFpga;
  double clock_mhz = 0;
  double static_mw = 0;  // static power, charged for every cycle of the schedule
  int default_lanes = 1;
  std::array<UnitSpec, kUnitClassCount> units{};
  std::vector<MemoryLevel> memory;

  // fpga
  FpgaResources resources;
  int dsp_a_bits = 27, dsp_b_bits = 18;  // one DSP slice multiplies a_bits x b_bits
  // DSP48E1 multiplies signed operands only, so a slice of a cut operand carries one bit
  // less than the port (an iCE40 SB_MAC16 multiplies unsigned 16 x 16: all 16); products
  // narrower than dsp_min_out_bits stay in LUTs (Yosys DSP_Y_MINWIDTH: 9 Xilinx, 11 iCE40).
  // A cut operand's last slice narrower than dsp_min_slice_bits is LUTs too (iCE40: a 17-bit
  // operand is one 16-bit slice and a 1-bit rest; Xilinx's measurements count every slice).
  bool dsp_signed_only = true;
  int dsp_min_out_bits = 9;
  int dsp_min_slice_bits = 1;
  int64_t bram_bits = 18432;             // one BRAM18K
  int bram_width_bits = 36;              // its widest port
  // Its aspect ratios (depth x width); empty: RAMB18E1's, 16K x 1 ... 2K x 9 ... 512 x 36
  // (widths below 9 leave the parity bits unused), derived from bram_bits.
  std::vector<BramAspect> bram_aspects;
  std::vector<BramAspect> bram_aspect_ratios() const;
  int64_t register_threshold_bits = 1024;  // buffers up to this size live in registers
  // Whether a buffer of `bytes` lives in registers (else block RAM): the binding's rule, which
  // loop state, ROMs and the RTL's memories follow too.
  bool in_registers(int64_t bytes) const { return bytes * 8 <= register_threshold_bits; }
  RegisterFileCost register_file;
  // LUTs of a shift by a run-time amount as the emitted Verilog writes it (XLA's result for
  // amounts >= the width), `variable_shift_luts`, scripts/calibrate_shift.sh
  LutsByWidth variable_shift;
  // LUTs of an integer divide or remainder lane (the same table form, `int_divide_luts`,
  // scripts/calibrate_divide.sh): an array divider grows with the square of its width, so
  // the measured row replaces the int_div row's LUTs scaled in proportion. Empty: the row.
  LutsByWidth int_divide;
  ControlCost control;  // fpga: the control logic's components (empty: not modeled)
  // fpga: LUTs of one int_alu lane at 32 bits per operation whose logic differs from the
  // int_alu row's add (scripts/calibrate_datapath.sh: a maximum is a compare and a select,
  // a shift by a literal is wiring); scaled with the width as the row is. Optional.
  std::map<ir::Opcode, double> alu_op_luts;
  LiteralOpCost alu_literal_ops;  // fpga: an int_alu op with a literal operand (optional)
  PnrDevice pnr;
  TimingModel timing;
  // float_units[unit][format]: the unit as rtl::float_unit_key names it (fadd, fcmp_lt,
  // fcvt_to_f16, fcvt_from_s32, ...), the format f32, f16 or bf16. Optional.
  std::map<std::string, std::map<ir::ElementType, FloatUnitCost>> float_units;
  // The entry, or nullptr when the target lists none.
  const FloatUnitCost* float_unit(const std::string& unit, ir::ElementType format) const;
  double fabric_energy_factor = 14, hard_block_energy_factor = 4;

  // cpu
  int cores = 1;
  int simd_bits = 256;
  int overhead_cycles = 0;  // per op: loop setup, call, dispatch

  const UnitSpec& unit(UnitClass c) const { return units[static_cast<size_t>(c)]; }
  UnitSpec& unit(UnitClass c) { return units[static_cast<size_t>(c)]; }
  bool is_fpga() const { return kind == TargetKind::kFpga; }
  bool is_cpu() const { return kind == TargetKind::kCpu; }
  const MemoryLevel& dram() const { return memory.back(); }
};

// Parses a target from YAML text. Every field is checked: an unknown or missing field,
// a wrong type or a nonsensical value (a negative clock, zero DSPs, latencies out of
// order...) throws hlsgym::Error naming the file, line and field.
Target parse_target(const std::string& yaml_text, const std::filesystem::path& file);

// `name_or_path` is a file (it contains '/' or ends in .yaml/.yml) or a target name
// looked up as NAME.yaml in each of `search_dirs` in turn. Throws hlsgym::Error listing
// the targets found when the name is unknown.
Target load_target(const std::string& name_or_path,
                   const std::vector<std::filesystem::path>& search_dirs);

// Names (file stems) of the targets in the first existing search dir.
std::vector<std::string> available_targets(const std::vector<std::filesystem::path>& search_dirs);

}  // namespace hlsgym::hwmodel
