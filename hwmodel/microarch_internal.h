// Private to microarch*.cc: where IR values live while the plan is built, and the per-op
// planners that fill a TaskPlan (engine, leaves, expression, item schedule).
#pragma once
#include <functional>
#include <map>
#include <tuple>
#include <string>
#include <vector>

#include "hwmodel/target.h"
#include "hwmodel/microarch.h"
#include "hwmodel/value_bits.h"

namespace hlsgym::hwmodel::plan_detail {

// Where a value lives: one buffer (arrays) or one location per tuple element.
struct Loc {
  int buffer = -1;
  bool tuple = false;
  std::vector<Loc> elements;
};

class PlanContext {
 public:
  PlanContext(const ir::Module& m, const hwmodel::Target& t, Plan& plan)
      : m(m), t(t), plan(plan), loc(m.instruction_slots()), chained(m.instruction_slots(), 0),
        value_bits(t.is_fpga() ? hwmodel::analyze_value_bits(m) : hwmodel::ValueBits{}) {}
  const ir::Module& m;
  const hwmodel::Target& t;
  Plan& plan;
  std::vector<Loc> loc;  // by instruction
  ir::CompId comp = ir::kNoId;  // the computation being planned (the entry, a loop's body)
  // By instruction: a convert or broadcast the hardware model chains into its readers (an
  // alias task, hwmodel/chaining.h): it has no buffer; readers compute it from its operand
  // (a broadcast's through its index map, ExprBuilder::remap).
  std::vector<uint8_t> chained;
  mutable std::map<ir::InstrId, int> roms;  // constants inside fused bodies -> their ROM buffer
  // FPGA: the value ranges the estimate's lowering reads too (dividers' widths)
  const hwmodel::ValueBits value_bits;

  // The buffer an array operand lives in (throws for tuples and unplaced values).
  int buffer_of(ir::InstrId value) const;
  // The buffer of an array location (refusing for `user` a tuple or a value without storage).
  int buffer_of_loc(const Loc& l, ir::InstrId user) const;
  // What a multiplier operand reads for `value`: its buffer at the element type stored
  // there (a chained convert's source; the multiplier extends it).
  int stored_buffer_of(ir::InstrId value) const;
  ir::ElementType stored_type(ir::InstrId value) const;
  // The ROM buffer holding constant `i` (made on first use).
  int rom_of(ir::InstrId i) const;
  // A user-facing refusal naming the op, its name and its design line.
  [[noreturn]] void refuse(ir::InstrId i, const std::string& why) const;
};

// Fills tp.engine, outputs, terms, leaves, expr and items for the task's instruction.
// tp.out_buffer, out_type, start, busy, latency, lanes and depth are set already.
void plan_task(const PlanContext& c, TaskPlan& tp);

// A stream task copying `elements` elements of `src` (read at `type`) into its
// out_buffer, one per cycle on one lane (a loop's state copy, hwmodel/control_flow.h).
void plan_copy(TaskPlan& tp, int src, ir::ElementType type, int64_t elements);

// What the emitter builds, for refusals that name it.
inline constexpr const char* kBuiltOps =
    "integer elementwise ops, float add/subtract/multiply/divide/sqrt/compare/min/max/clamp/abs/negate/convert on "
    "f32, f16 and bf16, exponential/log/tanh/logistic/rsqrt/erf/log-plus-one/exponential-minus-one/sine/cosine/power/"
    "floor/ceil/round/remainder/atan2/reduce-precision on f32, f16 and bf16, select, broadcast, reshape, transpose, slice, concatenate, pad, iota, reverse, copy, dot, "
    "convolution, reduce, reduce-window, dynamic-slice, dynamic-update-slice, gather, loop fusions, maps, "
    "conditionals and while loops of static trip count; no sort, scatter or custom calls";

// Element-wise ops with a Verilog expression (microarch_expr.cc).
bool supported_elementwise(ir::Opcode op);
// Refuses an op on float data that no IEEE-754 unit of the target computes, naming the op,
// its type and its line (select and bitcast-convert move float bits and need none).
void check_float_unit(const PlanContext& c, ir::InstrId i);

// Builds scalar expressions; nodes for the same (instruction, index) are shared.
class ExprBuilder {
 public:
  using Index = std::vector<int>;  // the element of a value: one index expression per dimension
  using ParamFn = std::function<int(int64_t number, const Index& idx)>;
  ExprBuilder(const PlanContext& c, TaskPlan& tp) : c_(c), tp_(tp) {}

  // A leaf reading element `idx` of `value` (an array in a buffer) at its element type.
  int read_leaf(ir::InstrId value, const Index& idx);
  int leaf(Leaf l);  // an arbitrary leaf (accumulator, movement)
  int constant(ir::ElementType type, uint64_t bits);
  int op(ir::Opcode op, ir::ElementType type, std::vector<int> args);
  // The node computing instruction `i` at element `idx`. Instructions of the entry other
  // than `root` are leaves (reads of their buffers); parameters of a called body go
  // through `params`.
  int node(ir::InstrId i, const Index& idx);
  void set_root(ir::InstrId root) { root_ = root; }
  void set_params(ParamFn f) { params_ = std::move(f); }
  // The output index of the task's loop nest (its first out_dims.size() counters).
  Index output_index();

 private:
  int elementwise(ir::InstrId i, const Index& idx);
  int movement(ir::InstrId i, const Index& idx);
  Index remap(ir::InstrId i, const Index& idx);
  int read_alt_leaf(ir::ElementType type, int buffer, int flat);

  const PlanContext& c_;
  TaskPlan& tp_;
  ir::InstrId root_ = ir::kNoId;
  ParamFn params_;
  std::map<std::pair<ir::InstrId, Index>, int> memo_;
  std::map<std::tuple<int, ir::ElementType, int>, int> reads_;
};

// The bits of element `k` of a literal at the element type's datapath width.
uint64_t literal_bits(const ir::Literal& l, int64_t k);

}  // namespace hlsgym::hwmodel::plan_detail
