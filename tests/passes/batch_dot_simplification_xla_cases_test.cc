// batch-dot-simplification: every case of XLA's batch_dot_simplification_test.cc
// (openxla/xla xla/service/batch_dot_simplification_test.cc at
// 16569562fc04a1d1eadcd6a79f2269c1ccf4c421), each written as a golden test: HLO in; the
// root pattern and the new dot's contracting dimensions, or no change, out; the
// interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {

ir::Module simplify(const std::string& body, bool expect_change) {
  return testing::run_golden("batch-dot-simplification", "HloModule BatchDot\n\nENTRY main {\n " + body + "\n}\n",
                             expect_change);
}

// reshape(dot(reshape(p0), reshape(p1))) with the dot's contracting dimensions.
void expect_degenerate_batch_elided(const ir::Module& m, int64_t lhs_contracting, int64_t rhs_contracting) {
  const ir::InstrId root = m.computation(m.entry()).root;
  EXPECT_EQ(testing::root_expression(m), "reshape(dot(reshape(parameter(0)), reshape(parameter(1))))");
  if (m.opcode(root) != ir::Opcode::kReshape || m.opcode(m.operand(root, 0)) != ir::Opcode::kDot) return;
  const auto& d = *m.attrs(m.operand(root, 0)).dot_dims;
  EXPECT_EQ(d.lhs_contracting, std::vector<int64_t>{lhs_contracting});
  EXPECT_EQ(d.rhs_contracting, std::vector<int64_t>{rhs_contracting});
}

TEST(BatchDotSimplificationXla, ElideSingleDegenerateBatchDotDim_VectorVector) {
  const ir::Module m = simplify("a = f32[1,3] parameter(0)\n b = f32[1,3] parameter(1)\n ROOT dot = f32[1] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={1}, rhs_contracting_dims={1}", true);
  expect_degenerate_batch_elided(m, 0, 0);
}

TEST(BatchDotSimplificationXla, ElideSingleDegenerateBatchDotDim_MatrixVector) {
  const ir::Module m = simplify("a = f32[1,9,3] parameter(0)\n b = f32[1,3] parameter(1)\n ROOT dot = f32[1,9] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}", true);
  expect_degenerate_batch_elided(m, 1, 0);
}

TEST(BatchDotSimplificationXla, ElideSingleDegenerateBatchDotDim_MatrixMatrix) {
  const ir::Module m = simplify("a = f32[1,9,3] parameter(0)\n b = f32[1,3,7] parameter(1)\n ROOT dot = f32[1,9,7] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}", true);
  expect_degenerate_batch_elided(m, 1, 0);
}

TEST(BatchDotSimplificationXla, ElideMultipleDegenerateBatchDotDims_VectorVector) {
  const ir::Module m = simplify("a = f32[9,1,7,1,3] parameter(0)\n b = f32[9,1,7,1,3] parameter(1)\n ROOT dot = f32[9,1,7,1] dot(a, b), lhs_batch_dims={0,1,2,3}, rhs_batch_dims={0,1,2,3}, lhs_contracting_dims={4}, rhs_contracting_dims={4}", true);
  expect_degenerate_batch_elided(m, 2, 2);
}

TEST(BatchDotSimplificationXla, ElideMultipleDegenerateBatchDotDims_VectorMatrix) {
  const ir::Module m = simplify("a = f32[9,1,7,1,3] parameter(0)\n b = f32[9,1,7,1,20,3] parameter(1)\n ROOT dot = f32[9,1,7,1,20] dot(a, b), lhs_batch_dims={0,1,2,3}, rhs_batch_dims={0,1,2,3}, lhs_contracting_dims={4}, rhs_contracting_dims={5}", true);
  expect_degenerate_batch_elided(m, 2, 3);
}

TEST(BatchDotSimplificationXla, ElideMultipleDegenerateBatchDotDims_MatrixMatrix) {
  const ir::Module m = simplify("a = f32[9,1,7,1,19,3] parameter(0)\n b = f32[9,1,7,1,3,20] parameter(1)\n ROOT dot = f32[9,1,7,1,19,20] dot(a, b), lhs_batch_dims={0,1,2,3}, rhs_batch_dims={0,1,2,3}, lhs_contracting_dims={5}, rhs_contracting_dims={4}", true);
  expect_degenerate_batch_elided(m, 3, 2);
}

TEST(BatchDotSimplificationXla, ElideMultipleDegenerateBatchDotDimsNonContracting) {
  simplify("a = f32[1,101] parameter(0)\n b = f32[1,101] parameter(1)\n ROOT dot = f32[1,101,101] dot(a,b), lhs_batch_dims={0}, lhs_contracting_dims={}, rhs_batch_dims={0}, rhs_contracting_dims={}", false);
}

TEST(BatchDotSimplificationXla, ElideMultipleDegenerateBatchDotDimsMultipleContracting) {
  simplify("lhs = f32[1,5,17,10,13] parameter(0)\n rhs = f32[1,9,10,13,6,5] parameter(1)\n ROOT dot = f32[10,1,17,9,6] dot(lhs,rhs), lhs_batch_dims={3,0}, rhs_batch_dims={2,0}, lhs_contracting_dims={1,4}, rhs_contracting_dims={5,3}", false);
}

}  // namespace
}  // namespace hlsgym::passes
