// dot_dimension_sorter (XLA DotDimensionSorter): a dot whose lhs contracting dimensions
// are not ascending gets them sorted, with the rhs contracting dimensions permuted
// alongside, so contraction pairs are canonical (and layout-friendly). The pairs are the
// same, only listed in another order; the interpreter accumulates a dot in double in the
// order of the list and rounds once, so the sum order changes and float results can move
// by a rounding step: reassociates_floats() is true.
#include <algorithm>
#include <numeric>

#include "passes/expander_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

class DotDimensionSorter final : public Pass {
 public:
  std::string_view name() const override { return "dot_dimension_sorter"; }
  std::string_view description() const override {
    return "sorts a dot's contracting dimension pairs by lhs dimension";
  }
  bool reassociates_floats() const override { return true; }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kDot})) {
      const auto& d = m.attrs(i).dot_dims;
      if (!d || std::is_sorted(d->lhs_contracting.begin(), d->lhs_contracting.end()) ||
          d->lhs_contracting.size() != d->rhs_contracting.size())
        continue;
      std::vector<size_t> order(d->lhs_contracting.size());
      std::iota(order.begin(), order.end(), 0);
      std::sort(order.begin(), order.end(),
                [&](size_t a, size_t b) { return d->lhs_contracting[a] < d->lhs_contracting[b]; });
      ir::DotDims sorted = *d;
      for (size_t k = 0; k < order.size(); ++k) {
        sorted.lhs_contracting[k] = d->lhs_contracting[order[k]];
        sorted.rhs_contracting[k] = d->rhs_contracting[order[k]];
      }
      m.mutable_payload(i).attrs.dot_dims = sorted;
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_dot_dimension_sorter() { return std::make_unique<DotDimensionSorter>(); }

}  // namespace hlsgym::passes
