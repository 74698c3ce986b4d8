// dot_decomposer (XLA DotDecomposer): every dot becomes canonical — batch dimensions
// first, then one free and one contracting dimension on the lhs ([B..., M, K]) and one
// contracting and one free dimension on the rhs ([B..., K, N]) — by transposing and
// reshaping the operands, with a reshape of the [B..., M, N] result back to the original
// shape. Missing free dimensions become size 1. The contracting dimensions are flattened
// into one, so a float dot sums its terms in another order (the interpreter accumulates
// in double and rounds once, so results can move by a rounding step):
// reassociates_floats() is true. Integer dots are exact.
#include <algorithm>
#include <numeric>

#include "passes/expander_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

bool contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

std::vector<int64_t> iota_to(int64_t n) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

bool is_canonical(const ir::Module& m, InstrId i, const ir::DotDims& d) {
  const int64_t b = static_cast<int64_t>(d.lhs_batch.size());
  return m.shape(m.operand(i, 0)).rank() == b + 2 && m.shape(m.operand(i, 1)).rank() == b + 2 &&
         d.lhs_batch == iota_to(b) && d.rhs_batch == iota_to(b) && d.lhs_contracting == std::vector<int64_t>{b + 1} &&
         d.rhs_contracting == std::vector<int64_t>{b};
}

// Transposes an operand to (batch, first, second) dims and reshapes it to
// [batch sizes..., prod(first), prod(second)].
InstrId arrange(expand::Builder& b, InstrId x, const std::vector<int64_t>& batch, const std::vector<int64_t>& first,
                const std::vector<int64_t>& second) {
  const ir::Shape& s = b.module().shape(x);
  std::vector<int64_t> perm = batch, dims;
  perm.insert(perm.end(), first.begin(), first.end());
  perm.insert(perm.end(), second.begin(), second.end());
  for (int64_t d : batch) dims.push_back(s.dim(d));
  int64_t p1 = 1, p2 = 1;
  for (int64_t d : first) p1 *= s.dim(d);
  for (int64_t d : second) p2 *= s.dim(d);
  dims.push_back(p1), dims.push_back(p2);
  return b.reshape(b.transpose(x, perm), dims);
}

std::vector<int64_t> free_dims(int64_t rank, const std::vector<int64_t>& batch, const std::vector<int64_t>& contracting) {
  std::vector<int64_t> out;
  for (int64_t k = 0; k < rank; ++k)
    if (!contains(batch, k) && !contains(contracting, k)) out.push_back(k);
  return out;
}

class DotDecomposer final : public Pass {
 public:
  std::string_view name() const override { return "dot_decomposer"; }
  std::string_view description() const override {
    return "canonicalizes dots to [batch, M, K] x [batch, K, N] with transposes and reshapes";
  }
  bool reassociates_floats() const override { return true; }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kDot})) {
      const auto& dd = m.attrs(i).dot_dims;
      if (!dd || is_canonical(m, i, *dd) || !m.shape(i).is_static() || dd->lhs_batch.size() != dd->rhs_batch.size())
        continue;
      const ir::DotDims d = *dd;
      const InstrId lhs = m.operand(i, 0), rhs = m.operand(i, 1);
      expand::Builder b(m, m.computation_of(i));
      const InstrId l = arrange(b, lhs, d.lhs_batch, free_dims(m.shape(lhs).rank(), d.lhs_batch, d.lhs_contracting),
                                d.lhs_contracting);
      const InstrId r = arrange(b, rhs, d.rhs_batch, d.rhs_contracting,
                                free_dims(m.shape(rhs).rank(), d.rhs_batch, d.rhs_contracting));
      const int64_t nb = static_cast<int64_t>(d.lhs_batch.size());
      ir::Attributes a = m.attrs(i);
      a.dot_dims = ir::DotDims{iota_to(nb), iota_to(nb), {nb + 1}, {nb}};
      std::vector<int64_t> out_dims(m.shape(l).dims().begin(), m.shape(l).dims().end() - 1);
      out_dims.push_back(m.shape(r).dim(nb + 1));
      const InstrId ops[] = {l, r};
      const InstrId dot = m.add_instruction(m.computation_of(i), Opcode::kDot,
                                            ir::Shape(m.shape(i).element_type(), out_dims), ops, a);
      expand::replace_with(m, i, b.reshape(dot, m.shape(i).dims()));
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_dot_decomposer() { return std::make_unique<DotDecomposer>(); }

}  // namespace hlsgym::passes
