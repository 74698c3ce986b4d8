// dot_decomposer: every case of XLA's dot_decomposer_test.cc (openxla/xla
// xla/service/dot_decomposer_test.cc at 16569562fc04a1d1eadcd6a79f2269c1ccf4c421), each
// written as a golden test: HLO in; the root pattern, the canonical dot's contracting
// dimensions and shape, or no change, out; the interpreter agreeing. The first case's
// shapes are an eighth of XLA's in each dimension ([64,63,512] x [512,512] is 10^9
// multiply-adds for the interpreter); the structure is the same.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {

ir::Module decompose(const std::string& entry, bool expect_change) {
  return testing::run_golden("dot_decomposer", "HloModule module\n" + entry, expect_change);
}

// The root is reshape(dot(...)) of the `pattern` given, with the given contracting
// dimensions and dot shape.
void expect_canonical_dot(const ir::Module& m, int64_t lhs_contracting, int64_t rhs_contracting,
                          const std::string& dot_shape,
                          const std::string& pattern = "reshape(dot(reshape, reshape))") {
  ASSERT_EQ(testing::root_expression(m, 2), pattern);
  const ir::InstrId dot = m.operand(m.computation(m.entry()).root, 0);
  const auto& d = m.attrs(dot).dot_dims;
  ASSERT_TRUE(d);
  EXPECT_EQ(d->lhs_contracting, std::vector<int64_t>{lhs_contracting});
  EXPECT_EQ(d->rhs_contracting, std::vector<int64_t>{rhs_contracting});
  EXPECT_EQ(m.shape(dot).to_string(false), dot_shape);
}

// Same rewrite, smaller form (listed): XLA reshapes the rhs [64,64] to [64,64] too.
TEST(DotDecomposerXla, CanonicalizeMultipleNonContractingDims) {
  EXPECT_FALSE(testing::deliberate_difference("dot_decomposer", "CanonicalizeMultipleNonContractingDims").empty());
  const ir::Module m = decompose(
      "ENTRY main {\n p0 = f32[8,7,64]{2,1,0} parameter(0)\n p1 = f32[64,64]{1,0} parameter(1)\n"
      " ROOT dot = f32[8,7,64]{2,1,0} dot(p0, p1), lhs_contracting_dims={2}, rhs_contracting_dims={0}\n}\n",
      true);
  expect_canonical_dot(m, 1, 0, "f32[56,64]", "reshape(dot(reshape, parameter(1)))");
}

// One contracting dimension, leading batch dimensions and no free dimension: canonical.
TEST(DotDecomposerXla, DontCanonicalizeIfNoNoncontractingDims) {
  decompose("ENTRY main {\n p0 = f32[64,4]{1,0} parameter(0)\n p1 = f32[64,4]{1,0} parameter(1)\n"
            " ROOT dot = f32[64]{0} dot(p0, p1), lhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_batch_dims={0},"
            " rhs_contracting_dims={1}\n}\n",
            false);
}

// Same rewrite, smaller form (listed): the lhs [64,4], already [B, K], stays the
// parameter where XLA wraps it in a reshape to its own shape; no size-1 free dimension is
// added for it (dot f32[64,2]).
TEST(DotDecomposerXla, DontAddLhsNonContractingDimIfOne) {
  EXPECT_FALSE(testing::deliberate_difference("dot_decomposer", "DontAddLhsNonContractingDimIfOne").empty());
  const ir::Module m = decompose(
      "ENTRY main {\n p0 = f32[64,4]{1,0} parameter(0)\n p1 = f32[64,4,2,1]{3,2,1,0} parameter(1)\n"
      " ROOT dot = f32[64,2,1]{2,1,0} dot(p0, p1), lhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_batch_dims={0},"
      " rhs_contracting_dims={1}\n}\n",
      true);
  expect_canonical_dot(m, 1, 1, "f32[64,2]", "reshape(dot(parameter(0), reshape))");
}

// Same rewrite, smaller form (listed): the rhs [64,4], already [B, K], stays the
// parameter where XLA wraps it in a reshape to its own shape; no size-1 free dimension is
// added for it (dot f32[64,2]).
TEST(DotDecomposerXla, DontAddRhsNonContractingDimIfOne) {
  EXPECT_FALSE(testing::deliberate_difference("dot_decomposer", "DontAddRhsNonContractingDimIfOne").empty());
  const ir::Module m = decompose(
      "ENTRY main {\n p0 = f32[64,4,2,1]{3,2,1,0} parameter(0)\n p1 = f32[64,4]{1,0} parameter(1)\n"
      " ROOT dot = f32[64,2,1]{2,1,0} dot(p0, p1), lhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_batch_dims={0},"
      " rhs_contracting_dims={1}\n}\n",
      true);
  expect_canonical_dot(m, 2, 1, "f32[64,2]", "reshape(dot(reshape, parameter(1)))");
}

// Not an XLA case: XLA's rule asks nothing of where the one contracting dimension sits,
// so [K, M] x [N, K] is canonical as it is.
TEST(DotDecomposerXla, ContractingDimensionMayComeFirst) {
  decompose("ENTRY main {\n p0 = s32[4,3]{1,0} parameter(0)\n p1 = s32[5,4]{1,0} parameter(1)\n"
            " ROOT dot = s32[3,5]{1,0} dot(p0, p1), lhs_contracting_dims={0}, rhs_contracting_dims={1}\n}\n",
            false);
}

// Not an XLA case: free dimensions of size 1 multiply to 1 and are left out, as XLA's
// rewrite leaves out a free product of 1 ([1,4,1] x [4,2] -> [4] x [4,2] -> [2]).
TEST(DotDecomposerXla, SizeOneFreeDimensionsAreLeftOut) {
  const ir::Module m = decompose(
      "ENTRY main {\n p0 = s32[1,4,1]{2,1,0} parameter(0)\n p1 = s32[4,2]{1,0} parameter(1)\n"
      " ROOT dot = s32[1,1,2]{2,1,0} dot(p0, p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      true);
  expect_canonical_dot(m, 0, 0, "s32[2]", "reshape(dot(reshape, parameter(1)))");
}

}  // namespace
}  // namespace hlsgym::passes
