// simplify-sorts (XLA SortSimplifier): a multi-operand sort whose result elements are
// only read through get-tuple-element drops the operands nobody reads, provided its
// comparator does not look at them either (the order then does not depend on them).
// The comparator is rebuilt over the remaining operands. Exact.
#include "passes/call_graph_util.h"
#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"
#include "passes/sort_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

// Which operands of `sort` are read, by its users or its comparator; nullopt when a user
// is not a get-tuple-element (the whole tuple escapes).
std::optional<std::vector<bool>> used_operands(const ir::Module& m, InstrId sort) {
  const size_t n = m.operands(sort).size();
  std::vector<bool> used(n, false);
  for (InstrId u : m.users(sort)) {
    if (m.opcode(u) != Opcode::kGetTupleElement) return std::nullopt;
    used[static_cast<size_t>(m.attrs(u).tuple_index)] = true;
  }
  const ir::Computation& cmp = m.computation(m.called(sort)[0]);
  for (size_t k = 0; k < n; ++k)
    for (size_t side = 0; side < 2; ++side) {
      const InstrId p = cmp.params.size() > 2 * k + side ? cmp.params[2 * k + side] : ir::kNoId;
      if (p == ir::kNoId || !m.users(p).empty() || cmp.root == p) used[k] = true;
    }
  return used;
}

InstrId zero(expand::Builder& b, ir::ElementType t) {
  return ir::is_floating(t) ? b.scalar(t, 0) : b.scalar_int(t, 0);
}

InstrId simplified(ir::Module& m, InstrId sort, const std::vector<bool>& used) {
  const auto span = m.operands(sort);
  const std::vector<InstrId> operands(span.begin(), span.end());
  std::vector<InstrId> kept;
  std::vector<ir::ElementType> types;
  for (size_t k = 0; k < operands.size(); ++k)
    if (used[k]) kept.push_back(operands[k]), types.push_back(m.shape(operands[k]).element_type());
  std::vector<InstrId> params;
  const ir::CompId cmp = sorting::new_comparator(m, types, params);
  // Bind the old comparator's parameters: kept ones to the new parameters, dropped ones
  // (never read) to a throwaway constant of their type.
  const ir::CompId old_cmp = m.called(sort)[0];
  expand::Builder b(m, cmp);
  std::vector<InstrId> args;
  size_t next = 0;
  for (size_t k = 0; k < operands.size(); ++k)
    for (int side = 0; side < 2; ++side)
      args.push_back(used[k] ? params[2 * next + static_cast<size_t>(side)]
                             : zero(b, m.shape(operands[k]).element_type()));
  m.set_root(cmp, inline_computation(m, old_cmp, cmp, args));
  for (InstrId a : args) remove_if_dead(m, a);
  return sorting::make_sort(m, sort, kept, cmp, m.attrs(sort).is_stable.value_or(false));
}

class SortSimplifier final : public Pass {
 public:
  std::string_view name() const override { return "simplify-sorts"; }
  std::string_view description() const override {
    return "removes sort operands that neither the users nor the comparator read";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId s : expand::find_all(m, {Opcode::kSort})) {
      if (m.operands(s).size() < 2 || m.called(s).size() != 1 || m.is_root(s)) continue;
      const auto used = used_operands(m, s);
      if (!used || std::find(used->begin(), used->end(), false) == used->end()) continue;
      if (std::find(used->begin(), used->end(), true) == used->end()) continue;  // nothing read: dce's job
      const std::vector<bool> u = *used;
      const InstrId fresh = simplified(m, s, u);
      std::vector<int64_t> index(u.size(), -1);
      int64_t next = 0;
      for (size_t k = 0; k < u.size(); ++k)
        if (u[k]) index[k] = next++;
      sorting::rewire(m, s, fresh, index);
      changed = true;
    }
    if (changed) remove_unreachable_computations(m);  // the old comparators
    return changed;
  }
};

}  // namespace

PassPtr make_sort_simplifier() { return std::make_unique<SortSimplifier>(); }

}  // namespace hlsgym::passes
