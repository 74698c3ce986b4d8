// conditional-canonicalizer (XLA ConditionalCanonicalizer; "conditional canonicalizer"
// in 2023): a conditional whose result is not a tuple gets branches that return a
// 1-tuple of their old result, and its users read element 0 of the new tuple result.
// A branch shared with another caller is copied first, so the other caller keeps it.
#include <algorithm>

#include "passes/call_graph_util.h"
#include "passes/control_flow_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::CompId;
using ir::InstrId;
using ir::Opcode;
namespace cf = control_flow;

void canonicalize(ir::Module& m, InstrId cond, std::vector<int>& callers) {
  for (size_t b = 0; b < m.called(cond).size(); ++b) {
    CompId branch = m.called(cond)[b];
    if (callers[branch] > 1) {
      const CompId copy = clone_computation(m, branch, m.unique_name(m.computation(branch).name));
      m.mutable_payload(cond).called[b] = copy;
      callers = cf::caller_counts(m);
      branch = copy;
    }
    const InstrId root = m.computation(branch).root;
    const InstrId root_ops[] = {root};
    m.set_root(branch, m.add_instruction(branch, Opcode::kTuple, ir::Shape::tuple({m.shape(root)}), root_ops));
  }
  const CompId c = m.computation_of(cond);
  const ir::Shape result = m.shape(cond);
  std::vector<InstrId> users(m.users(cond).begin(), m.users(cond).end());
  const bool was_root = m.is_root(cond);
  m.mutable_payload(cond).shape = ir::Shape::tuple({result});
  ir::Attributes a;
  a.tuple_index = 0;
  const InstrId cond_ops[] = {cond};
  const InstrId element = m.add_instruction(c, Opcode::kGetTupleElement, result, cond_ops, a);
  for (InstrId u : users) {
    std::vector<InstrId> ops(m.operands(u).begin(), m.operands(u).end());
    std::replace(ops.begin(), ops.end(), cond, element);
    m.set_operands(u, ops);
  }
  if (was_root) m.set_root(c, element);
}

class ConditionalCanonicalizer final : public Pass {
 public:
  std::string_view name() const override { return "conditional-canonicalizer"; }
  std::string_view description() const override {
    return "makes every conditional return a tuple (non-tuple results become 1-tuples)";
  }
  bool run(ir::Module& m) override {
    std::vector<int> callers = cf::caller_counts(m);
    bool changed = false;
    for (InstrId cond : cf::collect_ops(m, Opcode::kConditional, /*callers_first=*/false)) {
      if (!m.is_live(cond) || m.shape(cond).is_tuple() || m.called(cond).empty()) continue;
      canonicalize(m, cond, callers);
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_conditional_canonicalizer() { return std::make_unique<ConditionalCanonicalizer>(); }

}  // namespace hlsgym::passes
