// algsimp: XLA's algebraic_simplifier_test.cc (openxla/xla 001918b7), its cases from
// MultiplyBroadcastReassoc to LnRsqrt, each a golden test (HLO in; the root pattern, or
// no change, out; the interpreter agreeing). XLA's C++-builder cases are written as HLO
// text. A case hlsgym answers differently on purpose checks hlsgym's answer and names
// its line in xla_cases/deliberate_differences.txt.
#include <gtest/gtest.h>

#include "tests/passes/algsimp_golden.h"

namespace hlsgym::passes {
namespace {
using testing::expect_listed;
using testing::entry_with_params;
using testing::expect_listed_unchanged;
using testing::root_expression;
using testing::simplify;

// (p0 * 2) * broadcast(p1) -> p0 * broadcast(p1 * 2): inexact (listed).
TEST(AlgsimpXlaA1, MultiplyBroadcastReassoc) {
  expect_listed_unchanged("MultiplyBroadcastReassoc", R"(
ENTRY test {
  p0 = f32[2,2] parameter(0)
  p1 = f32[] parameter(1)
  b = f32[] constant(2)
  c = f32[2,2] broadcast(b), dimensions={}
  x = f32[2,2] multiply(p0, c)
  y = f32[2,2] broadcast(p1), dimensions={}
  ROOT z = f32[2,2] multiply(y, x)
})");
}

TEST(AlgsimpXlaA1, InlineTrivialMap) {
  const ir::Module m = simplify(R"(
add {
  p0 = f32[] parameter(0)
  p1 = f32[] parameter(1)
  ROOT a = f32[] add(p0, p1)
}
ENTRY test {
  param0 = f32[32,1] parameter(0)
  zero = f32[] constant(0)
  b = f32[32,1] broadcast(zero), dimensions={}
  ROOT map = f32[32,1] map(param0, b), dimensions={0,1}, to_apply=add
})");
  EXPECT_EQ(root_expression(m), "add(parameter(0), broadcast(constant(0)))");
}

// broadcast({0,0,0}) + p -> p: as AddZero, the float +0 stays (listed); it moves right.
TEST(AlgsimpXlaA1, AddBroadcastZeroR1Operand) {
  expect_listed("AddBroadcastZeroR1Operand");
  const ir::Module m = simplify(R"(
ENTRY test {
  param0 = f32[3,2] parameter(0)
  zero = f32[3] constant({0, 0, 0})
  bcast = f32[3,2] broadcast(zero), dimensions={0}
  ROOT add = f32[3,2] add(bcast, param0)
})");
  EXPECT_EQ(root_expression(m), "add(parameter(0), broadcast(constant(0)))");
}

TEST(AlgsimpXlaA1, ConstantToBroadcast) {
  const ir::Module m = simplify(R"(
ENTRY test {
  ROOT c = f32[3] constant({3.14, 3.14, 3.14})
})");
  EXPECT_EQ(root_expression(m), "broadcast(constant(3.14))");
}

TEST(AlgsimpXlaA1, ConstantNotToBroadcast) {
  simplify(R"(
ENTRY test {
  ROOT c = f32[3] constant({3.14, 3.14, 4})
})", false);
}

TEST(AlgsimpXlaA1, IotaToBroadcast) {
  const ir::Module m = simplify(R"(
ENTRY test {
  ROOT c = f32[3] constant({0, 1, 2})
})");
  EXPECT_EQ(root_expression(m), "iota");
}

TEST(AlgsimpXlaA1, SubZero) {
  const ir::Module m = simplify(R"(
ENTRY test {
  p = f32[] parameter(0)
  z = f32[] constant(0)
  ROOT s = f32[] subtract(p, z)
})");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

// XLA leaves negate(42) to constant folding; hlsgym folds it at once (listed).
TEST(AlgsimpXlaA1, SubConstCanonicalization) {
  expect_listed("SubConstCanonicalization");
  const ir::Module m = simplify(R"(
ENTRY test {
  p = f32[] parameter(0)
  c = f32[] constant(42)
  ROOT s = f32[] subtract(p, c)
})");
  EXPECT_EQ(root_expression(m), "add(parameter(0), constant(-42))");
}

TEST(AlgsimpXlaA1, SubBroadcastConstCanonicalization) {
  expect_listed("SubBroadcastConstCanonicalization");
  const ir::Module m = simplify(R"(
ENTRY test {
  p0 = f32[4] parameter(0)
  c = f32[] constant(0.125)
  b = f32[4] broadcast(c), dimensions={}
  ROOT sub = f32[4] subtract(p0, b)
})");
  EXPECT_EQ(root_expression(m), "add(parameter(0), broadcast(constant(-0.125)))");
}

TEST(AlgsimpXlaA1, SubSame) {
  const ir::Module m = simplify(R"(
ENTRY test {
  p0 = s32[2] parameter(0)
  ROOT sub = s32[2] subtract(p0, p0)
})");
  EXPECT_EQ(root_expression(m), "broadcast(constant(0))");
}

TEST(AlgsimpXlaA1, DegenerateDimsInOperandRemovedFromBroadcast) {
  const ir::Module m = simplify(R"(
ENTRY test {
  c = f32[1,4] parameter(0)
  ROOT b = f32[5,1,4,3] broadcast(c), dimensions={1,2}
})");
  EXPECT_EQ(root_expression(m), "broadcast(reshape(parameter(0)))");
}

// XLA runs this one layout-sensitive and expects no change; hlsgym has no layouts, so
// the copies are identities and go (listed).
TEST(AlgsimpXlaA1, ArrayOvershootTest) {
  expect_listed("ArrayOvershootTest");
  const ir::Module m = simplify(R"(
ENTRY test {
  param0 = f32[18,18,2,1,1,128] parameter(0)
  cpy1 = f32[18,18,2,1,1,128] copy(param0)
  bitcast = f32[648,128,1,1] bitcast(cpy1)
  ROOT cpy2 = f32[648,128,1,1] copy(bitcast)
})");
  EXPECT_EQ(root_expression(m), "bitcast(parameter(0))");
}

// (A/B)/C -> A/(B*C), A/(B/C) -> (A*C)/B, (A/B)/(C/D) -> (A*D)/(B*C): each changes
// float rounding (two roundings become two others; B*C can overflow), listed.
TEST(AlgsimpXlaA1, LhsDivOfDiv) {
  expect_listed_unchanged("LhsDivOfDiv", entry_with_params("f32[]", 3, R"(
  d = f32[] divide(p0, p1)
  ROOT r = f32[] divide(d, p2)
)"));
}

TEST(AlgsimpXlaA1, RhsDivOfDiv) {
  expect_listed_unchanged("RhsDivOfDiv", entry_with_params("f32[]", 3, R"(
  d = f32[] divide(p1, p2)
  ROOT r = f32[] divide(p0, d)
)"));
}

TEST(AlgsimpXlaA1, DivOfDivAndDiv) {
  expect_listed_unchanged("DivOfDivAndDiv", entry_with_params("f32[42,123]", 4, R"(
  d0 = f32[42,123] divide(p0, p1)
  d1 = f32[42,123] divide(p2, p3)
  ROOT r = f32[42,123] divide(d0, d1)
)"));
}

TEST(AlgsimpXlaA1, DivOfExp) {
  expect_listed_unchanged("DivOfExp", entry_with_params("f32[]", 2, R"(
  e = f32[] exponential(p1)
  ROOT r = f32[] divide(p0, e)
)"));
}

TEST(AlgsimpXlaA1, DivOfPower) {
  expect_listed_unchanged("DivOfPower", entry_with_params("f32[]", 3, R"(
  w = f32[] power(p1, p2)
  ROOT r = f32[] divide(p0, w)
)"));
}

TEST(AlgsimpXlaA1, DivOfBroadcastingPower) {
  expect_listed_unchanged("DivOfBroadcastingPower", entry_with_params("f32[7]", 3, R"(
  w = f32[7] power(p1, p2)
  ROOT r = f32[7] divide(p0, w)
)"));
}

// A / {1, 2, 3} -> A * {1, 0.5, 0.333...}: 1/3 is rounded, so hlsgym keeps the divide
// (listed); it does divide by a uniform power of two (DivideByBroadcastedConstant).
TEST(AlgsimpXlaA1, DivideByConstant) {
  expect_listed_unchanged("DivideByConstant", R"(
ENTRY test {
  p0 = f32[3] parameter(0)
  c = f32[3] constant({1, 2, 3})
  ROOT r = f32[3] divide(p0, c)
})");
}

TEST(AlgsimpXlaA1, DivideByBroadcastedConstant) {
  const ir::Module m = simplify(R"(
ENTRY test {
  p = f32[4] parameter(0)
  c = f32[] constant(256)
  b = f32[4] broadcast(c), dimensions={}
  ROOT d = f32[4] divide(p, b)
})");
  EXPECT_EQ(root_expression(m), "multiply(parameter(0), broadcast(constant(0.00390625)))");
}

// XLA builds the power chain but never adds it to the module: nothing to do.
TEST(AlgsimpXlaA1, PowerOfPower) {
  simplify(entry_with_params("f32[7]", 3, R"(
  i = f32[7] power(p0, p1)
  ROOT r = f32[7] power(i, p2)
)"), false);
}

// The interpreter has no complex power: no values compared.
TEST(AlgsimpXlaA1, PowerOfPowerComplex) {
  simplify(entry_with_params("c64[7]", 3, R"(
  i = c64[7] power(p0, p1)
  ROOT r = c64[7] power(i, p2)
)"), false, false);
}

TEST(AlgsimpXlaA1, DivOneScalar) {
  const ir::Module m = simplify(R"(
ENTRY test {
  p = f32[] parameter(0)
  one = f32[] constant(1)
  ROOT d = f32[] divide(p, one)
})");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

TEST(AlgsimpXlaA1, DivOneArray) {
  const ir::Module m = simplify(R"(
ENTRY test {
  p = f32[2,2] parameter(0)
  one = f32[2,2] constant({{1, 1}, {1, 1}})
  ROOT d = f32[2,2] divide(p, one)
})");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

TEST(AlgsimpXlaA1, ComplexOfRealImagC) {
  const ir::Module m = simplify(R"(
ENTRY test {
  p = c64[2,2] parameter(0)
  re = f32[2,2] real(p)
  im = f32[2,2] imag(p)
  ROOT c = c64[2,2] complex(re, im)
})");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

TEST(AlgsimpXlaA1, RealOfComplex) {
  const ir::Module m = simplify(entry_with_params("f32[2,2]", 2, R"(
  c = c64[2,2] complex(p0, p1)
  ROOT re = f32[2,2] real(c)
)"));
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

TEST(AlgsimpXlaA1, ImagOfComplex) {
  const ir::Module m = simplify(entry_with_params("f32[2,2]", 2, R"(
  c = c64[2,2] complex(p0, p1)
  ROOT im = f32[2,2] imag(c)
)"));
  EXPECT_EQ(root_expression(m), "parameter(1)");
}

TEST(AlgsimpXlaA1, SelectMakeTuple) {
  const ir::Module m = simplify(entry_with_params("f32[]", 3, R"(
  t = (f32[], f32[]) tuple(p0, p1)
  g = f32[] get-tuple-element(t), index=1
  ROOT a = f32[] add(g, p2)
)"));
  EXPECT_EQ(root_expression(m), "add(parameter(1), parameter(2))");
}

// exp(A)/exp(B) -> exp(A-B), exp(A)*exp(B) -> exp(A+B), pow(exp(A), B) -> exp(A*B),
// ln(pow(A, B)) -> ln|A|*B, ln(sqrt(A)) -> ln(A)*0.5, ln(rsqrt(A)) -> ln(A)*-0.5:
// identities of real numbers that round differently (and overflow differently: exp(A)
// overflows where exp(A-B) does not), listed.
TEST(AlgsimpXlaA1, ExpDiv) {
  expect_listed_unchanged("ExpDiv", entry_with_params("f32[]", 2, R"(
  e0 = f32[] exponential(p0)
  e1 = f32[] exponential(p1)
  ROOT r = f32[] divide(e0, e1)
)"));
}

TEST(AlgsimpXlaA1, ExpMul) {
  expect_listed_unchanged("ExpMul", entry_with_params("f32[]", 2, R"(
  e0 = f32[] exponential(p0)
  e1 = f32[] exponential(p1)
  ROOT r = f32[] multiply(e0, e1)
)"));
}

TEST(AlgsimpXlaA1, PowExp) {
  expect_listed_unchanged("PowExp", entry_with_params("f32[]", 2, R"(
  e0 = f32[] exponential(p0)
  ROOT r = f32[] power(e0, p1)
)"));
}

TEST(AlgsimpXlaA1, LnPow) {
  expect_listed_unchanged("LnPow", entry_with_params("f32[]", 2, R"(
  w = f32[] power(p0, p1)
  ROOT r = f32[] log(w)
)"));
}

TEST(AlgsimpXlaA1, LnSqrt) {
  expect_listed_unchanged("LnSqrt", R"(
ENTRY test {
  p0 = f32[] parameter(0)
  s = f32[] sqrt(p0)
  ROOT r = f32[] log(s)
})");
}

TEST(AlgsimpXlaA1, LnRsqrt) {
  expect_listed_unchanged("LnRsqrt", R"(
ENTRY test {
  p0 = f32[] parameter(0)
  s = f32[] rsqrt(p0)
  ROOT r = f32[] log(s)
})");
}

}  // namespace
}  // namespace hlsgym::passes
