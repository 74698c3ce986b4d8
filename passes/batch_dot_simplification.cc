// batch-dot-simplification (XLA BatchDotSimplification): batch dimensions of size 1 are
// removed from a dot — its operands are reshaped without them, the dot runs without them,
// and the result is reshaped back — so the dot becomes the plain (or lower-batch) product
// the backends handle best. Same products and sums: exact. As in XLA, only dots with one
// contracting dimension (XLA: a dot without one becomes a multiply in algsimp; several
// are unsupported).
#include <algorithm>

#include "passes/expander_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

// `dims` without the positions in `drop`, and every index in `numbers` renumbered.
std::vector<int64_t> without(const std::vector<int64_t>& dims, const std::vector<int64_t>& drop) {
  std::vector<int64_t> out;
  for (size_t k = 0; k < dims.size(); ++k)
    if (std::find(drop.begin(), drop.end(), static_cast<int64_t>(k)) == drop.end()) out.push_back(dims[k]);
  return out;
}

void renumber(std::vector<int64_t>& numbers, const std::vector<int64_t>& drop) {
  for (int64_t& n : numbers) n -= std::count_if(drop.begin(), drop.end(), [&](int64_t d) { return d < n; });
}

class BatchDotSimplification final : public Pass {
 public:
  std::string_view name() const override { return "batch-dot-simplification"; }
  std::string_view description() const override {
    return "removes size-1 batch dimensions from dots (reshape in, dot, reshape out)";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kDot})) {
      if (!m.attrs(i).dot_dims || !m.shape(i).is_static()) continue;
      ir::DotDims d = *m.attrs(i).dot_dims;
      if (d.lhs_contracting.size() != 1) continue;
      const InstrId lhs = m.operand(i, 0), rhs = m.operand(i, 1);
      std::vector<int64_t> drop_l, drop_r, drop_out;
      for (size_t k = 0; k < d.lhs_batch.size(); ++k)
        if (m.shape(lhs).dim(d.lhs_batch[k]) == 1) {
          drop_l.push_back(d.lhs_batch[k]);
          drop_r.push_back(d.rhs_batch[k]);
          drop_out.push_back(static_cast<int64_t>(k));  // batch dims lead the result
        }
      if (drop_l.empty()) continue;
      ir::DotDims nd;
      for (size_t k = 0; k < d.lhs_batch.size(); ++k)
        if (m.shape(lhs).dim(d.lhs_batch[k]) != 1) nd.lhs_batch.push_back(d.lhs_batch[k]), nd.rhs_batch.push_back(d.rhs_batch[k]);
      nd.lhs_contracting = d.lhs_contracting;
      nd.rhs_contracting = d.rhs_contracting;
      renumber(nd.lhs_batch, drop_l), renumber(nd.lhs_contracting, drop_l);
      renumber(nd.rhs_batch, drop_r), renumber(nd.rhs_contracting, drop_r);
      expand::Builder b(m, m.computation_of(i));
      const InstrId l = b.reshape(lhs, without(m.shape(lhs).dims(), drop_l));
      const InstrId r = b.reshape(rhs, without(m.shape(rhs).dims(), drop_r));
      ir::Attributes a = m.attrs(i);
      a.dot_dims = nd;
      const InstrId ops[] = {l, r};
      const ir::Shape s(m.shape(i).element_type(), without(m.shape(i).dims(), drop_out));
      const InstrId dot = m.add_instruction(m.computation_of(i), Opcode::kDot, s, ops, a);
      expand::replace_with(m, i, b.reshape(dot, m.shape(i).dims()));
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_batch_dot_simplification() { return std::make_unique<BatchDotSimplification>(); }

}  // namespace hlsgym::passes
