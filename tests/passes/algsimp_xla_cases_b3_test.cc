// algsimp: XLA's algebraic_simplifier_test.cc (openxla/xla at
// 001918b7024cf5f020051a9d25d2dd57a5896aaa), the cases from character 185000 on, part 3
// (DividedByConstantInstructionWithoutLayout .. ReduceAddIsCommutative), in the file's
// order. See algsimp_xla_cases_b1_test.cc for the conventions.
#include <gtest/gtest.h>

#include "tests/passes/algsimp_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {
using testing::root_expression;
using testing::root_attrs;
using testing::simplify;

// p / 20 -> p * 0.05 rounds twice (0.05 is not exact in f32); algsimp turns a float
// divide into a multiply only by a power of two (listed).
TEST(AlgsimpXlaB, DividedByConstantInstructionWithoutLayout) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "DividedByConstantInstructionWithoutLayout").empty());
  simplify("ENTRY e {\n p = f32[] parameter(0)\n c = f32[] constant(20)\n ROOT d = f32[] divide(p, c)\n}\n",
                          false);
}

TEST(AlgsimpXlaB, RecipSqrt) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "RecipSqrt").empty());
  simplify("ENTRY e {\n p0 = f32[] parameter(0)\n p1 = f32[] parameter(1)\n s = f32[] sqrt(p0)\n"
                          " ROOT d = f32[] divide(p1, s)\n}\n",
                          false);
}

TEST(AlgsimpXlaB, RecipRsqrt) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "RecipRsqrt").empty());
  simplify("ENTRY e {\n p0 = f32[] parameter(0)\n p1 = f32[] parameter(1)\n s = f32[] rsqrt(p0)\n"
                          " ROOT d = f32[] divide(p1, s)\n}\n",
                          false);
}

// XLA's f32[168,168,48,48] scaled down; the copy changes only the layout.
TEST(AlgsimpXlaB, CopyReshape) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[4,4,2,3]{3,2,1,0} parameter(0)\n r0 = f32[1,4,4,6]{3,2,1,0} reshape(p0)\n"
      " ROOT c0 = f32[1,4,4,6]{3,0,2,1} copy(r0)\n}\n");
  EXPECT_EQ(root_expression(m), "reshape(parameter(0))");
}

// ---- moving a transpose and reshape of the contraction onto the constant side ----
// The rewrite reorders the terms of each dot sum (the interpreter sums in the order of
// the contracting index), which rounds differently (listed); the negative cases agree.

TEST(AlgsimpXlaB, DotContractingReorder_RL) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "DotContractingReorder_RL").empty());
  simplify(
      "ENTRY e {\n rhs = f32[6,2] constant({{1,2},{3,4},{5,6},{1,1},{1,1},{1,1}})\n t0 = f32[2,2,3] parameter(0)\n"
      " t1 = f32[2,3,2] transpose(t0), dimensions={0,2,1}\n lhs = f32[2,6] reshape(t1)\n"
      " ROOT d = f32[2,2] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      false);
}

TEST(AlgsimpXlaB, DotContractingReorder_RR) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "DotContractingReorder_RR").empty());
  simplify(
      "ENTRY e {\n rhs = f32[2,6] constant({{1,2,3,4,5,6},{1,1,1,1,1,1}})\n t0 = f32[2,2,3] parameter(0)\n"
      " t1 = f32[2,3,2] transpose(t0), dimensions={0,2,1}\n lhs = f32[2,6] reshape(t1)\n"
      " ROOT d = f32[2,2] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={1}\n}\n",
      false);
}

TEST(AlgsimpXlaB, DotContractingReorder_LR) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "DotContractingReorder_LR").empty());
  simplify(
      "ENTRY e {\n rhs = f32[2,6] constant({{1,2,3,4,5,6},{1,1,1,1,1,1}})\n t0 = f32[2,3,2] parameter(0)\n"
      " t1 = f32[3,2,2] transpose(t0), dimensions={1,0,2}\n lhs = f32[6,2] reshape(t1)\n"
      " ROOT d = f32[2,2] dot(lhs, rhs), lhs_contracting_dims={0}, rhs_contracting_dims={1}\n}\n",
      false);
}

TEST(AlgsimpXlaB, DotContractingReorder_LR2) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "DotContractingReorder_LR2").empty());
  simplify(
      "ENTRY e {\n rhs = f32[8,2] constant({{1,1},{2,2},{3,3},{4,4},{5,5},{6,6},{7,7},{8,8}})\n"
      " t0 = f32[2,2,2,2] parameter(0)\n t1 = f32[2,2,2,2] transpose(t0), dimensions={0,2,3,1}\n"
      " lhs = f32[2,8] reshape(t1)\n"
      " ROOT d = f32[2,2] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      false);
}

TEST(AlgsimpXlaB, DotContractingReorder_MM) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "DotContractingReorder_MM").empty());
  simplify(
      "ENTRY e {\n rhs = f32[2,6,2] constant({{{1,1},{2,2},{3,3},{4,4},{5,5},{6,6}},"
      "{{1,1},{2,2},{3,3},{4,4},{5,5},{6,6}}})\n"
      " t0 = f32[2,2,3,2] parameter(0)\n t1 = f32[2,3,2,2] transpose(t0), dimensions={0,2,1,3}\n"
      " lhs = f32[2,6,2] reshape(t1)\n"
      " ROOT d = f32[2,2,2] dot(lhs, rhs), lhs_batch_dims={0}, lhs_contracting_dims={1},"
      " rhs_batch_dims={0}, rhs_contracting_dims={1}\n}\n",
      false);
}

TEST(AlgsimpXlaB, DotContractingReorder_NegTranspose) {
  simplify(
      "ENTRY e {\n rhs = f32[12,2] constant({{1,1},{2,2},{3,3},{4,4},{5,5},{6,6},{1,1},{2,2},{3,3},{4,4},{5,5},{6,6}})\n"
      " t0 = f32[3,4,2] parameter(0)\n t1 = f32[2,3,4] transpose(t0), dimensions={2,0,1}\n"
      " lhs = f32[2,12] reshape(t1)\n"
      " ROOT d = f32[2,2] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      false);
}

TEST(AlgsimpXlaB, DotContractingReorder_NegReshape) {
  simplify(
      "ENTRY e {\n rhs = f32[8,2] constant({{1,1},{2,2},{3,3},{4,4},{1,1},{2,2},{3,3},{4,4}})\n"
      " t0 = f32[2,4,3] parameter(0)\n t1 = f32[2,3,4] transpose(t0), dimensions={0,2,1}\n"
      " lhs = f32[3,8] reshape(t1)\n"
      " ROOT d = f32[3,2] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      false);
}

TEST(AlgsimpXlaB, DotContractingReorder_NegConstant) {
  simplify(
      "ENTRY e {\n t0 = f32[2,3,4] parameter(0)\n t1 = f32[2,4,3] transpose(t0), dimensions={0,2,1}\n"
      " lhs = f32[2,12] reshape(t1)\n rhs = f32[12,2] parameter(1)\n"
      " ROOT d = f32[2,2] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      false);
}

TEST(AlgsimpXlaB, DotContractingReorder_NegLayout) {
  simplify(
      "ENTRY e {\n rhs = f32[6,2] constant({{1,2},{3,4},{5,6},{1,1},{1,1},{1,1}})\n t0 = f32[2,2,3] parameter(0)\n"
      " t1 = f32[2,3,2] transpose(t0), dimensions={0,2,1}\n lhs = f32[2,6] reshape(t1)\n"
      " ROOT d = f32[2,2] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      false);
}

TEST(AlgsimpXlaB, DotContractingReorder_SizeOneDimsNoChange) {
  simplify(
      "ENTRY e {\n p = f32[1,2,5,3] parameter(0)\n t = f32[1,5,2,3] transpose(p), dimensions={0,2,1,3}\n"
      " r = f32[5,6] reshape(t)\n"
      " c = f32[6,4] constant({{1,2,3,4},{1,2,3,4},{1,2,3,4},{1,2,3,4},{1,2,3,4},{1,2,3,4}})\n"
      " ROOT d = f32[5,4] dot(r, c), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      false);
}

TEST(AlgsimpXlaB, DotContractingReorder_SizeOneDims) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "DotContractingReorder_SizeOneDims").empty());
  simplify(
      "ENTRY e {\n p = f32[1,2,3,5] parameter(0)\n t = f32[1,3,2,5] transpose(p), dimensions={0,2,1,3}\n"
      " r = f32[6,5] reshape(t)\n"
      " c = f32[6,4] constant({{1,2,3,4},{1,2,3,4},{1,2,3,4},{1,2,3,4},{1,2,3,4},{1,2,3,4}})\n"
      " ROOT d = f32[5,4] dot(r, c), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n}\n",
      false);
}

TEST(AlgsimpXlaB, DotContractingReorder_NoChangeInContractingDimsOrder) {
  simplify(
      "ENTRY e {\n p = f32[2,5,1,3] parameter(0)\n t = f32[1,5,2,3] transpose(p), dimensions={2,1,0,3}\n"
      " r = f32[5,6] reshape(t)\n"
      " c = f32[6,4] constant({{1,2,3,4},{1,2,3,4},{1,2,3,4},{1,2,3,4},{1,2,3,4},{1,2,3,4}})\n"
      " ROOT d = f32[5,4] dot(r, c), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      false);
}

// ---- compares with a known answer ----

TEST(AlgsimpXlaB, CompareIota) {
  const ir::Module m = simplify(
      "ENTRY e {\n z = s32[] constant(0)\n i = s32[128] iota(), iota_dimension=0\n"
      " b = s32[128] broadcast(z), dimensions={}\n ROOT c = pred[128] compare(i, b), direction=LT\n}\n");
  EXPECT_EQ(root_expression(m), "broadcast(constant(false))");
}

std::string compare_u32(const std::string& lhs, const std::string& rhs, const std::string& dir) {
  return "ENTRY e {\n zero = u32[] constant(0)\n param = u32[] parameter(0)\n ROOT c = pred[] compare(" + lhs + ", " +
         rhs + "), direction=" + dir + "\n}\n";
}

TEST(AlgsimpXlaB, CompareLtZero) {
  EXPECT_EQ(root_expression(simplify(compare_u32("param", "zero", "LT"))), "constant(false)");
}

TEST(AlgsimpXlaB, CompareLeZero) {
  EXPECT_EQ(root_expression(simplify(compare_u32("param", "zero", "LE"), false)),
            "compare(parameter(0), constant(0))");
}

TEST(AlgsimpXlaB, CompareGeZero) {
  EXPECT_EQ(root_expression(simplify(compare_u32("param", "zero", "GE"))), "constant(true)");
}

// XLA's case only parses the module; algsimp leaves it as it is.
TEST(AlgsimpXlaB, CompareGtZero) {
  EXPECT_EQ(root_expression(simplify(compare_u32("param", "zero", "GT"), false)),
            "compare(parameter(0), constant(0))");
}

TEST(AlgsimpXlaB, CompareZeroGt) {
  EXPECT_EQ(root_expression(simplify(compare_u32("zero", "param", "GT"))), "constant(false)");
}

TEST(AlgsimpXlaB, CompareZeroGe) {
  EXPECT_EQ(root_expression(simplify(compare_u32("zero", "param", "GE"), false)),
            "compare(constant(0), parameter(0))");
}

TEST(AlgsimpXlaB, CompareZeroLe) {
  EXPECT_EQ(root_expression(simplify(compare_u32("zero", "param", "LE"))), "constant(true)");
}

TEST(AlgsimpXlaB, CompareZeroLt) {
  EXPECT_EQ(root_expression(simplify(compare_u32("zero", "param", "LT"), false)),
            "compare(constant(0), parameter(0))");
}

TEST(AlgsimpXlaB, CompareSame) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = s32[123] parameter(0)\n ROOT c = pred[123] compare(p, p), direction=GE\n}\n");
  EXPECT_EQ(root_expression(m), "broadcast(constant(true))");
}

TEST(AlgsimpXlaB, CompareSimplified) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = s32[] parameter(0)\n c1 = s32[] constant(10)\n c2 = s32[] constant(100)\n"
      " a = pred[] compare(p, c1), direction=LT\n b = pred[] compare(p, c2), direction=LT\n"
      " ROOT o = pred[] and(a, b)\n}\n");
  EXPECT_EQ(root_expression(m), "compare(parameter(0), constant(10))");
  EXPECT_EQ(root_attrs(m).direction, ir::ComparisonDirection::kLt);
}

TEST(AlgsimpXlaB, CompareSimplifiedReversed) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = s32[] parameter(0)\n c1 = s32[] constant(10)\n c2 = s32[] constant(100)\n"
      " a = pred[] compare(p, c1), direction=LT\n b = pred[] compare(c2, p), direction=GT\n"
      " ROOT o = pred[] and(a, b)\n}\n");
  EXPECT_EQ(root_expression(m), "compare(parameter(0), constant(10))");
  EXPECT_EQ(root_attrs(m).direction, ir::ComparisonDirection::kLt);
}

// An s32 compare with type=UNSIGNED orders negative values last: and(p < 10, p < 100)
// is not p < 10 for p = -1, so it stays.
// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXlaB, CompareSimplifiedKeepsAnUnsignedOrderOfSignedValues) {
  simplify(
      "ENTRY e {\n p = s32[] parameter(0)\n c1 = s32[] constant(-10)\n c2 = s32[] constant(100)\n"
      " a = pred[] compare(p, c1), direction=LT, type=UNSIGNED\n b = pred[] compare(p, c2), direction=LT\n"
      " ROOT o = pred[] and(a, b)\n}\n",
      false);
}

// A float outer product adds each product to +0.0 in the interpreter, so a -0 product
// becomes +0 where multiply keeps -0 (listed, as IteratorInvalidation).
TEST(AlgsimpXlaB, CanDisableDotToMultiplyRewrite) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "CanDisableDotToMultiplyRewrite").empty());
  simplify(
      "ENTRY e {\n p1 = f32[64] parameter(0)\n p2 = f32[64] parameter(1)\n"
      " ROOT d = f32[64,64] dot(p1, p2), lhs_contracting_dims={}, rhs_contracting_dims={}\n}\n",
      false);
}

// ---- remainder ----
// XLA's s32[5,1000] scaled to s32[5,10].

TEST(AlgsimpXlaB, RemainderOfIota) {
  const ir::Module m = simplify(
      "ENTRY e {\n i = s32[5,10] iota(), iota_dimension=0\n five = s32[] constant(5)\n"
      " b = s32[5,10] broadcast(five), dimensions={}\n ROOT r = s32[5,10] remainder(i, b)\n}\n");
  EXPECT_EQ(root_expression(m), "iota");
}

// XLA's case runs algsimp once; the fixed point then also drops remainder(iota, 5).
TEST(AlgsimpXlaB, RemainderOfNPlusIota) {
  const ir::Module m = testing::run_golden(
      "algsimp",
      "HloModule m\n\nENTRY e {\n i = s32[5,10] iota(), iota_dimension=0\n five = s32[] constant(5)\n"
      " b = s32[5,10] broadcast(five), dimensions={}\n s = s32[5,10] add(i, b)\n ROOT r = s32[5,10] remainder(s, b)\n}\n",
      true);
  EXPECT_EQ(root_expression(m), "remainder(iota, broadcast(constant(5)))");
}

TEST(AlgsimpXlaB, RemainderOfNPlusIotaOverflow) {
  simplify(
      "ENTRY e {\n i = s8[126] iota(), iota_dimension=0\n five = s8[] constant(5)\n"
      " b = s8[126] broadcast(five), dimensions={}\n s = s8[126] add(i, b)\n ROOT r = s8[126] remainder(s, b)\n}\n",
      false);
}

TEST(AlgsimpXlaB, RepeatedRemainder) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = s32[1000] parameter(0)\n q = s32[1000] parameter(1)\n r = s32[1000] remainder(p, q)\n"
      " ROOT rr = s32[1000] remainder(r, q)\n}\n");
  EXPECT_EQ(root_expression(m), "remainder(parameter(0), parameter(1))");
}

// XLA's f32[128,9,9,1024] scaled to f32[2,9,9,3]; hlsgym has no layouts to keep.
TEST(AlgsimpXlaB, SlicePadLayout) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[2,9,9,3] parameter(0)\n p1 = f32[] parameter(1)\n"
      " s = f32[2,9,9,3] slice(p0), slice={[0:2], [0:9], [0:9], [0:3]}\n"
      " ROOT pad = f32[2,8,9,3] pad(s, p1), padding=0_0x-1_0x0_0x0_0\n}\n");
  EXPECT_EQ(root_expression(m), "slice(parameter(0))");
}

// ---- min/max/clamp ----

TEST(AlgsimpXlaB, MinOfMaxToClamp) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[4] parameter(0)\n c0 = f32[] constant(3)\n c1 = f32[] constant(4)\n"
      " b0 = f32[4] broadcast(c0), dimensions={}\n b1 = f32[4] broadcast(c1), dimensions={}\n"
      " m0 = f32[4] maximum(b0, p0)\n ROOT m1 = f32[4] minimum(m0, b1)\n}\n");
  EXPECT_EQ(root_expression(m), "clamp(broadcast(constant(3)), parameter(0), broadcast(constant(4)))");
}

TEST(AlgsimpXlaB, MaxOfMinToClamp) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[4] parameter(0)\n c0 = f32[] constant(3)\n c1 = f32[] constant(4)\n"
      " b0 = f32[4] broadcast(c0), dimensions={}\n b1 = f32[4] broadcast(c1), dimensions={}\n"
      " m0 = f32[4] minimum(p0, b1)\n ROOT m1 = f32[4] maximum(b0, m0)\n}\n");
  EXPECT_EQ(root_expression(m), "clamp(broadcast(constant(3)), parameter(0), broadcast(constant(4)))");
}

TEST(AlgsimpXlaB, ClampOfClamp) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[] parameter(0)\n p1 = f32[] parameter(1)\n p2 = f32[] parameter(2)\n"
      " c0 = f32[] clamp(p0, p1, p2)\n ROOT c1 = f32[] clamp(p0, c0, p2)\n}\n");
  EXPECT_EQ(root_expression(m), "clamp(parameter(0), parameter(1), parameter(2))");
}

// max(lo, clamp(lo, x, hi)) is hi, not lo, when hi < lo: XLA's rewrite assumes lo <= hi,
// which parameters do not promise (listed).
TEST(AlgsimpXlaB, MaxOfClamp) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "MaxOfClamp").empty());
  simplify(
      "ENTRY e {\n p0 = f32[] parameter(0)\n p1 = f32[] parameter(1)\n p2 = f32[] parameter(2)\n"
      " c0 = f32[] clamp(p0, p1, p2)\n ROOT m0 = f32[] maximum(p0, c0)\n}\n",
      false);
}

// ---- slice of concatenate ----

TEST(AlgsimpXlaB, SliceOfConcat) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[100,50] parameter(0)\n p1 = f32[50,50] parameter(1)\n"
      " c0 = f32[150,50] concatenate(p0, p1), dimensions={0}\n ROOT s0 = f32[50,50] slice(c0), slice={[100:150], [0:50]}\n}\n");
  EXPECT_EQ(root_expression(m), "parameter(1)");
}

TEST(AlgsimpXlaB, SliceOfMultipleConcatOperands) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[50,50] parameter(0)\n p1 = f32[50,50] parameter(1)\n p2 = f32[50,50] parameter(2)\n"
      " p3 = f32[50,50] parameter(3)\n c0 = f32[200,50] concatenate(p0, p1, p2, p3), dimensions={0}\n"
      " ROOT s0 = f32[98,50] slice(c0), slice={[51:149], [0:50]}\n}\n");
  EXPECT_EQ(root_expression(m), "slice(concatenate(parameter(1), parameter(2)))");
  EXPECT_EQ(root_attrs(m).slice[0].start, 1);
  EXPECT_EQ(root_attrs(m).slice[0].limit, 99);
  EXPECT_EQ(root_attrs(m).slice[1].start, 0);
  EXPECT_EQ(root_attrs(m).slice[1].limit, 50);
}

// sqrt(p * p) is inf where p * p overflows (p = 1e20 in f32), not |p| (listed).
TEST(AlgsimpXlaB, SqrtOfSelfMultiply) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "SqrtOfSelfMultiply").empty());
  simplify(
      "ENTRY e {\n p0 = f32[32] parameter(0)\n m0 = f32[32] multiply(p0, p0)\n ROOT s0 = f32[32] sqrt(m0)\n}\n", false);
}

// A float reduce over a batch dot's outputs rounds each dot sum first; folding it into the
// dot's contraction rounds once (listed).
TEST(AlgsimpXlaB, ReduceOfBatchDotToContractingDimension) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "ReduceOfBatchDotToContractingDimension").empty());
  simplify(
      "a {\n p0 = f32[] parameter(0)\n p1 = f32[] parameter(1)\n ROOT r = f32[] add(p0, p1)\n}\n"
      "ENTRY e {\n p0 = f32[4,8,5,6] parameter(0)\n p1 = f32[8,4,6,7] parameter(1)\n"
      " d = f32[4,8,5,7] dot(p0, p1), lhs_batch_dims={0,1}, rhs_batch_dims={1,0}, rhs_contracting_dims={2},"
      " lhs_contracting_dims={3}\n c = f32[] constant(0)\n"
      " ROOT r = f32[8,5,7] reduce(d, c), dimensions={0}, to_apply=a\n}\n",
      false);
}

// As TwoReducesToOne: a float sum over two reduces merged into one adds in another
// order (listed).
TEST(AlgsimpXlaB, ReduceAddIsCommutative) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "ReduceAddIsCommutative").empty());
  simplify(
      "fn1 {\n p0 = f32[] parameter(0)\n p1 = f32[] parameter(1)\n ROOT r = f32[] add(p0, p1)\n}\n"
      "fn2 {\n p0 = f32[] parameter(0)\n p1 = f32[] parameter(1)\n ROOT r = f32[] add(p1, p0)\n}\n"
      "ENTRY e {\n p0 = f32[10,10,10] parameter(0)\n zero = f32[] constant(0)\n"
      " r1 = f32[10,10] reduce(p0, zero), dimensions={0}, to_apply=fn1\n"
      " ROOT r2 = f32[10] reduce(r1, zero), dimensions={0}, to_apply=fn2\n}\n",
      false);
}

}  // namespace
}  // namespace hlsgym::passes
