// map-inline (XLA MapInliner): a map whose applied computation is a single operation on
// its parameters becomes that operation on the arrays: map({X, Y}, add) -> add(X, Y);
// a computation returning one of its parameters forwards that operand, and one
// returning a constant becomes a broadcast of the constant. Only elementwise roots are
// inlined (a per-element op applied to whole arrays computes the same values).
#include <algorithm>

#include "passes/control_flow_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::CompId;
using ir::InstrId;
using ir::Opcode;

bool all_operands_are_parameters(const ir::Module& m, InstrId r) {
  for (InstrId o : m.operands(r))
    if (m.opcode(o) != Opcode::kParameter) return false;
  return true;
}

// The replacement of `map` in computation c, or kNoId.
InstrId inlined(ir::Module& m, CompId c, InstrId map) {
  if (m.called(map).size() != 1) return ir::kNoId;
  const CompId f = m.called(map)[0];
  const InstrId r = m.computation(f).root;
  if (r == ir::kNoId || !all_operands_are_parameters(m, r)) return ir::kNoId;
  const ir::Shape& shape = m.shape(map);
  switch (m.opcode(r)) {
    case Opcode::kParameter: {
      const auto k = static_cast<size_t>(m.attrs(r).parameter_number);
      if (k >= m.operands(map).size() || !m.shape(m.operand(map, k)).compatible(shape)) return ir::kNoId;
      return m.operand(map, k);
    }
    case Opcode::kConstant: {
      if (control_flow::is_elided_constant(m, r) || m.shape(r).rank() != 0) return ir::kNoId;
      const InstrId k = m.add_clone(c, r, {});
      if (shape.rank() == 0) return k;
      const InstrId k_ops[] = {k};
      return m.add_instruction(c, Opcode::kBroadcast, shape, k_ops);
    }
    default:
      break;
  }
  if (!ir::info(m.opcode(r)).elementwise || has_side_effect(m, r) || !m.called(r).empty()) return ir::kNoId;
  std::vector<InstrId> ops;
  for (InstrId p : m.operands(r)) {
    const auto k = static_cast<size_t>(m.attrs(p).parameter_number);
    if (k >= m.operands(map).size()) return ir::kNoId;
    ops.push_back(m.operand(map, k));
  }
  const InstrId op = m.add_clone(c, r, ops);
  m.mutable_payload(op).shape = shape;
  return op;
}

class MapInliner final : public Pass {
 public:
  std::string_view name() const override { return "map-inline"; }
  std::string_view description() const override {
    return "replaces a map of a single elementwise operation by that operation on the arrays";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (CompId c : m.live_computations()) {
      const auto& order = m.computation(c).order;
      const bool has_map = std::any_of(order.begin(), order.end(),
                                       [&](InstrId i) { return m.is_live(i) && m.opcode(i) == Opcode::kMap; });
      if (!has_map) continue;
      for (InstrId i : control_flow::local_post_order(m, c)) {
        if (!m.is_live(i) || m.opcode(i) != Opcode::kMap) continue;
        const InstrId r = inlined(m, c, i);
        if (r == ir::kNoId) continue;
        replace_instruction(m, i, r);
        changed = true;
      }
    }
    return changed;
  }
};

}  // namespace

PassPtr make_map_inliner() { return std::make_unique<MapInliner>(); }

}  // namespace hlsgym::passes
