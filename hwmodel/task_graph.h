// The lowering's output: operator tasks with fixed latencies and dependences, in
// topological order (every dependence points to an earlier task). One IR instruction
// gives one task; calls are inlined (their instructions become tasks of the caller);
// a while or conditional is one task whose latency, energy and own datapath come from
// scheduling its body separately.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hwmodel/unit_class.h"
#include "ir/module.h"

namespace hlsgym::hwmodel {

// FPGA area. bram18k counts whole BRAM18K blocks.
struct Area {
  double dsp = 0, lut = 0, ff = 0, bram18k = 0;
  Area& operator+=(const Area& o) {
    dsp += o.dsp, lut += o.lut, ff += o.ff, bram18k += o.bram18k;
    return *this;
  }
};

struct Task {
  ir::InstrId instr = ir::kNoId;  // the instruction it comes from (names the task)
  uint8_t unit = kNoUnit;         // UnitClass, or kNoUnit
  uint8_t ports = 0;              // operand inputs of the unit (multiplexer inputs when shared)
  uint16_t width = 0;             // datapath bits of one lane
  int32_t lanes = 1;              // parallel lanes of the unit instance it needs
  bool alias = false;             // output is (part of) an operand's buffer: reshape, gte, ...
  bool output = false;            // its value leaves the design (live to the end)
  bool input = false;             // entry parameter or constant (live from cycle 0)
  bool scalar = false;            // a rank-0 value (an output of it is a wire, not a read port)
  bool literal = false;           // FPGA: a constant of one value, printed as a literal (no storage)
  bool rom = false;               // FPGA: a small constant array, a ROM in logic (no track; binding.cc)
  bool copies_in = false;         // FPGA while: its copy-in reads each leaf of its operand once; conditional: its branches read the operand leaves (dep_reads)
  // FPGA: the one IEEE-754 unit an elementwise float op is (an id per float_units row and
  // format, within its graph), or -1. Tasks on one instance with the same id share that
  // unit (rtl builds one), tasks with different ones each bring theirs (binding.cc).
  int16_t float_unit = -1;
  // FPGA: an integer elementwise task (one op or a fused body), whose expression rtl builds
  // per task: the tasks of one instance each bring theirs, multipliers and dividers
  // included, and a select picks the active one's result (rtl/verilog_units.cc
  // first_values), so their logic and DSPs add (binding.cc) ...
  bool own_logic = false;
  // ... unless every task of the instance is a lone multiply of two read operands with the
  // same types (this key, nonzero: result and operand types): then rtl selects the
  // operands and builds one product (verilog_units.cc shared_product), priced once.
  uint32_t lone_product = 0;
  int64_t element_ops = 0;        // operations performed (MACs count once)
  int64_t latency = 0;            // cycles from start until its result is complete
  int64_t busy = 0;               // cycles its unit instance is reserved from the start
  int64_t bytes_in = 0, bytes_out = 0;
  int64_t footprint = 0;          // bytes of the buffer it allocates (0 for aliases)
  int64_t scratch = 0;            // bytes live only while it runs (a loop body's buffers)
  int32_t elem_bits = 0;          // element width of its buffer (BRAM geometry)
  int32_t value_bits = 0;         // datapath bits of one element (pred 1): a register word's live bits
  // FPGA: the bits its buffer's words hold when its value range needs fewer than its type
  // (value_bits.h; then value_bits too), 0 when not narrowed; how a read widens them back.
  uint8_t stored_bits = 0;
  bool stored_sign = false;
  // FPGA: the low bits of its operands it depends on (value_bits.h), 0 when all.
  uint8_t operand_bits = 0;
  bool dram = false;              // its buffer lives in DRAM (too big for on-chip memory)
  double compute_pj = 0, onchip_pj = 0, dram_pj = 0;
  Area area;                      // one unit instance able to run it (all lanes)
};

struct TaskGraph {
  std::vector<Task> tasks;
  std::vector<uint32_t> dep_offset{0};  // CSR: deps of task t are deps[dep_offset[t]..[t+1])
  std::vector<uint32_t> deps;
  // Aligned with deps: the addresses each lane of the task reads the dependence's buffer
  // at per item, a read port each on an FPGA (lowering.cc, dep_reads): usually 1; 0 for a
  // value read as a wire or not at all; more for a gather's start indices or an operand a
  // concatenate or dot names twice.
  std::vector<uint8_t> dep_reads;
  Area own_datapaths;   // loops' and branches' private datapaths (not shared)
  std::array<int32_t, ir::kOpcodeCount> uncosted{};  // lenient: ops costed as memory moves, by opcode
  int unknown_trip_counts = 0;            // lenient mode: while loops costed as one trip

  size_t size() const { return tasks.size(); }
  std::span<const uint32_t> deps_of(size_t t) const {
    return {deps.data() + dep_offset[t], deps.data() + dep_offset[t + 1]};
  }
  std::span<const uint8_t> dep_reads_of(size_t t) const {
    return {dep_reads.data() + dep_offset[t], dep_reads.data() + dep_offset[t + 1]};
  }
  // Appends a task with the given dependences (which must be earlier tasks).
  uint32_t add(const Task& t, std::span<const uint32_t> task_deps, std::span<const uint8_t> reads = {}) {
    tasks.push_back(t);
    deps.insert(deps.end(), task_deps.begin(), task_deps.end());
    for (size_t q = 0; q < task_deps.size(); ++q) dep_reads.push_back(q < reads.size() ? reads[q] : 1);
    dep_offset.push_back(static_cast<uint32_t>(deps.size()));
    return static_cast<uint32_t>(tasks.size() - 1);
  }
};

}  // namespace hlsgym::hwmodel
