// dynamic-dimension-simplifier (XLA DynamicDimensionSimplifier), one sweep per rule:
// - concatenate(concatenate(A, B), C) on one dimension -> concatenate(A, B, C);
// - concatenate(A) -> A;
// - a rank-1 stride-1 slice of a concatenate that covers exactly one operand -> that
//   operand;
// - reshape(broadcast(s) to [1]) to a scalar -> s;
// - reshape(reshape(A)) with A's shape -> A;
// - convert and reshape to exactly their operand's shape (layout included) -> operand.
#include <algorithm>

#include "passes/control_flow_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::CompId;
using ir::InstrId;
using ir::Opcode;

// concatenate(concatenate(A, B), C) on one dimension: the flattened operand list, or
// empty when no operand is such a concatenate.
std::vector<InstrId> flattened_operands(const ir::Module& m, InstrId i) {
  std::vector<InstrId> ops;
  if (m.opcode(i) != Opcode::kConcatenate || m.attrs(i).dimensions.size() != 1) return ops;
  bool nested = false;
  for (InstrId o : m.operands(i)) {
    if (m.opcode(o) == Opcode::kConcatenate && m.attrs(o).dimensions == m.attrs(i).dimensions) {
      nested = true;
      ops.insert(ops.end(), m.operands(o).begin(), m.operands(o).end());
    } else {
      ops.push_back(o);
    }
  }
  if (!nested) ops.clear();
  return ops;
}

InstrId single_concat(const ir::Module& m, InstrId i) {
  if (m.opcode(i) != Opcode::kConcatenate || m.operands(i).size() != 1) return ir::kNoId;
  return m.shape(m.operand(i, 0)) == m.shape(i) ? m.operand(i, 0) : ir::kNoId;
}

InstrId slice_of_concat(const ir::Module& m, InstrId i) {
  if (m.opcode(i) != Opcode::kSlice || m.shape(i).rank() != 1) return ir::kNoId;
  const InstrId cat = m.operand(i, 0);
  if (m.opcode(cat) != Opcode::kConcatenate) return ir::kNoId;
  const ir::SliceDim& s = m.attrs(i).slice.at(0);
  if (s.stride != 1) return ir::kNoId;
  int64_t offset = 0;
  for (InstrId o : m.operands(cat)) {
    if (offset == s.start && m.shape(o).dim(0) == s.limit - s.start) return o;
    offset += m.shape(o).dim(0);
  }
  return ir::kNoId;
}

InstrId reshape_of_broadcast(const ir::Module& m, InstrId i) {
  if (m.opcode(i) != Opcode::kReshape || m.shape(i).rank() != 0) return ir::kNoId;
  const InstrId b = m.operand(i, 0);
  if (m.opcode(b) != Opcode::kBroadcast || m.shape(b).rank() != 1 || m.shape(m.operand(b, 0)).rank() != 0)
    return ir::kNoId;
  return m.operand(b, 0);
}

InstrId reshape_of_reshape(const ir::Module& m, InstrId i) {
  if (m.opcode(i) != Opcode::kReshape || m.opcode(m.operand(i, 0)) != Opcode::kReshape) return ir::kNoId;
  const InstrId a = m.operand(m.operand(i, 0), 0);
  return m.shape(a) == m.shape(i) ? a : ir::kNoId;
}

InstrId identity(const ir::Module& m, InstrId i) {
  if (m.opcode(i) != Opcode::kConvert && m.opcode(i) != Opcode::kReshape) return ir::kNoId;
  return m.shape(m.operand(i, 0)) == m.shape(i) ? m.operand(i, 0) : ir::kNoId;
}

// The value `i` can be replaced by without computing anything, or kNoId.
InstrId forwarded(const ir::Module& m, InstrId i) {
  for (auto rule : {single_concat, slice_of_concat, reshape_of_broadcast, reshape_of_reshape, identity})
    if (InstrId r = rule(m, i); r != ir::kNoId) return r;
  return ir::kNoId;
}

bool applies(const ir::Module& m, InstrId i) {
  return forwarded(m, i) != ir::kNoId || !flattened_operands(m, i).empty();
}

class DynamicDimensionSimplifier final : public Pass {
 public:
  std::string_view name() const override { return "dynamic-dimension-simplifier"; }
  std::string_view description() const override {
    return "flattens nested concatenates and forwards slices of concatenates and identity reshapes/converts";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (CompId c : m.live_computations()) {
      const auto& order = m.computation(c).order;
      if (std::none_of(order.begin(), order.end(), [&](InstrId i) { return m.is_live(i) && applies(m, i); }))
        continue;  // the common, cheap case
      // Operands first, so a chain collapses in one run.
      for (InstrId i : control_flow::local_post_order(m, c)) {
        if (!m.is_live(i)) continue;
        std::vector<InstrId> ops = flattened_operands(m, i);
        const InstrId r = ops.empty() ? forwarded(m, i) : m.add_clone(c, i, ops);
        if (r == ir::kNoId) continue;
        replace_instruction(m, i, r);
        changed = true;
      }
    }
    return changed;
  }
};

}  // namespace

PassPtr make_dynamic_dimension_simplifier() { return std::make_unique<DynamicDimensionSimplifier>(); }

}  // namespace hlsgym::passes
