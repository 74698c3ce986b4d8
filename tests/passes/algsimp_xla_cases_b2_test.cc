// algsimp: XLA's algebraic_simplifier_test.cc (openxla/xla at
// 001918b7024cf5f020051a9d25d2dd57a5896aaa), the cases from character 185000 on, part 2
// (SliceOfPadLow .. ZeroSizedReshapeWithoutLayout), in the file's order. See
// algsimp_xla_cases_b1_test.cc for the conventions; XLA's big shapes are scaled down where
// the rule does not depend on them, so the interpreter can compare values.
#include <gtest/gtest.h>

#include "tests/passes/algsimp_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {
using testing::root_expression;
using testing::root_attrs;
using testing::simplify;

// ---- slice of pad: f32[3,4] padded 3_2x1_5 to f32[8,10] ----

std::string slice_of_pad(const std::string& slice, const std::string& out = "1,1") {
  return "ENTRY e {\n p = f32[3,4] parameter(0)\n c = f32[] constant(0)\n"
         " pad = f32[8,10] pad(p, c), padding=3_2x1_5\n ROOT s = f32[" + out + "] slice(pad), slice={" + slice +
         "}\n}\n";
}

TEST(AlgsimpXlaB, SliceOfPadLow) {
  EXPECT_EQ(root_expression(simplify(slice_of_pad("[2:3], [0:1]"))), "broadcast(constant(0))");
}

TEST(AlgsimpXlaB, SliceOfPadHigh) {
  EXPECT_EQ(root_expression(simplify(slice_of_pad("[6:7], [9:10]"))), "broadcast(constant(0))");
}

TEST(AlgsimpXlaB, SliceOfPadMidNonScalar) {
  EXPECT_EQ(root_expression(simplify(slice_of_pad("[5:6], [4:5]"))), "slice(parameter(0))");
}

TEST(AlgsimpXlaB, SliceOfPad) {
  const ir::Module m = simplify(slice_of_pad("[4:6], [2:5]", "2,3"));
  EXPECT_EQ(root_expression(m), "slice(parameter(0))");
  EXPECT_EQ(root_attrs(m).slice[0].start, 1);
  EXPECT_EQ(root_attrs(m).slice[1].start, 1);
}

TEST(AlgsimpXlaB, SliceOfPadMidScalarConstant) {
  EXPECT_EQ(root_expression(simplify(slice_of_pad("[5:6], [9:10]"))), "broadcast(constant(0))");
}

TEST(AlgsimpXlaB, SliceOfPadMidScalar) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = f32[1,1] parameter(0)\n c = f32[] constant(0)\n"
      " pad = f32[8,10] pad(p, c), padding=3_4x4_5\n ROOT s = f32[1,1] slice(pad), slice={[3:4], [4:5]}\n}\n");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

TEST(AlgsimpXlaB, SliceOfPadSomeDimsInPadding) {
  const ir::Module m = simplify(
      "ENTRY e {\n v = f32[] constant(4)\n c = f32[] constant(-7)\n r1 = f32[1,1,1] reshape(v)\n"
      " pad = f32[3,3,3] pad(r1, c), padding=0_2x0_2x2_0\n"
      " s = f32[1,1,1] slice(pad), slice={[0:1], [0:1], [0:1]}\n ROOT r2 = f32[1] reshape(s)\n}\n");
  EXPECT_EQ(root_expression(m), "broadcast(constant(-7))");
}

// ---- slice of concatenate ----

TEST(AlgsimpXlaB, SliceOfConcatScalarInput) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[2] parameter(0)\n p1 = f32[1] parameter(1)\n p2 = f32[3] parameter(2)\n"
      " c = f32[6] concatenate(p0, p1, p2), dimensions={0}\n ROOT s = f32[1] slice(c), slice={[2:3]}\n}\n");
  EXPECT_EQ(root_expression(m), "parameter(1)");
}

TEST(AlgsimpXlaB, SliceOfConcatNonScalarInput) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[2] parameter(0)\n p1 = f32[1] parameter(1)\n p2 = f32[3] parameter(2)\n"
      " c = f32[6] concatenate(p0, p1, p2), dimensions={0}\n ROOT s = f32[1] slice(c), slice={[4:5]}\n}\n");
  EXPECT_EQ(root_expression(m), "slice(parameter(2))");
  EXPECT_EQ(root_attrs(m).slice[0].start, 1);
  EXPECT_EQ(root_attrs(m).slice[0].limit, 2);
}

TEST(AlgsimpXlaB, ConcatToBroadcast) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = f32[2,1,4] parameter(0)\n"
      " ROOT c = f32[2,6,4] concatenate(p, p, p, p, p, p), dimensions={1}\n}\n");
  EXPECT_EQ(root_expression(m), "broadcast(reshape(parameter(0)))");
}

TEST(AlgsimpXlaB, NegateNegate) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = f32[2] parameter(0)\n n0 = f32[2] negate(p)\n ROOT n1 = f32[2] negate(n0)\n}\n");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

TEST(AlgsimpXlaB, NotNot) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = pred[2] parameter(0)\n n0 = pred[2] not(p)\n ROOT n1 = pred[2] not(n0)\n}\n");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

// ---- batch dots of transposes ----

TEST(AlgsimpXlaB, BatchDotTransposeOperands) {
  const ir::Module m = simplify(
      "ENTRY e {\n lhs = f32[2,3,4,5] parameter(0)\n rhs = f32[2,3,6,4] parameter(1)\n"
      " lt = f32[2,3,5,4] transpose(lhs), dimensions={0,1,3,2}\n"
      " rt = f32[2,3,4,6] transpose(rhs), dimensions={0,1,3,2}\n"
      " ROOT d = f32[2,3,5,6] dot(lt, rt), lhs_batch_dims={0,1}, rhs_batch_dims={0,1},"
      " lhs_contracting_dims={3}, rhs_contracting_dims={2}\n}\n");
  EXPECT_EQ(root_expression(m), "transpose(dot(parameter(1), parameter(0)))");
}

TEST(AlgsimpXlaB, BatchDotTransposeBatchDims) {
  const ir::Module m = simplify(
      "ENTRY e {\n lhs = f32[2,3,5,4] parameter(0)\n rhs = f32[2,3,4,6] parameter(1)\n"
      " lt = f32[3,2,5,4] transpose(lhs), dimensions={1,0,2,3}\n"
      " rt = f32[3,2,4,6] transpose(rhs), dimensions={1,0,2,3}\n"
      " ROOT d = f32[3,2,5,6] dot(lt, rt), lhs_batch_dims={0,1}, rhs_batch_dims={0,1},"
      " lhs_contracting_dims={3}, rhs_contracting_dims={2}\n}\n");
  EXPECT_EQ(root_expression(m), "transpose(dot(parameter(0), parameter(1)))");
}

TEST(AlgsimpXlaB, BatchDotTransposeBatchDimsAndOperands) {
  const ir::Module m = simplify(
      "ENTRY e {\n lhs = f32[2,3,4,5] parameter(0)\n rhs = f32[2,3,6,4] parameter(1)\n"
      " lt = f32[3,2,5,4] transpose(lhs), dimensions={1,0,3,2}\n"
      " rt = f32[3,2,4,6] transpose(rhs), dimensions={1,0,3,2}\n"
      " ROOT d = f32[3,2,5,6] dot(lt, rt), lhs_batch_dims={0,1}, rhs_batch_dims={0,1},"
      " lhs_contracting_dims={3}, rhs_contracting_dims={2}\n}\n");
  EXPECT_EQ(root_expression(m), "transpose(dot(parameter(1), parameter(0)))");
}

// PadReduceWindowEffectiveBroadcastTest.DoIt: a window that sees the one real element
// and zeros; XLA makes it a broadcast of that element. The interpreter adds it to +0.0,
// so a -0 element becomes +0 (listed); hlsgym keeps the reduce-window. XLA's 128 and
// 2048 scaled to 2 and 3.
TEST(AlgsimpXlaB, PadReduceWindowEffectiveBroadcast) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "PadReduceWindowEffectiveBroadcast").empty());
  const char* add = "add {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] add(x, y)\n}\n";
  simplify(std::string(add) +
                              "ENTRY e {\n p = f32[2,1,1,3] parameter(0)\n z = f32[] constant(0)\n"
                              " pad = f32[2,13,13,3] pad(p, z), padding=0_0x6_6x6_6x0_0\n"
                              " ROOT r = f32[2,7,7,3] reduce-window(pad, z), window={size=1x7x7x1}, to_apply=add\n}\n",
                          false);
}

// ---- dot strength reduction: off in XLA's CPU pipeline (and in hlsgym) ----

TEST(AlgsimpXlaB, BatchDotStrengthReduction) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "BatchDotStrengthReduction").empty());
  simplify(
      "ENTRY e {\n a = f32[2,3,5,2,1] parameter(0)\n b = f32[2,3,5,1] parameter(1)\n"
      " ROOT d = f32[2,3,5,2] dot(a, b), lhs_batch_dims={0,1,2}, rhs_batch_dims={0,1,2},"
      " lhs_contracting_dims={4}, rhs_contracting_dims={3}\n}\n",
      false);
}

TEST(AlgsimpXlaB, DotStrengthReduction) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "DotStrengthReduction").empty());
  simplify(
      "ENTRY e {\n a = f32[1,2] parameter(0)\n b = f32[2,2] parameter(1)\n"
      " ROOT d = f32[1,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      false);
}

// ---- dot of a concatenate: a sum split into several dots ----

// Each partial dot rounds its sum to f32 before the adds: not the one rounding of the
// whole dot (listed).
TEST(AlgsimpXlaB, DotOfConcatSimplificationTest_ConstantLHS) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "DotOfConcatSimplificationTest_ConstantLHS").empty());
  simplify(
      "ENTRY e {\n lhs = f32[3,9] constant({{10,20,30,40,50,60,70,80,90},{1,2,3,4,5,6,7,8,9},"
      "{9,8,7,6,5,4,3,2,1}})\n r0 = f32[3,3] parameter(0)\n r1 = f32[3,3] parameter(1)\n"
      " r2 = f32[3,3] parameter(2)\n rhs = f32[9,3] concatenate(r0, r1, r2), dimensions={0}\n"
      " ROOT d = f32[3,3] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      false);
}

TEST(AlgsimpXlaB, DotOfConcatSimplificationTest_ConstantRHS) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "DotOfConcatSimplificationTest_ConstantRHS").empty());
  simplify(
      "ENTRY e {\n l0 = f32[3,2] parameter(0)\n l1 = f32[3,2] parameter(1)\n l2 = f32[3,2] parameter(2)\n"
      " l3 = f32[3,3] parameter(3)\n lhs = f32[3,9] concatenate(l0, l1, l2, l3), dimensions={1}\n"
      " rhs = f32[9,3] constant({{1,2,3},{4,5,6},{7,8,9},{1,2,3},{4,5,6},{7,8,9},{1,2,3},{4,5,6},{7,8,9}})\n"
      " ROOT d = f32[3,3] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      false);
}

TEST(AlgsimpXlaB, ConcatIntoScalarDot) {
  simplify(
      "ENTRY e {\n p0 = f32[4] parameter(0)\n p1 = f32[1] parameter(1)\n"
      " c = f32[5] constant({-0.38, 0.07, -0.62, 0.66, 0.20})\n"
      " cat = f32[5] concatenate(p0, p1), dimensions={0}\n"
      " ROOT d = f32[] dot(cat, c), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n}\n",
      false);
}

TEST(AlgsimpXlaB, UnnestConcatenate) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[2,10] parameter(0)\n p1 = f32[3,10] parameter(1)\n p2 = f32[4,10] parameter(2)\n"
      " c0 = f32[5,10] concatenate(p0, p1), dimensions={0}\n"
      " ROOT c1 = f32[9,10] concatenate(c0, p2), dimensions={0}\n}\n");
  EXPECT_EQ(root_expression(m), "concatenate(parameter(0), parameter(1), parameter(2))");
}

// ---- dynamic-update-slice ----

TEST(AlgsimpXlaB, DynamicUpdateSliceZeroUpdate) {
  const ir::Module m = simplify(
      "ENTRY e {\n x = f32[10] parameter(0)\n u = f32[0] parameter(1)\n i = s32[] constant(0)\n"
      " ROOT d = f32[10] dynamic-update-slice(x, u, i)\n}\n");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

// XLA's f32[1800,12,512] scaled to f32[18,12,5].
TEST(AlgsimpXlaB, DynamicUpdateSliceOfBroadcastToPad) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[18,12,5] parameter(0)\n c = f32[] constant(0)\n"
      " b = f32[18,12,5] broadcast(c), dimensions={}\n p1 = f32[1,12,5] parameter(1)\n"
      " z = s32[] constant(0)\n d = f32[18,12,5] dynamic-update-slice(b, p1, z, z, z)\n"
      " ROOT a = f32[18,12,5] add(p0, d)\n}\n");
  EXPECT_EQ(root_expression(m), "add(parameter(0), pad(parameter(1), constant(0)))");
}

TEST(AlgsimpXlaB, DynamicUpdateSliceTrivialIndices) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[18,12,5] parameter(0)\n p1 = f32[1,12,5] parameter(1)\n i = u32[] parameter(2)\n"
      " ROOT d = f32[18,12,5] dynamic-update-slice(p0, p1, i, i, i)\n}\n");
  EXPECT_EQ(root_expression(m),
            "dynamic-update-slice(parameter(0), parameter(1), parameter(2), constant(0), constant(0))");
}

// add(x, dus(broadcast(0), u)) -> dus(x, add(dynamic-slice(x), u)): outside the update x
// gets +0 added, which turns -0 into +0; the rewrite keeps -0 (listed).
TEST(AlgsimpXlaB, AddDynamicUpdateSliceToAddSlice) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "AddDynamicUpdateSliceToAddSlice").empty());
  simplify(
      "ENTRY e {\n p0 = f32[1,4,12,5,1,1] parameter(0)\n c = f32[] constant(0)\n"
      " b = f32[4,12,5] broadcast(c), dimensions={}\n p1 = f32[1,12,5] parameter(1)\n i = s32[] parameter(2)\n"
      " z = s32[] constant(0)\n d = f32[4,12,5] dynamic-update-slice(b, p1, i, z, z)\n"
      " r = f32[1,4,12,5,1,1] reshape(d)\n ROOT a = f32[1,4,12,5,1,1] add(p0, r)\n}\n",
      false);
}

TEST(AlgsimpXlaB, AddDynamicUpdateSliceToAddSliceOnLhs) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "AddDynamicUpdateSliceToAddSliceOnLhs").empty());
  simplify(
      "ENTRY e {\n p0 = f32[4,12,5] parameter(0)\n c = f32[] constant(0)\n"
      " b = f32[4,12,5] broadcast(c), dimensions={}\n p1 = f32[1,12,5] parameter(1)\n i = s32[] parameter(2)\n"
      " z = s32[] constant(0)\n d = f32[4,12,5] dynamic-update-slice(b, p1, i, z, z)\n"
      " ROOT a = f32[4,12,5] add(d, p0)\n}\n",
      false);
}

// enable_scalar_multiply_reduction: an option XLA's CPU pipeline leaves off (listed).
TEST(AlgsimpXlaB, ScalarMultiplyReduction) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "ScalarMultiplyReduction").empty());
  simplify(
      "ENTRY e {\n p0 = f32[2,3,4] parameter(0)\n c0 = f32[] constant(0.5)\n"
      " b0 = f32[2,3,4] broadcast(c0), dimensions={}\n m0 = f32[2,3,4] multiply(p0, b0)\n"
      " p1 = f32[2,3,4] parameter(1)\n m1 = f32[2,3,4] multiply(m0, p1)\n p2 = f32[2,3,5] parameter(2)\n"
      " c1 = f32[] constant(1.109)\n b1 = f32[2,3,5] broadcast(c1), dimensions={}\n"
      " m2 = f32[2,3,5] multiply(p2, b1)\n"
      " ROOT conv = f32[4,5,1] convolution(m1, m2), window={size=2}, dim_labels=0fb_0io->bf0\n}\n",
      false);
}

TEST(AlgsimpXlaB, ScalarMultiplyReductionMultiUser) {
  simplify(
      "ENTRY e {\n p0 = f32[2,3,4] parameter(0)\n p1 = f32[5,4,1] parameter(1)\n"
      " conv = f32[2,3,5] convolution(p0, p1), window={size=1}, dim_labels=0bf_oi0->0bf\n"
      " c1 = f32[] constant(0.5)\n b1 = f32[2,3,5] broadcast(c1), dimensions={}\n"
      " m1 = f32[2,3,5] multiply(conv, b1)\n p2 = f32[2,3,5] parameter(2)\n"
      " m2 = f32[2,3,5] multiply(conv, p2)\n ROOT a = f32[2,3,5] add(m1, m2)\n}\n",
      false);
}

// ---- dot of a dynamic-slice of a constant: slice the dot of the constants ----

// XLA's DotOfGatherTestSpec {m, k, n, s, lcd, rcd}: lhs a row (or column) `s` of a
// constant, rhs a constant; a negative case's slice does not span the contraction.
struct DotOfGather { int m, k, n, s, lcd, rcd; bool neg; };
const DotOfGather kDotOfGatherCases[] = {
    {10, 10, 5, 0, 1, 0, false}, {20, 20, 3, 2, 1, 0, false}, {10, 3, 10, 9, 1, 0, false},
    {10, 10, 5, 0, 0, 0, false}, {20, 20, 3, 2, 0, 0, false}, {10, 3, 10, 9, 0, 0, false},
    {10, 10, 5, 0, 0, 1, false}, {20, 20, 3, 2, 0, 1, false}, {10, 3, 10, 9, 0, 1, false},
    {10, 10, 5, 0, 1, 1, false}, {20, 20, 3, 2, 1, 1, false}, {10, 3, 10, 9, 1, 1, false},
};

// A rows x cols constant with distinct small values.
std::string linspace(int rows, int cols) {
  std::string s = "{";
  for (int r = 0; r < rows; ++r) {
    s += r ? ",{" : "{";
    for (int c = 0; c < cols; ++c) s += (c ? "," : "") + std::to_string(1 + r * cols + c);
    s += "}";
  }
  return s + "}";
}

std::string dims2(int a, int b) { return std::to_string(a) + "," + std::to_string(b); }

// ds = dynamic-slice of a constant on the side `sliced_lhs`, dot with the other constant.
std::string dot_of_gather(const DotOfGather& c, bool sliced_lhs) {
  const int inc = c.neg ? 5 : 0;
  // The sliced side's contraction is k + inc long, its free side m (lhs) or n (rhs).
  const int cd = sliced_lhs ? c.lcd : c.rcd, free = sliced_lhs ? c.m : c.n;
  const int rows = cd == 0 ? c.k + inc : free, cols = cd == 0 ? free : c.k + inc;
  const int srow = cd == 0 ? 0 : c.s, scol = cd == 0 ? c.s : 0;
  const int zrows = cd == 0 ? c.k : 1, zcols = cd == 0 ? 1 : c.k;
  const int ocd = sliced_lhs ? c.rcd : c.lcd, ofree = sliced_lhs ? c.n : c.m;
  const int orows = ocd == 0 ? c.k : ofree, ocols = ocd == 0 ? ofree : c.k;
  std::string hlo = "ENTRY e {\n big = f32[" + dims2(rows, cols) + "] constant(" + linspace(rows, cols) + ")\n" +
                    " i = s32[] constant(" + std::to_string(srow) + ")\n j = s32[] constant(" + std::to_string(scol) +
                    ")\n ds = f32[" + dims2(zrows, zcols) + "] dynamic-slice(big, i, j), dynamic_slice_sizes={" +
                    dims2(zrows, zcols) + "}\n other = f32[" + dims2(orows, ocols) + "] constant(" +
                    linspace(orows, ocols) + ")\n";
  const std::string out = sliced_lhs ? dims2(1, c.n) : dims2(c.m, 1);
  hlo += " ROOT d = f32[" + out + "] dot(" + (sliced_lhs ? "ds, other" : "other, ds") +
         "), lhs_contracting_dims={" + std::to_string(c.lcd) + "}, rhs_contracting_dims={" + std::to_string(c.rcd) +
         "}\n}\n";
  return hlo;
}

// hlsgym turns the constant-index dynamic-slice into a slice first (XLA's
// ConstantDynamicSlice) and keeps dot(slice(constant), constant) (listed).
void expect_dot_of_gather(bool sliced_lhs) {
  for (const DotOfGather& base : kDotOfGatherCases)
    for (bool neg : {false, true}) {
      DotOfGather c = base;
      c.neg = neg;
      SCOPED_TRACE(dot_of_gather(c, sliced_lhs));
      // Both change: the negative case's constant-index dynamic-slice becomes a slice.
      const ir::Module m = simplify(dot_of_gather(c, sliced_lhs));
      EXPECT_EQ(root_expression(m), sliced_lhs ? "dot(slice(constant), constant)" : "dot(constant, slice(constant))");
    }
}

TEST(AlgsimpXlaB, DotOfGatherSimplificationTest_ConstantRHS) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "DotOfGatherSimplificationTest_ConstantRHS").empty());
  expect_dot_of_gather(true);
}

TEST(AlgsimpXlaB, DotOfGatherSimplificationTest_ConstantLHS) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "DotOfGatherSimplificationTest_ConstantLHS").empty());
  expect_dot_of_gather(false);
}

TEST(AlgsimpXlaB, GatherOfScalarToBroadcast) {
  const ir::Module m = simplify(
      "ENTRY e {\n o = f32[1,1] parameter(0)\n i = s32[100,2] parameter(1)\n"
      " ROOT g = f32[100] gather(o, i), collapsed_slice_dims={0,1}, start_index_map={0,1},"
      " index_vector_dim=1, offset_dims={}, slice_sizes={1,1}\n}\n");
  EXPECT_EQ(root_expression(m), "broadcast(reshape(parameter(0)))");
}

// A reduce over no dimensions combines each element once with the init: +0 + -0 is +0,
// so it is a reshape only where the elements cannot be -0 (listed).
TEST(AlgsimpXlaB, TupleReduceReshape) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "TupleReduceReshape").empty());
  simplify(
      "reducer {\n a0 = f32[] parameter(0)\n b0 = f32[] parameter(2)\n s0 = f32[] add(a0, b0)\n"
      " a1 = f32[] parameter(1)\n b1 = f32[] parameter(3)\n s1 = f32[] add(a1, b1)\n"
      " ROOT t = (f32[], f32[]) tuple(s0, s1)\n}\n"
      "ENTRY e {\n p = (f32[], f32[]) parameter(0)\n g0 = f32[] get-tuple-element(p), index=0\n"
      " g1 = f32[] get-tuple-element(p), index=1\n c = f32[] constant(0)\n"
      " ROOT r = (f32[], f32[]) reduce(g0, g1, c, c), dimensions={}, to_apply=reducer\n}\n",
      false);
}

TEST(AlgsimpXlaB, TupleReduceBroadcast) {
  const ir::Module m = simplify(
      "reducer {\n a0 = f32[] parameter(0)\n b0 = f32[] parameter(2)\n s0 = f32[] add(a0, b0)\n"
      " a1 = f32[] parameter(1)\n b1 = f32[] parameter(3)\n s1 = f32[] add(a1, b1)\n"
      " ROOT t = (f32[], f32[]) tuple(s0, s1)\n}\n"
      "ENTRY e {\n p = (f32[0,10,10], f32[0,10,10]) parameter(0)\n g0 = f32[0,10,10] get-tuple-element(p), index=0\n"
      " g1 = f32[0,10,10] get-tuple-element(p), index=1\n c0 = f32[] constant(0)\n c1 = f32[] constant(1)\n"
      " ROOT r = (f32[10,10], f32[10,10]) reduce(g0, g1, c0, c1), dimensions={0}, to_apply=reducer\n}\n");
  EXPECT_EQ(root_expression(m), "tuple(broadcast(constant(0)), broadcast(constant(1)))");
}

TEST(AlgsimpXlaB, ZeroSizedReshapeWithoutLayout) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = f32[1] parameter(0)\n b = f32[0,1] broadcast(p), dimensions={1}\n"
      " ROOT r = f32[0] reshape(b)\n}\n",
      true, /*compare_values=*/false);  // nothing to compare
  EXPECT_EQ(root_expression(m), "constant");
}

}  // namespace
}  // namespace hlsgym::passes
