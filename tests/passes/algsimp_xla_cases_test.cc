// algsimp: cases of XLA's algebraic_simplifier_test.cc, each written as a golden test
// (HLO in; the root pattern, or no change, out; the interpreter agreeing). A case hlsgym
// answers differently on purpose names its line in xla_cases/deliberate_differences.txt.
// Named after the XLA test where there is one, after the rule where XLA has none (those
// are marked "Not an XLA case", so tests/passes/xla_cases/PORTED.md can be counted).
#include <gtest/gtest.h>

#include "tests/passes/algsimp_golden.h"

namespace hlsgym::passes {
namespace {
using testing::root_expression;
using testing::simplify;

// ---- divide by sqrt / rsqrt: left alone (a deliberate difference) ----

// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, DivideBySqrtStaysExact) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "rule A/sqrt(B) => A*rsqrt(B)").empty());
  simplify("ENTRY e {\n a = f32[8] parameter(0)\n b = f32[8] parameter(1)\n s = f32[8] sqrt(b)\n"
           " ROOT d = f32[8] divide(a, s)\n}\n",
           false);
}

// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, DivideByRsqrtStaysExact) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "rule A/rsqrt(B) => A*sqrt(B)").empty());
  simplify("ENTRY e {\n a = f32[8] parameter(0)\n b = f32[8] parameter(1)\n s = f32[8] rsqrt(b)\n"
           " ROOT d = f32[8] divide(a, s)\n}\n",
           false);
}

// ---- concatenate of broadcast scalars ----

// XLA's case of this name (f32[100] parameter, scalar broadcast first).
TEST(AlgsimpXla, ConcatenateOfBroadcastBecomesPad) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[100] parameter(0)\n p1 = f32[] parameter(1)\n b = f32[100] broadcast(p1), dimensions={}\n"
      " ROOT c = f32[200] concatenate(b, p0), dimensions={0}\n}\n");
  EXPECT_EQ(root_expression(m), "pad(parameter(0), parameter(1))");
  EXPECT_NE(ir::print_module(m).find("padding=100_0"), std::string::npos) << ir::print_module(m);
}

// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, ConcatenateWithTrailingBroadcastBecomesHighPad) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = s32[3,5] parameter(0)\n p1 = s32[] parameter(1)\n b = s32[3,2] broadcast(p1), dimensions={}\n"
      " ROOT c = s32[3,7] concatenate(p0, b), dimensions={1}\n}\n");
  EXPECT_EQ(root_expression(m), "pad(parameter(0), parameter(1))");
  EXPECT_NE(ir::print_module(m).find("padding=0_0x0_2"), std::string::npos) << ir::print_module(m);
}

// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, ConcatenateOfSameBroadcastScalarIsBroadcast) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = f32[] parameter(0)\n b1 = f32[2,3] broadcast(p), dimensions={}\n"
      " b2 = f32[4,3] broadcast(p), dimensions={}\n"
      " ROOT c = f32[8,3] concatenate(b1, b2, b1), dimensions={0}\n}\n");
  EXPECT_EQ(root_expression(m), "broadcast(parameter(0))");
}

// Three operands, only one a broadcast scalar: XLA pads binary concatenates only.
// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, ConcatenateOfThreeWithOneBroadcastIsKept) {
  simplify("ENTRY e {\n p0 = f32[4] parameter(0)\n p1 = f32[] parameter(1)\n p2 = f32[4] parameter(2)\n"
           " b = f32[4] broadcast(p1), dimensions={}\n"
           " ROOT c = f32[12] concatenate(p0, b, p2), dimensions={0}\n}\n",
           false);
}

// ---- dynamic-slice through data movement ----

// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, DynamicSliceOfBroadcastSlicesItsOperand) {
  const ir::Module m = simplify(
      "ENTRY e {\n y = s32[6] parameter(0)\n i = s32[] parameter(1)\n j = s32[] parameter(2)\n"
      " b = s32[4,6] broadcast(y), dimensions={1}\n"
      " ROOT d = s32[2,3] dynamic-slice(b, i, j), dynamic_slice_sizes={2,3}\n}\n");
  EXPECT_EQ(root_expression(m), "broadcast(dynamic-slice(parameter(0), parameter(2)))");
}

// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, DynamicSliceOfBroadcastScalarIsBroadcast) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = f32[] parameter(0)\n i = s32[] parameter(1)\n b = f32[8] broadcast(p), dimensions={}\n"
      " ROOT d = f32[3] dynamic-slice(b, i), dynamic_slice_sizes={3}\n}\n");
  EXPECT_EQ(root_expression(m), "broadcast(parameter(0))");
}

// The broadcast's operand is taken whole: no dynamic-slice is left.
// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, DynamicSliceKeepingTheBroadcastOperandWholeIsBroadcast) {
  const ir::Module m = simplify(
      "ENTRY e {\n y = f32[6] parameter(0)\n i = s32[] parameter(1)\n j = s32[] parameter(2)\n"
      " b = f32[4,6] broadcast(y), dimensions={1}\n"
      " ROOT d = f32[2,6] dynamic-slice(b, i, j), dynamic_slice_sizes={2,6}\n}\n");
  EXPECT_EQ(root_expression(m), "broadcast(parameter(0))");
}

// A broadcast with another user stays; slicing below it would add an instruction.
// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, DynamicSliceOfSharedBroadcastIsKept) {
  simplify("ENTRY e {\n y = s32[6] parameter(0)\n i = s32[] parameter(1)\n j = s32[] parameter(2)\n"
           " b = s32[4,6] broadcast(y), dimensions={1}\n"
           " d = s32[2,3] dynamic-slice(b, i, j), dynamic_slice_sizes={2,3}\n"
           " ROOT t = (s32[2,3], s32[4,6]) tuple(d, b)\n}\n",
           false);
}

// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, DynamicSliceOfTransposeSlicesItsOperand) {
  const ir::Module m = simplify(
      "ENTRY e {\n y = s32[5,7] parameter(0)\n i = s32[] parameter(1)\n j = s32[] parameter(2)\n"
      " t = s32[7,5] transpose(y), dimensions={1,0}\n"
      " ROOT d = s32[3,2] dynamic-slice(t, i, j), dynamic_slice_sizes={3,2}\n}\n");
  EXPECT_EQ(root_expression(m), "transpose(dynamic-slice(parameter(0), parameter(2), parameter(1)))");
}

// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, DynamicSliceOfWholeIotaDimensionIsIota) {
  const ir::Module m = simplify(
      "ENTRY e {\n i = s32[] parameter(0)\n j = s32[] parameter(1)\n x = s32[8,5] iota(), iota_dimension=1\n"
      " ROOT d = s32[3,5] dynamic-slice(x, i, j), dynamic_slice_sizes={3,5}\n}\n");
  EXPECT_EQ(root_expression(m), "iota");
}

// A part of the iota dimension would be iota + clamped start: more instructions, kept.
// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, DynamicSliceOfPartOfIotaDimensionIsKept) {
  simplify("ENTRY e {\n i = s32[] parameter(0)\n x = s32[8] iota(), iota_dimension=0\n"
           " ROOT d = s32[3] dynamic-slice(x, i), dynamic_slice_sizes={3}\n}\n",
           false);
}

// ---- A*C + B*C -> (A+B)*C ----

TEST(AlgsimpXla, FactorIntegerAddition) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = s32[8] parameter(0)\n p1 = s32[8] parameter(1)\n p2 = s32[8] parameter(2)\n"
      " x = s32[8] multiply(p0, p2)\n y = s32[8] multiply(p1, p2)\n ROOT sum = s32[8] add(x, y)\n}\n");
  EXPECT_EQ(root_expression(m), "multiply(add(parameter(0), parameter(1)), parameter(2))");
}

// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, FactorIntegerAdditionCommonOperandFirst) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = u16[8] parameter(0)\n p1 = u16[8] parameter(1)\n p2 = u16[8] parameter(2)\n"
      " x = u16[8] multiply(p2, p0)\n y = u16[8] multiply(p1, p2)\n ROOT sum = u16[8] add(x, y)\n}\n");
  EXPECT_EQ(root_expression(m), "multiply(add(parameter(0), parameter(1)), parameter(2))");
}

// A product used elsewhere stays, so factoring would add an instruction.
// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, FactorIntegerAdditionWithSharedProductIsKept) {
  simplify("ENTRY e {\n p0 = s32[8] parameter(0)\n p1 = s32[8] parameter(1)\n p2 = s32[8] parameter(2)\n"
           " x = s32[8] multiply(p0, p2)\n y = s32[8] multiply(p1, p2)\n sum = s32[8] add(x, y)\n"
           " ROOT t = (s32[8], s32[8]) tuple(sum, x)\n}\n",
           false);
}

// XLA factors floats when C is a power of two; hlsgym does not (listed).
const std::string kFactorFp =
    "ENTRY e {\n p0 = f32[] parameter(0)\n p1 = f32[] parameter(1)\n c = f32[] constant(0.125)\n"
    " x = f32[] multiply(p0, c)\n y = f32[] multiply(p1, c)\n ROOT sum = f32[] add(x, y)\n}\n";

TEST(AlgsimpXla, FactorFpAddition) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "FactorFpAddition").empty());
  simplify(kFactorFp, false);
}

TEST(AlgsimpXla, FactorFpAdditionWithBroadcast) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "FactorFpAdditionWithBroadcast").empty());
  simplify("ENTRY e {\n p0 = f32[4] parameter(0)\n p1 = f32[4] parameter(1)\n c = f32[] constant(0.125)\n"
           " b = f32[4] broadcast(c), dimensions={}\n x = f32[4] multiply(p0, b)\n y = f32[4] multiply(p1, b)\n"
           " ROOT sum = f32[4] add(x, y)\n}\n",
           false);
}

TEST(AlgsimpXla, FactorFpAdditionBfloat16) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "FactorFpAdditionBfloat16").empty());
  simplify("ENTRY e {\n p0 = bf16[4] parameter(0)\n p1 = bf16[4] parameter(1)\n c = bf16[] constant(0.125)\n"
           " b = bf16[4] broadcast(c), dimensions={}\n x = bf16[4] multiply(p0, b)\n y = bf16[4] multiply(p1, b)\n"
           " ROOT sum = bf16[4] add(x, y)\n}\n",
           false);
}

TEST(AlgsimpXla, FactorFpAdditionNotPowerOf2) {
  std::string body = kFactorFp;
  body.replace(body.find("0.125"), 5, "0.3");
  simplify(body, false);
}

TEST(AlgsimpXla, FactorFpAdditionComplex) {
  simplify("ENTRY e {\n p0 = c64[8] parameter(0)\n p1 = c64[8] parameter(1)\n p2 = c64[8] parameter(2)\n"
           " x = c64[8] multiply(p0, p2)\n y = c64[8] multiply(p1, p2)\n ROOT sum = c64[8] add(x, y)\n}\n",
           false);
}

// ---- identities and integer division by powers of two ----

// XLA drops the +0; for floats hlsgym only does where p cannot be -0 (listed), as for
// integers always.
TEST(AlgsimpXla, AddZero) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "AddZero").empty());
  simplify("ENTRY e {\n p = f32[] parameter(0)\n z = f32[] constant(0)\n ROOT a = f32[] add(p, z)\n}\n", false);
  const ir::Module m = simplify(
      "ENTRY e {\n p = s32[] parameter(0)\n z = s32[] constant(0)\n ROOT a = s32[] add(p, z)\n}\n");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

TEST(AlgsimpXla, MulZero) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = s32[] parameter(0)\n z = s32[] constant(0)\n ROOT a = s32[] multiply(p, z)\n}\n");
  EXPECT_EQ(root_expression(m), "constant(0)");
}

TEST(AlgsimpXla, SquareOfAbs) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = f32[] parameter(0)\n a = f32[] abs(p)\n ROOT z = f32[] multiply(a, a)\n}\n");
  EXPECT_EQ(root_expression(m), "multiply(parameter(0), parameter(0))");
}

TEST(AlgsimpXla, UnsignedDivideByPowerOf2) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = u32[4] parameter(0)\n c = u32[] constant(8)\n b = u32[4] broadcast(c), dimensions={}\n"
      " ROOT d = u32[4] divide(p, b)\n}\n");
  EXPECT_EQ(root_expression(m), "shift-right-logical(parameter(0), broadcast(constant(3)))");
}

TEST(AlgsimpXla, UnsignedRemainderByPowerOf2) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = u32[4] parameter(0)\n c = u32[] constant(8)\n b = u32[4] broadcast(c), dimensions={}\n"
      " ROOT r = u32[4] remainder(p, b)\n}\n");
  EXPECT_EQ(root_expression(m), "and(parameter(0), broadcast(constant(7)))");
}

// XLA: select(p < 0, -(|p| >> 3), |p| >> 3) with |p| written select(p < 0, -p, p);
// hlsgym writes |p| as abs(p), one instruction with the same (wrapping) values (listed).
TEST(AlgsimpXla, SignedDivideByPowerOf2) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "SignedDivideByPowerOf2").empty());
  const ir::Module m = simplify(
      "ENTRY e {\n p = s32[4] parameter(0)\n c = s32[] constant(8)\n b = s32[4] broadcast(c), dimensions={}\n"
      " ROOT d = s32[4] divide(p, b)\n}\n");
  const std::string negative = "compare(parameter(0), broadcast(constant(0)))";
  const std::string shift = "shift-right-logical(abs(parameter(0)), broadcast(constant(3)))";
  EXPECT_EQ(root_expression(m), "select(" + negative + ", negate(" + shift + "), " + shift + ")");
}

// XLA: select(p < 0, -(|p| & 7), |p| & 7); hlsgym: abs(p) for |p|, and p itself where
// p >= 0 (listed).
TEST(AlgsimpXla, SignedRemainderByPowerOf2) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "SignedRemainderByPowerOf2").empty());
  const ir::Module m = simplify(
      "ENTRY e {\n p = s32[4] parameter(0)\n c = s32[] constant(8)\n b = s32[4] broadcast(c), dimensions={}\n"
      " ROOT r = s32[4] remainder(p, b)\n}\n");
  const std::string negative = "compare(parameter(0), broadcast(constant(0)))";
  EXPECT_EQ(root_expression(m), "select(" + negative + ", negate(and(abs(parameter(0)), broadcast(constant(7)))), "
                                "and(parameter(0), broadcast(constant(7))))");
}

// ---- reassociation of multiplies with constants ----

// XLA: (p0*2)*(p1*4) -> (p0*p1)*(2*4). p0*p1 can underflow where 8*p0*p1 does not
// (1e-23 * 1e-23), so hlsgym keeps it (listed).
TEST(AlgsimpXla, MultiplyChain) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "MultiplyChain").empty());
  simplify("ENTRY e {\n p0 = f32[] parameter(0)\n p1 = f32[] parameter(1)\n c = f32[] constant(2)\n"
           " d = f32[] constant(4)\n x = f32[] multiply(p0, c)\n y = f32[] multiply(p1, d)\n"
           " ROOT z = f32[] multiply(x, y)\n}\n",
           false);
}

// XLA leaves multiply(2, 4) to constant folding; hlsgym folds it at once (listed).
TEST(AlgsimpXla, MultiplyChain2) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "MultiplyChain2").empty());
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[] parameter(0)\n a = f32[] constant(2)\n b = f32[] constant(4)\n"
      " c = f32[] multiply(p0, a)\n ROOT y = f32[] multiply(c, b)\n}\n");
  EXPECT_EQ(root_expression(m), "multiply(parameter(0), constant(8))");
}

TEST(AlgsimpXla, MultiplyReassociateMergeConstants) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "MultiplyReassociateMergeConstants").empty());
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[] parameter(0)\n c0 = f32[] constant(2)\n c1 = f32[] constant(3)\n"
      " m0 = f32[] multiply(p0, c0)\n ROOT m1 = f32[] multiply(m0, c1)\n}\n");
  EXPECT_EQ(root_expression(m), "multiply(parameter(0), constant(6))");
}

TEST(AlgsimpXla, MultiplyReassociateMergeBroadcastedConstants) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "MultiplyReassociateMergeBroadcastedConstants").empty());
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[4] parameter(0)\n c0 = f32[] constant(2)\n c1 = f32[] constant(3)\n"
      " b0 = f32[4] broadcast(c0), dimensions={}\n b1 = f32[4] broadcast(c1), dimensions={}\n"
      " m0 = f32[4] multiply(p0, b0)\n ROOT m1 = f32[4] multiply(m0, b1)\n}\n");
  EXPECT_EQ(root_expression(m), "multiply(parameter(0), broadcast(constant(6)))");
}

// hlsgym's own: the chain stays where merging could change the rounding: a first
// constant below 1 (p*0.5 can lose bits to underflow) or not a power of two (p*3 can
// round in the subnormal range before the exact *2), or no power of two at all.
// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, MultiplyByConstantsThatWouldRoundTwiceIsKept) {
  for (const char* constants : {"0.5, 3", "3, 2", "3, 5", "2, 0.5"}) {
    SCOPED_TRACE(constants);
    const std::string c(constants);
    const size_t comma = c.find(',');
    simplify("ENTRY e {\n p0 = f32[] parameter(0)\n c0 = f32[] constant(" + c.substr(0, comma) +
                 ")\n c1 = f32[] constant(" + c.substr(comma + 2) +
                 ")\n m0 = f32[] multiply(p0, c0)\n ROOT m1 = f32[] multiply(m0, c1)\n}\n",
             false);
  }
}

TEST(AlgsimpXla, ElementwiseSinkMultipleBroadcastsScalar) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[] parameter(0)\n p1 = f32[] parameter(1)\n b0 = f32[4] broadcast(p0), dimensions={}\n"
      " b1 = f32[4] broadcast(p1), dimensions={}\n ROOT z = f32[4] multiply(b1, b0)\n}\n");
  EXPECT_EQ(root_expression(m), "broadcast(multiply(parameter(1), parameter(0)))");
}

// ---- broadcasts sunk below elementwise ops ----

TEST(AlgsimpXla, ElementwiseSinkMultipleBroadcastsConstantMix) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[4] parameter(0)\n c0 = f32[] constant(2)\n b0 = f32[4,2] broadcast(c0), dimensions={}\n"
      " b1 = f32[4,2] broadcast(p0), dimensions={0}\n ROOT z = f32[4,2] multiply(b1, b0)\n}\n");
  EXPECT_EQ(root_expression(m), "broadcast(multiply(parameter(0), broadcast(constant(2))))");
}

TEST(AlgsimpXla, ElementwiseSinkMultipleBroadcastsNonScalar) {
  const ir::Module m = simplify(
      "ENTRY e {\n p0 = f32[4] parameter(0)\n p1 = f32[4] parameter(1)\n b0 = f32[4,2] broadcast(p0), dimensions={0}\n"
      " b1 = f32[4,2] broadcast(p1), dimensions={0}\n ROOT z = f32[4,2] multiply(b1, b0)\n}\n");
  EXPECT_EQ(root_expression(m), "broadcast(multiply(parameter(1), parameter(0)))");
}

TEST(AlgsimpXla, ElementwiseNoSinkBroadcastsDifferentDims) {
  simplify("ENTRY e {\n p0 = f32[4] parameter(0)\n p1 = f32[8] parameter(1)\n b0 = f32[4,8] broadcast(p0), dimensions={0}\n"
           " b1 = f32[4,8] broadcast(p1), dimensions={1}\n ROOT z = f32[4,8] multiply(b1, b0)\n}\n",
           false);
}

// ---- select ----

TEST(AlgsimpXla, SelectTrue) {
  const ir::Module m = simplify(
      "ENTRY e {\n a = s32[] parameter(0)\n b = s32[] parameter(1)\n t = pred[] constant(true)\n"
      " ROOT s = s32[] select(t, a, b)\n}\n");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

TEST(AlgsimpXla, SelectFalse) {
  const ir::Module m = simplify(
      "ENTRY e {\n a = s32[] parameter(0)\n b = s32[] parameter(1)\n f = pred[] constant(false)\n"
      " ROOT s = s32[] select(f, a, b)\n}\n");
  EXPECT_EQ(root_expression(m), "parameter(1)");
}

TEST(AlgsimpXla, SelectIdentical) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = pred[] parameter(0)\n b = s32[] parameter(1)\n ROOT s = s32[] select(p, b, b)\n}\n");
  EXPECT_EQ(root_expression(m), "parameter(1)");
}

TEST(AlgsimpXla, SelectWithNotPred) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = pred[] parameter(0)\n a = s32[] parameter(1)\n b = s32[] parameter(2)\n n = pred[] not(p)\n"
      " ROOT s = s32[] select(n, a, b)\n}\n");
  EXPECT_EQ(root_expression(m), "select(parameter(0), parameter(2), parameter(1))");
}

// ---- add: constants, zeros, reassociation ----

TEST(AlgsimpXla, AddConstOnLHS) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = f32[] parameter(0)\n c = f32[] constant(42)\n ROOT a = f32[] add(c, p)\n}\n");
  EXPECT_EQ(root_expression(m), "add(parameter(0), constant(42))");
}

// Float (p + c1) + c2 -> p + (c1 + c2) rounds differently (listed); integers merge.
TEST(AlgsimpXla, AddReassociateMergeConstants) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "AddReassociateMergeConstants").empty());
  simplify("ENTRY e {\n p = f32[] parameter(0)\n c1 = f32[] constant(42)\n c2 = f32[] constant(3.14159)\n"
           " a1 = f32[] add(p, c1)\n ROOT a2 = f32[] add(a1, c2)\n}\n", false);
}

TEST(AlgsimpXla, AddReassociateMergeBroadcastedConstants) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "AddReassociateMergeBroadcastedConstants").empty());
  simplify("ENTRY e {\n p = f32[4] parameter(0)\n c0 = f32[] constant(1)\n c1 = f32[] constant(2)\n"
           " b0 = f32[4] broadcast(c0), dimensions={}\n b1 = f32[4] broadcast(c1), dimensions={}\n"
           " a0 = f32[4] add(p, b0)\n ROOT a1 = f32[4] add(a0, b1)\n}\n", false);
}

// As AddZero: the float +0 stays (listed); the constant moves to the right.
TEST(AlgsimpXla, AddBroadcastZeroR0Operand) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "AddBroadcastZeroR0Operand").empty());
  const ir::Module m = simplify(
      "ENTRY e {\n p = f32[3,2] parameter(0)\n z = f32[] constant(0)\n b = f32[3,2] broadcast(z), dimensions={}\n"
      " ROOT a = f32[3,2] add(b, p)\n}\n");
  EXPECT_EQ(root_expression(m), "add(parameter(0), broadcast(constant(0)))");
}

// (c0 * 3) * 4 with 3 not a power of two: kept (listed, as MultiplyChain).
TEST(AlgsimpXla, MultiplyReassociateMultiplyOfConstantAndBroadcast) {
  EXPECT_FALSE(
      testing::deliberate_difference("algsimp", "MultiplyReassociateMultiplyOfConstantAndBroadcast").empty());
  simplify(
      "ENTRY e {\n c0 = f32[4] constant({2, 3, 4, 5})\n c1 = f32[] constant(3)\n c2 = f32[] constant(4)\n"
      " b0 = f32[4] broadcast(c1), dimensions={}\n b1 = f32[4] broadcast(c2), dimensions={}\n"
      " m0 = f32[4] multiply(c0, b0)\n ROOT m1 = f32[4] multiply(m0, b1)\n}\n",
           false);
}

// A float sum over two reduces merged into one adds in another order (listed).
TEST(AlgsimpXla, TwoReducesToOne) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "TwoReducesToOne").empty());
  simplify(
      "add {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] add(x, y)\n}\n"
      "ENTRY e {\n p = f32[4,5,6,7] parameter(0)\n z = f32[] constant(0)\n"
      " r0 = f32[5,6,7] reduce(p, z), dimensions={0}, to_apply=add\n"
      " ROOT r1 = f32[5] reduce(r0, z), dimensions={1,2}, to_apply=add\n}\n",
           false);
}

// The integer sum merges: one reduce over x's dimensions 0, 2 and 3.
// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, TwoReducesToOneInteger) {
  const ir::Module m = simplify(
      "add {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n ROOT s = s32[] add(x, y)\n}\n"
      "ENTRY e {\n p = s32[4,5,6,7] parameter(0)\n z = s32[] constant(0)\n"
      " r0 = s32[5,6,7] reduce(p, z), dimensions={0}, to_apply=add\n"
      " ROOT r1 = s32[5] reduce(r0, z), dimensions={1,2}, to_apply=add\n}\n");
  EXPECT_EQ(root_expression(m), "reduce(parameter(0), constant(0))");
  EXPECT_EQ(m.attrs(m.computation(m.entry()).root).dimensions, (std::vector<int64_t>{0, 2, 3}));
}

// An init that is not the identity is combined once per inner output: kept.
// Not an XLA case: named after the rule it checks.
TEST(AlgsimpXla, TwoReducesWithNonIdentityInitAreKept) {
  simplify("add {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n ROOT s = s32[] add(x, y)\n}\n"
           "ENTRY e {\n p = s32[4,5] parameter(0)\n z = s32[] constant(1)\n"
           " r0 = s32[5] reduce(p, z), dimensions={0}, to_apply=add\n"
           " ROOT r1 = s32[] reduce(r0, z), dimensions={0}, to_apply=add\n}\n",
           false);
}

TEST(AlgsimpXla, KeepNontrivialMap) {
  simplify("fusion {\n x = f32[] parameter(0)\n c = f32[] constant(42)\n m = f32[] multiply(x, x)\n"
           " ROOT a = f32[] add(m, c)\n}\nmap {\n x = f32[] parameter(0)\n"
           " ROOT f = f32[] fusion(x), kind=kLoop, calls=fusion\n}\n"
           "ENTRY e {\n p = f32[2,2] parameter(0)\n ROOT m = f32[2,2] map(p), dimensions={0,1}, to_apply=map\n}\n",
           false);
}

}  // namespace
}  // namespace hlsgym::passes
