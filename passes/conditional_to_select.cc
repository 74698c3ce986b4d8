// conditional-to-select (XLA ConditionalToSelect): inside computations used only in
// embedded contexts (applied by map, reduce, sort, scatter, ... rather than called by
// call/while/conditional), a two-way conditional on a pred whose branches have no side
// effects and return a non-tuple value becomes both branches inlined and a select
// between them. Conditionals in sequential code are left for simplify-conditional.
// Branches holding elided constants are not copied.
#include <algorithm>

#include "passes/call_graph_util.h"
#include "passes/control_flow_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::CompId;
using ir::InstrId;
using ir::Opcode;
namespace cf = control_flow;

constexpr uint8_t kSequential = 1, kEmbedded = 2;

bool is_control_flow_site(Opcode op) {
  return op == Opcode::kCall || op == Opcode::kWhile || op == Opcode::kConditional || op == Opcode::kAsyncStart ||
         op == Opcode::kAsyncUpdate || op == Opcode::kAsyncDone;
}

// XLA's call-graph contexts: the entry is sequential, control flow passes its caller's
// context on, every other calling instruction makes its callees embedded.
std::vector<uint8_t> call_contexts(const ir::Module& m) {
  std::vector<uint8_t> ctx(m.computation_slots(), 0);
  std::vector<CompId> order = cf::callees_first(m);
  std::reverse(order.begin(), order.end());  // callers first
  if (m.entry() != ir::kNoId) ctx[m.entry()] = kSequential;
  for (CompId c : order)
    for (InstrId i : m.instructions(c))
      for (CompId k : m.called(i)) ctx[k] |= is_control_flow_site(m.opcode(i)) ? ctx[c] : kEmbedded;
  return ctx;
}

bool to_select(ir::Module& m, InstrId cond) {
  const auto& branches = m.called(cond);
  const InstrId pred = m.operand(cond, 0);
  if (branches.size() != 2 || m.operands(cond).size() != 3 || m.shape(pred).element_type() != ir::ElementType::kPred)
    return false;
  const ir::Shape shape = m.shape(cond);
  if (!shape.is_array()) return false;  // XLA: "Not transforming tuples to 'select'"
  for (CompId b : branches)
    if (cf::computation_has_side_effect(m, b) || cf::contains_elided_constant(m, b)) return false;
  const CompId c = m.computation_of(cond);
  InstrId values[2];
  for (size_t b = 0; b < 2; ++b) {
    const InstrId arg[] = {m.operand(cond, b + 1)};
    values[b] = inline_computation(m, branches[b], c, arg);
  }
  InstrId p = pred;
  if (shape.rank() > 0) {
    const InstrId pred_ops[] = {pred};
    p = m.add_instruction(c, Opcode::kBroadcast, ir::Shape(ir::ElementType::kPred, shape.dims()), pred_ops);
  }
  const InstrId ops[] = {p, values[0], values[1]};
  replace_instruction(m, cond, m.add_instruction(c, Opcode::kSelect, shape, ops));
  return true;
}

class ConditionalToSelect final : public Pass {
 public:
  std::string_view name() const override { return "conditional-to-select"; }
  std::string_view description() const override {
    return "turns side-effect-free conditionals inside map/reduce/sort computations into selects";
  }
  bool run(ir::Module& m) override {
    std::vector<InstrId> conds = cf::collect_ops(m, Opcode::kConditional, /*callers_first=*/false);
    if (conds.empty()) return false;
    const std::vector<uint8_t> ctx = call_contexts(m);
    bool changed = false;
    for (InstrId cond : conds)
      if (m.is_live(cond) && ctx[m.computation_of(cond)] == kEmbedded) changed |= to_select(m, cond);
    if (changed) remove_unreachable_computations(m);
    return changed;
  }
};

}  // namespace

PassPtr make_conditional_to_select() { return std::make_unique<ConditionalToSelect>(); }

}  // namespace hlsgym::passes
