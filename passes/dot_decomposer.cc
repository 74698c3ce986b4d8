// dot_decomposer (XLA DotDecomposer): every non-canonical dot becomes canonical. A dot
// is canonical, as XLA's Run decides, when it has exactly one contracting dimension, its
// batch dimensions are the leading ones in order on both sides, and each operand has at
// most one free (non-contracting, non-batch) dimension; where that dimension sits, and
// whether there is one at all, does not matter. A non-canonical dot is rewritten by
// transposing and reshaping its operands to [B..., M, K] and [B..., K, N], with a reshape
// of the [B..., M, N] result back to the original shape; a free group whose product is 1
// (none, or only size-1 dimensions) is left out rather than added as a size-1 dimension,
// as XLA does. The contracting dimensions are flattened into one, so a float dot sums its
// terms in another order (the interpreter accumulates in double and rounds once, so
// results can move by a rounding step): reassociates_floats() is true. Integer dots are
// exact.
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
  return d.lhs_contracting.size() == 1 && d.rhs_contracting.size() == 1 &&
         m.shape(m.operand(i, 0)).rank() <= b + 2 && m.shape(m.operand(i, 1)).rank() <= b + 2 &&
         d.lhs_batch == iota_to(b) && d.rhs_batch == iota_to(b);
}

int64_t product(const ir::Shape& s, const std::vector<int64_t>& dims) {
  int64_t p = 1;
  for (int64_t d : dims) p *= s.dim(d);
  return p;
}

// Transposes an operand to (batch, free, contracting) dims, or (batch, contracting, free)
// when !free_first, and reshapes it to the batch sizes followed by the two groups'
// products in that order, the free product left out when it is 1 (kept when 0: a
// zero-sized operand keeps its element count).
InstrId arrange(expand::Builder& b, InstrId x, const std::vector<int64_t>& batch, const std::vector<int64_t>& free,
                const std::vector<int64_t>& contracting, bool free_first) {
  const ir::Shape& s = b.module().shape(x);
  const std::vector<int64_t>& first = free_first ? free : contracting;
  const std::vector<int64_t>& second = free_first ? contracting : free;
  std::vector<int64_t> perm = batch, dims;
  perm.insert(perm.end(), first.begin(), first.end());
  perm.insert(perm.end(), second.begin(), second.end());
  for (int64_t d : batch) dims.push_back(s.dim(d));
  for (const std::vector<int64_t>* group : {&first, &second})
    if (group == &contracting || product(s, *group) != 1) dims.push_back(product(s, *group));
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
                                d.lhs_contracting, true);
      const InstrId r = arrange(b, rhs, d.rhs_batch, free_dims(m.shape(rhs).rank(), d.rhs_batch, d.rhs_contracting),
                                d.rhs_contracting, false);
      const int64_t nb = static_cast<int64_t>(d.lhs_batch.size());
      ir::Attributes a = m.attrs(i);
      const auto ld = m.shape(l).dims(), rd = m.shape(r).dims();  // [B..., (M,) K], [B..., K(, N)]
      a.dot_dims = ir::DotDims{iota_to(nb), iota_to(nb), {static_cast<int64_t>(ld.size()) - 1}, {nb}};
      std::vector<int64_t> out_dims(ld.begin(), ld.end() - 1);  // [B..., (M,) (N)]
      out_dims.insert(out_dims.end(), rd.begin() + nb + 1, rd.end());
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
