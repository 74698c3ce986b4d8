// transpose-folding (XLA TransposeFolding as XLA's CPU pipeline configures it: dot
// operands by IsRowColumnTransposeDotOperand, convolutions never): dot(transpose(x), y)
// reads x directly with its contracting dimension mapped through the permutation, when
// both dot operands have rank 2 or more and the transposed operand is a batched matrix
// whose batch dimensions the (non-identity) transpose leaves in place, with one
// contracting dimension: its one free dimension stays where the dot's result puts it.
// The same for the rhs. Same products, same sums in the same order: exact.
#include <algorithm>

#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

// XLA's IsRowColumnTransposeDotOperand for operand `side` of `dot`, a non-identity
// transpose: rank - 2 batch dimensions, all fixed by the permutation, one contracting.
bool row_column_transpose(const ir::Module& m, InstrId dot, int side) {
  const InstrId t = m.operand(dot, side);
  const std::vector<int64_t>& perm = m.attrs(t).dimensions;
  bool identity = true;
  for (size_t k = 0; k < perm.size(); ++k) identity &= perm[k] == static_cast<int64_t>(k);
  const auto& d = *m.attrs(dot).dot_dims;
  const std::vector<int64_t>& batch = side == 0 ? d.lhs_batch : d.rhs_batch;
  const std::vector<int64_t>& contracting = side == 0 ? d.lhs_contracting : d.rhs_contracting;
  if (identity || static_cast<int64_t>(batch.size()) != m.shape(t).rank() - 2 || contracting.size() != 1) return false;
  return std::all_of(batch.begin(), batch.end(), [&](int64_t b) { return perm[static_cast<size_t>(b)] == b; });
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
      // XLA does not fold into dots with a rank-1 operand.
      if (m.shape(m.operand(i, 0)).rank() < 2 || m.shape(m.operand(i, 1)).rank() < 2) continue;
      ir::DotDims d = *m.attrs(i).dot_dims;
      InstrId ops[] = {m.operand(i, 0), m.operand(i, 1)};
      bool folded = false;
      for (int side = 0; side < 2; ++side) {
        if (m.opcode(ops[side]) != Opcode::kTranspose || !row_column_transpose(m, i, side)) continue;
        std::vector<int64_t>& contracting = side == 0 ? d.lhs_contracting : d.rhs_contracting;
        contracting[0] = m.attrs(ops[side]).dimensions[static_cast<size_t>(contracting[0])];
        ops[side] = m.operand(ops[side], 0);
        folded = true;
      }
      if (!folded) continue;
      ir::Attributes a = m.attrs(i);
      a.dot_dims = d;
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
