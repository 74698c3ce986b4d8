// transpose-folding: every case of XLA's transpose_folding_test.cc (openxla/xla
// xla/service/transpose_folding_test.cc at 001918b7024cf5f020051a9d25d2dd57a5896aaa), each
// written as a golden test: HLO in (XLA's C++-built convolutions written as HLO text);
// the dot's operands and contracting dimensions, or no change, out; the interpreter
// agreeing. hlsgym's pass is XLA's as the CPU pipeline configures it: dots by
// IsRowColumnTransposeDotOperand, convolutions never (NeverFoldTranspose).
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using testing::expression;

ir::Module fold(const std::string& module, bool expect_change) {
  return testing::run_golden("transpose-folding", module, expect_change);
}

// The dot `i` as "dot(lhs, rhs) lhs_contracting rhs_contracting", e.g.
// "dot(parameter(0), parameter(1)) 1 1".
std::string dot_of(const ir::Module& m, InstrId i) {
  const auto& d = *m.attrs(i).dot_dims;
  return expression(m, i) + " " + std::to_string(d.lhs_contracting.at(0)) + " " + std::to_string(d.rhs_contracting.at(0));
}
std::string root_dot(const ir::Module& m) { return dot_of(m, m.computation(m.entry()).root); }

TEST(TransposeFoldingXla, FoldDotTranspose) {
  const ir::Module m = fold(
      "HloModule FoldDotTranspose\nENTRY entry_computation {\n x = f32[2,3] parameter(0)\n y = f32[2,3] parameter(1)\n"
      " transpose = f32[3,2] transpose(y), dimensions={1,0}\n"
      " ROOT dot = f32[2,2] dot(x, transpose), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      true);
  EXPECT_EQ(root_dot(m), "dot(parameter(0), parameter(1)) 1 1");
}

TEST(TransposeFoldingXla, DontFoldTransposeOfBatchDimByDefault) {
  fold("HloModule FoldDotTranspose\nENTRY entry_computation {\n x = f32[2,3] parameter(0)\n y = f32[3,2] parameter(1)\n"
       " transpose = f32[2,3] transpose(y), dimensions={1,0}\n"
       " ROOT dot = f32[2] dot(x, transpose), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={1},"
       " rhs_contracting_dims={1}\n}\n",
       false);
}

// XLA folds here with a predicate that always says yes, which its CPU pipeline does not
// use; hlsgym's rule refuses a transpose that moves a batch dimension (listed).
TEST(TransposeFoldingXla, FoldTransposeOfBatchWhenPermitted) {
  EXPECT_FALSE(testing::deliberate_difference("transpose-folding", "FoldTransposeOfBatchWhenPermitted").empty());
  fold("HloModule FoldDotTranspose\nENTRY entry_computation {\n x = f32[5,2,3] parameter(0)\n y = f32[3,5,4] parameter(1)\n"
       " transpose = f32[5,3,4] transpose(y), dimensions={1,0,2}\n"
       " ROOT dot = f32[5,2,4] dot(x, transpose), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2},"
       " rhs_contracting_dims={1}\n}\n",
       false);
}

TEST(TransposeFoldingXla, DontFoldTransposeOfRank1Dot) {
  fold("HloModule FoldDotTranspose\nENTRY entry_computation {\n x = f32[3] parameter(0)\n y = f32[3,2] parameter(1)\n"
       " transpose = f32[2,3] transpose(y), dimensions={1,0}\n"
       " ROOT dot = f32[2] dot(x, transpose), lhs_batch_dims={}, rhs_batch_dims={}, lhs_contracting_dims={0},"
       " rhs_contracting_dims={1}\n}\n",
       false);
}

TEST(TransposeFoldingXla, DontFoldTransposeOfDotWithoutContractingDims) {
  fold("HloModule FoldDotTranspose\nENTRY entry_computation {\n x = f32[3,4] parameter(0)\n y = f32[3,4,6,7] parameter(1)\n"
       " transpose = f32[3,4,7,6] transpose(y), dimensions={0,1,3,2}\n"
       " ROOT dot = f32[3,4,7,6] dot(x, transpose), lhs_batch_dims={0,1}, rhs_batch_dims={0,1}, lhs_contracting_dims={},"
       " rhs_contracting_dims={}\n}\n",
       false);
}

TEST(TransposeFoldingXla, FoldDotTransposeConstant) {
  const ir::Module m = fold(
      "HloModule FoldDotTransposeConstant\nENTRY entry_computation {\n constant = f32[2,1] constant({ { 1 }, { 2 } })\n"
      " transpose = f32[1,2] transpose(constant), dimensions={1,0}\n"
      " constant.1 = f32[3,2] constant({ { 1, 2 }, { 3, 4 }, { 5, 6 } })\n"
      " transpose.1 = f32[2,3] transpose(constant.1), dimensions={1,0}\n"
      " ROOT dot = f32[1,3] dot(transpose, transpose.1), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      true);
  EXPECT_EQ(root_dot(m), "dot(constant, constant) 0 1");
}

// XLA's case tests HloModule::OutlineExpressionFromComputation (outlining three
// instructions into a call), not transpose folding; hlsgym has no such utility (listed).
TEST(TransposeFoldingXla, FuseDotWithConstantOperands) {
  EXPECT_FALSE(testing::deliberate_difference("transpose-folding", "FuseDotWithConstantOperands").empty());
  fold("HloModule fuse_with_constant_operands\nENTRY entry {\n c1 = f32[] constant(1)\n c2 = f32[] constant(2)\n"
       " c3 = f32[] constant(3)\n add = f32[] add(c1, c2)\n sub = f32[] subtract(c2, c3)\n ROOT mul = f32[] multiply(add, sub)\n}\n",
       false);
}

TEST(TransposeFoldingXla, FoldDotTransposeInCall) {
  const ir::Module m = fold(
      "HloModule FoldDotTransposeInCall\n"
      "callee {\n name.0 = f32[2,3] parameter(0)\n name.1 = f32[2,3] parameter(1)\n"
      " transpose.clone = f32[3,2] transpose(name.0), dimensions={1,0}\n"
      " ROOT dot.clone = f32[2,2] dot(name.1, transpose.clone), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n"
      "ENTRY entry_computation {\n y = f32[2,3] parameter(1)\n x = f32[2,3] parameter(0)\n"
      " ROOT call = f32[2,2] call(y, x), to_apply=callee\n}\n",
      true);
  EXPECT_EQ(dot_of(m, m.computation(m.find_computation("callee")).root), "dot(parameter(1), parameter(0)) 1 1");
}

// XLA folds transposes into convolutions by default; its CPU pipeline passes
// NeverFoldTranspose, as hlsgym's pass does (listed): no change.
std::string convolution(const std::string& x, const std::string& y, const std::string& transposed,
                        const std::string& permutation, bool transpose_lhs, const std::string& out) {
  const std::string lhs = transpose_lhs ? "t" : "x", rhs = transpose_lhs ? "y" : "t";
  return "HloModule test_module\nENTRY entry_computation {\n x = f32" + x + " parameter(0)\n y = f32" + y +
         " parameter(1)\n t = f32" + transposed + " transpose(" + (transpose_lhs ? "x" : "y") +
         "), dimensions={" + permutation + "}\n ROOT conv = f32" + out + " convolution(" + lhs + ", " + rhs +
         "), window={size=1x1}, dim_labels=bf01_oi01->bf01\n}\n";
}

TEST(TransposeFoldingXla, FoldConvDimSwapTransposeRhs) {
  EXPECT_FALSE(testing::deliberate_difference("transpose-folding", "FoldConvDimSwapTransposeRhs").empty());
  fold(convolution("[2,3,1,1]", "[3,2,1,1]", "[2,3,1,1]", "1,0,2,3", false, "[2,2,1,1]"), false);
}

TEST(TransposeFoldingXla, FoldConvComplexTransposeRhs) {
  EXPECT_FALSE(testing::deliberate_difference("transpose-folding", "FoldConvComplexTransposeRhs").empty());
  fold(convolution("[2,3,1,1]", "[1,2,1,3]", "[2,3,1,1]", "1,3,0,2", false, "[2,2,1,1]"), false);
}

TEST(TransposeFoldingXla, FoldConvTransposeLhs) {
  EXPECT_FALSE(testing::deliberate_difference("transpose-folding", "FoldConvTransposeLhs").empty());
  fold(convolution("[3,2,1,1]", "[2,3,1,1]", "[2,3,1,1]", "1,0,2,3", true, "[2,2,1,1]"), false);
}

TEST(TransposeFoldingXla, FoldConvComplexTransposeLhs) {
  EXPECT_FALSE(testing::deliberate_difference("transpose-folding", "FoldConvComplexTransposeLhs").empty());
  fold(convolution("[3,2,1,1]", "[2,3,1,1]", "[2,3,1,1]", "1,0,3,2", true, "[2,2,1,1]"), false);
}

TEST(TransposeFoldingXla, FoldBatchDotTranspose) {
  const ir::Module m = fold(
      "HloModule FoldBatchDotTranspose\nENTRY entry_computation {\n x = f32[7,7,2,3] parameter(0)\n y = f32[7,7,2,3] parameter(1)\n"
      " transpose = f32[7,7,3,2] transpose(y), dimensions={0,1,3,2}\n"
      " ROOT dot = f32[7,7,2,2] dot(x, transpose), lhs_contracting_dims={3}, rhs_contracting_dims={2}, lhs_batch_dims={0,1},"
      " rhs_batch_dims={0,1}\n}\n",
      true);
  EXPECT_EQ(root_dot(m), "dot(parameter(0), parameter(1)) 3 3");
}

TEST(TransposeFoldingXla, NoFoldBatchDotTransposeBatch) {
  fold("HloModule NoFoldBatchDotTransposeBatch\nENTRY entry_computation {\n x = f32[7,7,2,3] parameter(0)\n"
       " y = f32[7,7,2,3] parameter(1)\n transpose = f32[7,7,3,2] transpose(y), dimensions={1,0,3,2}\n"
       " ROOT dot = f32[7,7,2,2] dot(x, transpose), lhs_contracting_dims={3}, rhs_contracting_dims={2}, lhs_batch_dims={0,1},"
       " rhs_batch_dims={0,1}\n}\n",
       false);
}

TEST(TransposeFoldingXla, FoldBatchDotTransposeNonContiguousBatch) {
  const ir::Module m = fold(
      "HloModule FoldBatchDotTransposeNonContiguousBatch\nENTRY entry_computation {\n x = f32[7,2,7,3] parameter(0)\n"
      " y = f32[7,2,7,3] parameter(1)\n transpose = f32[7,3,7,2] transpose(y), dimensions={0,3,2,1}\n"
      " ROOT dot = f32[7,7,2,2] dot(x, transpose), lhs_contracting_dims={3}, rhs_contracting_dims={1}, lhs_batch_dims={0,2},"
      " rhs_batch_dims={0,2}\n}\n",
      true);
  EXPECT_EQ(root_dot(m), "dot(parameter(0), parameter(1)) 3 3");
}

TEST(TransposeFoldingXla, NoFoldBatchDotTransposeIdentity) {
  fold("HloModule NoFoldBatchDotTransposeIdentity\nENTRY entry_computation {\n x = f32[7,7,2,3] parameter(0)\n"
       " y = f32[7,7,3,2] parameter(1)\n transpose = f32[7,7,3,2] transpose(y), dimensions={0,1,2,3}\n"
       " ROOT dot = f32[7,7,2,2] dot(x, transpose), lhs_contracting_dims={3}, rhs_contracting_dims={2}, lhs_batch_dims={0,1},"
       " rhs_batch_dims={0,1}\n}\n",
       false);
}

}  // namespace
}  // namespace hlsgym::passes
