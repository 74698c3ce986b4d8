// stable-sort-expander (XLA StableSortExpander): a sort marked is_stable=true becomes an
// unstable sort that is stable by construction: an s32 iota along the sort dimension is
// added as an extra operand and the comparator breaks ties with it:
//   less'(a, b) = less(a, b) or (not less(b, a) and iota_a < iota_b)
// so a backend that ignores is_stable still sorts stably. The order is the same as the
// stable order of the original: exact.
#include "passes/call_graph_util.h"
#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"
#include "passes/sort_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

// The comparator over the old operands plus the iota: the tie-break formula above.
ir::CompId tie_breaking_comparator(ir::Module& m, ir::CompId old_cmp, const std::vector<ir::ElementType>& types) {
  std::vector<ir::ElementType> all = types;
  all.push_back(ir::ElementType::kS32);
  std::vector<InstrId> p;
  const ir::CompId c = sorting::new_comparator(m, all, p);
  std::vector<InstrId> ab(p.begin(), p.end() - 2), ba;
  for (size_t k = 0; k + 1 < ab.size(); k += 2) ba.push_back(ab[k + 1]), ba.push_back(ab[k]);
  const InstrId less_ab = inline_computation(m, old_cmp, c, ab);
  const InstrId less_ba = inline_computation(m, old_cmp, c, ba);
  expand::Builder b(m, c);
  const InstrId index_less = b.compare(p[p.size() - 2], p[p.size() - 1], ir::ComparisonDirection::kLt);
  const InstrId tie = b.binary(Opcode::kAnd, b.unary(Opcode::kNot, less_ba), index_less);
  m.set_root(c, b.binary(Opcode::kOr, less_ab, tie));
  return c;
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
      std::vector<ir::ElementType> types;
      for (InstrId o : operands) types.push_back(m.shape(o).element_type());
      const ir::CompId cmp = tie_breaking_comparator(m, m.called(s)[0], types);
      expand::Builder b(m, m.computation_of(s));
      operands.push_back(b.iota(ir::ElementType::kS32, m.shape(operands[0]).dims(), m.attrs(s).dimensions[0]));
      const InstrId fresh = sorting::make_sort(m, s, operands, cmp, false);
      std::vector<int64_t> index(operands.size() - 1);
      for (size_t k = 0; k < index.size(); ++k) index[k] = static_cast<int64_t>(k);
      sorting::rewire(m, s, fresh, index);
      changed = true;
    }
    if (changed) remove_unreachable_computations(m);  // the old comparators
    return changed;
  }
};

}  // namespace

PassPtr make_stable_sort_expander() { return std::make_unique<StableSortExpander>(); }

}  // namespace hlsgym::passes
