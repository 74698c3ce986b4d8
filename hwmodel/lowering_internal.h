// Private to lowering*.cc: what an instruction asks of the hardware before timing.
#pragma once
#include <array>
#include <map>
#include <tuple>
#include <optional>
#include <vector>

#include "hwmodel/lowering.h"
#include "hwmodel/unit_model.h"
#include "hwmodel/value_bits.h"

namespace hlsgym::hwmodel::lowering_detail {

enum class Form : uint8_t {
  kFree,         // 0 cycles, no unit
  kStream,       // n elements through a pipeline of depth `depth`
  kAccumulate,   // n outputs of k terms (mul_depth then an accumulator of depth `depth`)
  kSort,         // n rows of k keys through a comparator of depth `depth`
  kScatter,      // n updates, read-modify-write through a combiner of depth `depth`
  kCall,         // inline the called computation
  kWhile,
  kConditional,
  kUnknown,      // no cost model
};

// A scalar body (to_apply, fusion, map) as one pipeline: its ops chained.
struct BodyInfo {
  bool pipelineable = true;  // only elementwise and index-mapping ops
  UnitClass unit = UnitClass::kIntAlu;  // the op class with the longest depth
  int depth = 0;             // critical path in cycles (FPGA)
  int ops = 0;               // compute ops per application
  double energy_pj = 0;      // per application
  Area lane_area;            // one lane: every op gets its own unit
  double cpu_cycles_per_vector = 0;
  ir::ElementType type = ir::ElementType::kS32;
  const FloatUnitCost* float_unit = nullptr;  // FPGA: its one op is this IEEE-754 unit (ops == 1)
};

// A unit's costs for one element type, memoized per (class, type).
struct UnitCost {
  bool known = false;
  double energy_pj = 0;
  Area lane_area;
};

struct Work {
  Form form = Form::kFree;
  UnitClass unit = UnitClass::kMem;
  ir::ElementType type = ir::ElementType::kS32;  // sets the datapath width
  int64_t n = 0, k = 0;
  int64_t depth = 0, mul_depth = 0;
  int64_t lead = 0;           // stream: read stages before the operand read (gather's indices)
  int64_t ops_per_item = 1;   // element ops per item (a body's op count)
  double energy_per_item = 0; // pJ
  Area lane_area;
  double cpu_cycles_per_vector = 0;  // per item, per SIMD vector
  int ports = 1;
  bool alias = false, input = false;
  int16_t float_unit = -1;  // Task::float_unit
};

class WorkModel {
 public:
  WorkModel(const ir::Module& m, const Target& t)
      : m_(m), t_(t), bodies_(m.computation_slots()), seen_(m.instruction_slots(), 0) {}
  Work classify(ir::InstrId i);
  // Live instructions of `c`, operands first. ir::Module::post_order clears a mark per
  // instruction of the module on every call; this one stamps marks with an epoch, so a
  // call costs the computation's size (calls are inlined once per call site).
  void post_order(ir::CompId c, std::vector<ir::InstrId>& out);
  const BodyInfo& body(ir::CompId c);
  // A memory move of `elements` elements of the op's output type.
  Work move(ir::InstrId i, int64_t elements);
  // DSP slices of an integer multiply's lane, its operands as the multiplier sees them.
  int multiply_dsp_slices(ir::InstrId i, bool in_fused_body) const;
  // FPGA: the module's value ranges (LoweringCache's), which size integer dividers.
  void set_value_bits(const ValueBits* vb) { value_bits_ = vb; }

 private:
  std::optional<Work> classify_structured(ir::InstrId i);
  Work elementwise(ir::InstrId i, UnitClass c, ir::ElementType type);
  const UnitCost& unit_cost(UnitClass c, ir::ElementType type);
  Work reduction(ir::InstrId i, int64_t outputs, int64_t terms, ir::CompId combiner);
  Work contraction(ir::InstrId i, int64_t outputs, int64_t terms);
  Work through_body(ir::InstrId i, Form f, const BodyInfo& b, int64_t n, int64_t k);
  BodyInfo analyze(ir::CompId c);
 public:
  // The target's float_units entry of instruction `i` (memoized by op and types), or null.
  const FloatUnitCost* float_cost(ir::InstrId i);
 private:
  int16_t float_unit_id(const FloatUnitCost* f);
  // One lane of integer op i's unit c at `type` (an integer divide sized by its operands'
  // ranges: value_bits.h divider_bits).
  Area integer_lane_area(ir::InstrId i, UnitClass c, ir::ElementType type) const;

  const ir::Module& m_;
  const Target& t_;
  std::vector<std::optional<BodyInfo>> bodies_;
  std::vector<int> depth_;  // scratch of analyze(), indexed by instruction
  std::array<std::array<UnitCost, 32>, kUnitClassCount> unit_costs_{};
  std::vector<uint32_t> seen_;  // == epoch_: visited by the current post_order
  uint32_t epoch_ = 0;
  std::vector<std::pair<ir::InstrId, uint32_t>> stack_;
  std::vector<ir::InstrId> body_order_;
  std::map<std::tuple<ir::Opcode, ir::ElementType, ir::ElementType, int, bool, int, int, int>, const FloatUnitCost*> float_costs_;
  std::map<const FloatUnitCost*, int16_t> float_ids_;
  const ValueBits* value_bits_ = nullptr;
};

// The unit class of an elementwise opcode on elements of `type` (the operand type for
// compare/is-finite; float if either side of a convert is), or nullopt if it has none.
std::optional<UnitClass> elementwise_unit(ir::Opcode op, ir::ElementType type);
// The type that decides an elementwise op's class and width.
ir::ElementType deciding_type(const ir::Module& m, ir::InstrId i);

}  // namespace hlsgym::hwmodel::lowering_detail

namespace hlsgym::hwmodel {
struct LoweringCache::Impl {
  Impl(const ir::Module& m, const Target& t)
      : work(m, t), value_task(m.instruction_slots(), UINT32_MAX), value_bits(t.is_fpga() ? analyze_value_bits(m) : ValueBits{}) {
    work.set_value_bits(&value_bits);
  }
  lowering_detail::WorkModel work;
  std::vector<uint32_t> value_task;  // instruction -> task of the graph being built
  ValueBits value_bits;              // FPGA: the entry's value ranges and narrowed words, once per module
};
}  // namespace hlsgym::hwmodel
