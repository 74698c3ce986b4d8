// The microarchitecture (the hardware plan): what the emitted Verilog contains, decided
// before any text is written; rtl/ only prints it. Built from a module and the hardware model's lowering, schedule and binding
// (hwmodel/estimate.h), so the RTL runs exactly the schedule the estimate describes:
//
// - Buffer: one array value that owns storage (an entry parameter, a constant or a
//   computing task's result). Aliases (reshape, bitcast, tuple, get-tuple-element)
//   read their operand's buffer. Every buffer lives on a binding track.
// - Track: one memory, as large as the largest buffer the binding's left-edge allocation
//   put on it; buffers on a track never overlap in time. One element per word; a
//   bitcast reads the same words at another type of the same width.
// - Unit: one functional-unit instance of the binding, with its lanes; the tasks bound to
//   it issue through it one after another (the binding guarantees their issue windows
//   [start, start + busy) do not overlap).
// - TaskPlan: one computing task: when it issues, on which unit, the loop nest it runs on
//   each lane, and its operands as index expressions over the loop counters.
#pragma once
#include <fmt/core.h>

#include <cstdint>
#include <string>
#include <vector>

#include "hwmodel/estimate.h"
#include "hwmodel/index_expr.h"
#include "ir/literal.h"
#include "ir/module.h"

namespace hlsgym::hwmodel {

// Datapath bits of an element (pred is one bit) and storage bits (its byte width).
int datapath_width(ir::ElementType t);
int storage_width(ir::ElementType t);
// Bits of a counter or index register that holds 0..max (at least 1): what the Verilog
// builds and what the control inventory (microarch_control.h) prices, from one function.
int bits_for(int64_t max);

// One way a leaf gets its value for the current item: the first alternative whose guard
// holds gives it. A read's element index, an index value (iota) and the guards are index
// expressions (index_expr.h) over the task's loop counters, evaluated by the hardware.
struct Alt {
  enum Kind : uint8_t {
    kRead,   // element `index` of `buffer`
    kConst,  // `bits`
    kIndex,  // the value of index expression `index` (iota)
    kAcc,    // the lane's partial sum (a reduction split over lanes)
    kSlot,   // the output so far: the accumulator register of the item's slot
    kNone,   // nothing (the unused accumulator of a chunk's first term)
  } kind = kRead;
  Guard guard;
  int buffer = -1;
  int index = -1;
  uint64_t bits = 0;  // kConst: the value at the leaf's datapath width
};

// A scalar expression over the leaves of a task (operand values of the current item).
struct Node {
  enum Kind : uint8_t { kLeaf, kConst, kOp } kind = kOp;
  ir::Opcode op{};
  ir::ElementType type{};  // result type
  std::vector<int> args;   // node indices
  int leaf = -1;           // kLeaf
  uint64_t bits = 0;       // kConst
  ir::ComparisonDirection direction = ir::ComparisonDirection::kEq;  // compare
  bool total_order = false;  // compare: HLO comparison type TOTALORDER (a float unit's total order)
  int power_exponent = 0;    // float power: its constant integer exponent (hwmodel::power_exponent)
  int reduce_exponent_bits = 0, reduce_mantissa_bits = 0;  // float reduce-precision: its form
  // integer divide, remainder: the width its divider is built at (value_bits.h
  // divider_bits; the estimate prices that width), 0 or the type's width: not narrowed
  int divider_bits = 0;
};

struct Expr {
  std::vector<Node> nodes;
  int root = -1;
  int add(Node n) {
    nodes.push_back(std::move(n));
    return static_cast<int>(nodes.size()) - 1;
  }
};

// When no alternative holds, the item is a term the task skips (window padding).
struct Leaf {
  ir::ElementType type{};
  std::vector<Alt> alts;
};

// How a task's items flow through its unit.
enum class Engine : uint8_t {
  kStream,  // item = output element; value = expr(leaves) after the read, written at `depth` - 1
  kReduce,  // item = (output, term); value = combiner(acc leaf, x leaf) after the read
  kMac,     // item = (output, term); product after the read, accumulated at stage `mul_depth`
};

// A run-time start index, clamped to [0, max]; index expressions read it as run-time
// value `dim` (IxNode::kDyn). dynamic-slice: one scalar per task (index -1); gather: one
// element of the start indices per item, read `lead` cycles before the operand read that
// depends on it (`index`: which element, over the item's loop counters).
struct DynStart {
  int buffer = -1;  // the scalar (or start-indices array) holding it
  ir::ElementType type{};
  int64_t max = 0;
  int index = -1;   // ix of the element read per item; -1: element 0 of a scalar, per task
};

// The loop nest a task runs on each lane. Counters: the output index (one counter per
// output dimension, IxPool variables 0 .. out_dims.size() - 1) and, for accumulating
// tasks, the term index (variables after them, over term_dims, row-major as the
// interpreter sums). Lane q's share and order (hwmodel/timing.h):
// - stream: flat outputs [q c, min(N, (q + 1) c)), c = per_lane, one per cycle.
// - accumulate: outputs q p .. q p + p - 1 (p = per_lane) in groups of `group` outputs,
//   one slot per cycle over `period` slots (slots past the group idle), one term per
//   output per round, all rounds of a group before the next (hwmodel/timing.h).
// - split: output q / split, terms [(q % split) chunk, ...), one every `period` cycles.
struct LoopNest {
  std::vector<int64_t> out_dims, term_dims;
  int64_t per_lane = 1;
  int64_t period = 1;
  int64_t group = 1;   // accumulate: outputs in flight per lane (accumulator registers)
  int out_flat = -1;   // ix: the flat output index
  int term_flat = -1;  // ix: the flat term index (accumulating tasks)
  int vars() const { return static_cast<int>(out_dims.size() + term_dims.size()); }
  // The trip count of variable v (an output dimension, then a term dimension).
  int64_t extent(int v) const {
    const size_t r = out_dims.size();
    return static_cast<size_t>(v) < r ? out_dims[v] : term_dims[v - r];
  }
};

struct TaskPlan {
  uint32_t task = 0;  // its number in the plan (names it as a memory reader)
  ir::InstrId instr = ir::kNoId;
  std::string name;   // Verilog-safe, unique
  Engine engine = Engine::kStream;
  int unit = -1;      // index into Plan::units
  int timeline = 0;   // index into Plan::timelines: the counter `start` is read on
  int slot = 0;       // its number among the unit's tasks
  int64_t start = 0, busy = 0, latency = 0;
  int lanes = 1;
  int depth = 1;      // issue to write: the read stage, then the unit (mac: multiplier + adder)
  int lead = 0;       // stream: cycles its items' start-index reads run ahead of issue (gather)
  int mul_depth = 0;  // accumulating tasks: stages before the accumulator (read, multiplier)
  int out_buffer = -1;
  ir::ElementType out_type{};
  int64_t outputs = 0, terms = 1;  // P and K (stream: outputs elements, terms 1)
  Expr expr;                       // stream and reduce (reduce: leaf 0 = acc, leaf 1 = x)
  std::vector<Leaf> leaves;        // mac: leaf 0 = lhs/input, leaf 1 = rhs/kernel
  IxPool ix;                       // the index expressions of leaves and guards
  LoopNest loops;
  bool has_skips = false;          // some item skips its term (window padding)
  // More lanes than outputs (hwmodel/timing.h): lane q accumulates chunk q % split of
  // output q / split (`chunk` terms each) in a partial register; an adder tree of
  // ceil(log2 split) levels of the adder's depth joins the partials.
  int split = 1;
  int64_t chunk = 0;
  ir::Opcode combiner = ir::Opcode::kAdd;  // the tree's op (reduce: its combiner)
  bool simple_combiner = false;            // the combiner is one associative, commutative op
  std::vector<DynStart> dyn;  // dynamic-slice: the start indices, per operand dimension
  int skip_leaf() const { return engine == Engine::kMac ? 0 : 1; }
  // Lane q's first output (stream: flat element), its count, and for a split its first term.
  int64_t lane_first(int q) const;
  int64_t lane_count(int q) const;
  int add_depth() const { return depth - mul_depth; }
  // The cycle (from start) at which tree level `level` (1-based) is computed; its result
  // is registered at the end of that cycle.
  int64_t tree_cycle(int level) const { return (chunk - 1) * add_depth() + mul_depth + add_depth() + level * add_depth() - 1; }
};

struct Buffer {
  enum Origin : uint8_t { kParameter, kConstant, kTask, kState } origin = kTask;  // kState: a loop's
  std::string name;
  ir::ElementType type{};
  int64_t elements = 0;
  int track = -1;
  int param = -1;                   // kParameter: parameter number
  ir::InstrId instr = ir::kNoId;    // kConstant: the constant; kTask: the producer
  std::vector<uint64_t> init;       // kConstant: element bits (a ROM in the Verilog)
  // Bits each word holds when its value range needs fewer than the type (hwmodel/value_bits.h,
  // the estimate's Task::stored_bits), 0 when not narrowed; a read sign- or zero-extends.
  int stored_bits = 0;
  bool stored_sign = false;
  int word_bits() const { return stored_bits > 0 ? stored_bits : datapath_width(type); }
};

struct Track {
  int64_t bytes = 0;
  bool bram = false;  // the binding put it in BRAM (emitted as registers all the same)
  std::vector<int> buffers;
};

struct Unit {
  std::string cls;    // unit class name (int_alu, int_mac, ...)
  int index = 0;      // instance number within its class
  int timeline = 0;   // its tasks' timeline (a loop's condition and body have their own units)
  int lanes = 1;
  int width = 1;      // value bits: the widest task bound to it
  int depth = 1;      // the longest issue-to-write distance of its tasks
  bool mac = false;
  int mul_depth = 0, add_depth = 0;  // mac
  std::vector<int> tasks;  // TaskPlan indices in start order
};

// An entry parameter or an output leaf of the root as a port.
struct Port {
  std::string name;   // Verilog-safe: in_<name> / out_<name>
  std::string value;  // the IR name it comes from
  ir::ElementType type{};
  int64_t elements = 1;
  bool scalar = false;  // rank 0: a plain port; else an address/data memory port
  int buffer = -1;
  int param = -1;       // inputs
};

// A schedule's own cycle counter, restarted by its go pulse: the entry's (timeline 0:
// signals start_fire, running, cyc), or one phase of a while loop (tl<k>_go/_run/_cyc).
// A pipelined loop's body (period = II > 0) has `copies` counters, one per iteration in
// flight: iteration n runs on copy n mod copies (<name>_r<c>_go/_run/_cyc), and <name>_go
// is the pulse before any iteration's first cycle.
struct Timeline {
  std::string name;
  int64_t cycles = 0;
  int copies = 1;
  int64_t period = 0;
  std::string go() const { return name.empty() ? "start_fire" : name + "_go"; }
  std::string run() const { return name.empty() ? "running" : name + "_run"; }
  std::string cyc() const { return name.empty() ? "cyc" : name + "_cyc"; }
  // Copy c's signals (the timeline's own when it has one copy).
  std::string go(int c) const { return copies == 1 ? go() : fmt::format("{}_r{}_go", name, c); }
  std::string run(int c) const { return copies == 1 ? run() : fmt::format("{}_r{}_run", name, c); }
  std::string cyc(int c) const { return copies == 1 ? cyc() : fmt::format("{}_r{}_cyc", name, c); }
};

// A while loop (hwmodel/control_flow.h): its phases' timelines and the condition's result.
struct LoopPlan {
  std::string name;
  ir::InstrId instr = ir::kNoId;
  int parent = 0;      // the timeline the loop starts in, at cycle `start`
  int64_t start = 0, trips = 0;
  int copy_in = -1, condition = -1, decide = -1, body = -1, copy_back = -1;  // timelines
  int pred_buffer = -1;  // the condition's result
  // Pipelined (hwmodel/loop_pipelining.h): iterations start every `ii` cycles on the body
  // timeline's copies; no condition, decide or copy-back phase (their timelines -1).
  int64_t ii = 0;
};

// A conditional (hwmodel/control_flow.h): its decide cycle, each branch's timeline and
// copy-out timeline, and the selector.
struct CondPlan {
  std::string name;
  ir::InstrId instr = ir::kNoId;
  int parent = 0;  // the timeline it starts in, at cycle `start`
  int64_t start = 0;
  int decide = -1;
  std::vector<int> branches, copies;  // timelines, one per branch
  int selector = -1;                  // the buffer of the pred or branch index
  bool pred = false;                  // true -> branch 0, false -> branch 1
};

struct Plan {
  std::string module_name;
  int64_t cycles = 0;  // the schedule length
  std::vector<Timeline> timelines;  // [0]: the entry's schedule (cycles == `cycles`)
  std::vector<LoopPlan> loops;
  std::vector<CondPlan> conditionals;
  std::vector<Buffer> buffers;
  std::vector<Track> tracks;
  std::vector<Unit> units;
  std::vector<TaskPlan> tasks;
  std::vector<Port> inputs, outputs;
};

// Refuses, before any scheduling, what the emitter cannot build: element types other
// than pred, s8..s64, u8..u64, f32, f16 and bf16 (other floats: "quantize with --fixed
// W,I"; float ops without an IEEE-754 unit are refused when planned) and ops of the entry
// and of its loops and branches outside its set (sort, scatter, custom-call, ...), naming
// op and line.
void check_supported(const ir::Module& m);

// Builds the plan. `e` must carry details (EstimateOptions::keep_details). Throws
// hlsgym::Error naming the op and its design line for anything the emitter does not
// support (float types, control flow, ops outside the supported set, DRAM buffers).
Plan make_plan(const ir::Module& m, const hwmodel::Target& t, const hwmodel::Estimate& e,
               const std::string& module_name);

}  // namespace hlsgym::hwmodel
