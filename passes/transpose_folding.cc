// transpose-folding (XLA TransposeFolding, dot operands): dot(transpose(x), y) reads x
// directly with its contracting and batch dimension numbers mapped through the
// permutation, when that keeps the order of the free (non-contracting, non-batch)
// dimensions — they appear in the dot's result in ascending operand order, so their
// relative order must survive. The same for the rhs. Same products, same sums in the
// same order: exact.
#include <algorithm>

#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

bool contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// Maps contracting and batch dims of an operand through `perm` in place when the free
// dims keep their order; false (nothing changed) otherwise.
bool fold(const std::vector<int64_t>& perm, int64_t rank, std::vector<int64_t>& contracting,
          std::vector<int64_t>& batch) {
  int64_t last = -1;
  for (int64_t k = 0; k < rank; ++k) {
    if (contains(contracting, k) || contains(batch, k)) continue;
    if (perm[static_cast<size_t>(k)] < last) return false;
    last = perm[static_cast<size_t>(k)];
  }
  for (int64_t& d : contracting) d = perm[static_cast<size_t>(d)];
  for (int64_t& d : batch) d = perm[static_cast<size_t>(d)];
  return true;
}

class TransposeFolding final : public Pass {
 public:
  std::string_view name() const override { return "transpose-folding"; }
  std::string_view description() const override {
    return "folds transposes of dot operands into the dot's dimension numbers";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kDot})) {
      if (!m.attrs(i).dot_dims) continue;
      ir::DotDims d = *m.attrs(i).dot_dims;
      InstrId lhs = m.operand(i, 0), rhs = m.operand(i, 1);
      bool folded = false;
      if (m.opcode(lhs) == Opcode::kTranspose &&
          fold(m.attrs(lhs).dimensions, m.shape(lhs).rank(), d.lhs_contracting, d.lhs_batch)) {
        lhs = m.operand(lhs, 0);
        folded = true;
      }
      if (m.opcode(rhs) == Opcode::kTranspose &&
          fold(m.attrs(rhs).dimensions, m.shape(rhs).rank(), d.rhs_contracting, d.rhs_batch)) {
        rhs = m.operand(rhs, 0);
        folded = true;
      }
      if (!folded) continue;
      ir::Attributes a = m.attrs(i);
      a.dot_dims = d;
      const InstrId ops[] = {lhs, rhs};
      const InstrId dot = m.add_instruction(m.computation_of(i), Opcode::kDot, m.shape(i), ops, a);
      replace_instruction(m, i, dot);
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_transpose_folding() { return std::make_unique<TransposeFolding>(); }

}  // namespace hlsgym::passes
