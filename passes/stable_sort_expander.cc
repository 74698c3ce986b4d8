// stable-sort-expander (XLA StableSortExpander): a sort marked is_stable=true becomes an
// unstable sort that is stable by construction. An s32 iota along the sort dimension is
// an operand (one already there is reused, else one is added), and the comparator breaks
// ties with it, as XLA writes it:
//   less'(a, b) = select(less(a, b) == less(b, a), iota_a < iota_b, less(a, b))
// so a backend that ignores is_stable still sorts stably. The order is the same as the
// stable order of the original: exact. Users see the sort's old shape: a root or a user of
// the whole tuple gets a tuple of the new sort's elements.
#include "passes/call_graph_util.h"
#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"
#include "passes/sort_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

// The comparator over `types` (the new sort's operands), breaking the old comparator's
// ties with operand `iota` (the formula above). The old comparator reads the first
// operands, as many as it has parameter pairs.
ir::CompId tie_breaking_comparator(ir::Module& m, ir::CompId old_cmp, const std::vector<ir::ElementType>& types,
                                   size_t iota) {
  std::vector<InstrId> p;
  const ir::CompId c = sorting::new_comparator(m, types, p);
  std::vector<InstrId> ab(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(m.computation(old_cmp).params.size())),
      ba;
  for (size_t k = 0; k + 1 < ab.size(); k += 2) ba.push_back(ab[k + 1]), ba.push_back(ab[k]);
  const InstrId less_ab = inline_computation(m, old_cmp, c, ab);
  const InstrId less_ba = inline_computation(m, old_cmp, c, ba);
  expand::Builder b(m, c);
  const InstrId tie = b.compare(less_ab, less_ba, ir::ComparisonDirection::kEq);
  const InstrId index_less = b.compare(p[2 * iota], p[2 * iota + 1], ir::ComparisonDirection::kLt);
  m.set_root(c, b.select(tie, index_less, less_ab));
  return c;
}

// The operand of `sort` that is an s32 iota along its sort dimension, or the operand count.
size_t iota_operand(const ir::Module& m, InstrId sort) {
  const auto operands = m.operands(sort);
  for (size_t k = 0; k < operands.size(); ++k) {
    const InstrId o = operands[k];
    if (m.opcode(o) == Opcode::kIota && m.shape(o).element_type() == ir::ElementType::kS32 &&
        m.attrs(o).iota_dimension == m.attrs(sort).dimensions[0])
      return k;
  }
  return operands.size();
}

class StableSortExpander final : public Pass {
 public:
  std::string_view name() const override { return "stable-sort-expander"; }
  std::string_view description() const override {
    return "makes stable sorts stable by construction: an iota operand breaks comparator ties";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId s : expand::find_all(m, {Opcode::kSort})) {
      if (!m.attrs(s).is_stable.value_or(false) || m.called(s).size() != 1 || m.attrs(s).dimensions.size() != 1)
        continue;
      const auto span = m.operands(s);
      std::vector<InstrId> operands(span.begin(), span.end());
      const size_t old_count = operands.size();
      const size_t iota = iota_operand(m, s);
      if (iota == old_count) {
        expand::Builder b(m, m.computation_of(s));
        operands.push_back(b.iota(ir::ElementType::kS32, m.shape(operands[0]).dims(), m.attrs(s).dimensions[0]));
      }
      std::vector<ir::ElementType> types;
      for (InstrId o : operands) types.push_back(m.shape(o).element_type());
      const ir::CompId cmp = tie_breaking_comparator(m, m.called(s)[0], types, iota);
      const InstrId fresh = sorting::make_sort(m, s, operands, cmp, false);
      if (iota < old_count) {
        replace_instruction(m, s, fresh);  // same operands, same shape
      } else {
        // Element k stays element k; a one-operand sort becomes element 0 of the new one.
        std::vector<int64_t> index(old_count);
        for (size_t k = 0; k < old_count; ++k) index[k] = static_cast<int64_t>(k);
        sorting::rewire(m, s, fresh, index);
      }
      changed = true;
    }
    if (changed) remove_unreachable_computations(m);  // the old comparators
    return changed;
  }
};

}  // namespace

PassPtr make_stable_sort_expander() { return std::make_unique<StableSortExpander>(); }

}  // namespace hlsgym::passes
