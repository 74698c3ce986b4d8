// algsimp: XLA's algebraic_simplifier_test.cc (openxla/xla 001918b7), its cases from
// EliminateConvertPairMultiOut to TransposeEqualsBitcast1, each a golden test (HLO in;
// the root pattern, or no change, out; the interpreter agreeing). XLA's C++-builder
// cases are written as HLO text, layouts included. A case hlsgym answers differently on
// purpose checks hlsgym's answer and names its line in xla_cases/deliberate_differences.txt;
// the layout-sensitive ones are such cases: hlsgym runs algsimp layout-insensitive, as
// XLA's CPU pipeline does before layout assignment.
#include <gtest/gtest.h>

#include "tests/passes/algsimp_golden.h"

namespace hlsgym::passes {
namespace {
using testing::expect_listed;
using testing::expect_listed_unchanged;
using testing::root_expression;
using testing::simplify;

TEST(AlgsimpXlaA3, EliminateConvertPairMultiOut) {
  const ir::Module m = simplify(R"(
ENTRY test {
  p = f16[1,14,14,64] parameter(0)
  c1 = f32[1,14,14,64] convert(p)
  c2 = f16[1,14,14,64] convert(c1)
  f = f16[1,14,14,64] floor(c2)
  ROOT t = (f32[1,14,14,64], f16[1,14,14,64], f16[1,14,14,64]) tuple(c1, c2, f)
})");
  EXPECT_EQ(root_expression(m), "tuple(convert(parameter(0)), parameter(0), floor(parameter(0)))");
}

TEST(AlgsimpXlaA3, RemoveCopy) {
  const ir::Module m = simplify(R"(
ENTRY test {
  p = f32[] parameter(0)
  ROOT c = f32[] copy(p)
})");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

// Layout-sensitive in XLA (copy(reshape(copy)) becomes one bitcast); hlsgym's copies
// are identities, the reshape stays a reshape (listed).
TEST(AlgsimpXlaA3, CopyOfReshapeOfCopyEqualsBitcast) {
  expect_listed("CopyOfReshapeOfCopyEqualsBitcast");
  const ir::Module m = simplify(R"(
ENTRY test {
  p = f32[1,14,14,64]{3,2,1,0} parameter(0)
  c = f32[1,14,14,64]{0,1,2,3} copy(p)
  r = f32[196,64]{0,1} reshape(c)
  ROOT c2 = f32[196,64]{1,0} copy(r)
})");
  EXPECT_EQ(root_expression(m), "reshape(parameter(0))");
}

TEST(AlgsimpXlaA3, ReshapeOfCopyEqualsBitcast) {
  expect_listed("ReshapeOfCopyEqualsBitcast");
  const ir::Module m = simplify(R"(
ENTRY test {
  p = f32[1,14,14,64]{3,2,1,0} parameter(0)
  c = f32[1,14,14,64]{0,1,2,3} copy(p)
  ROOT r = f32[196,64]{1,0} reshape(c)
})");
  EXPECT_EQ(root_expression(m), "reshape(parameter(0))");
}

TEST(AlgsimpXlaA3, CopyEqualsBitcast) {
  expect_listed("CopyEqualsBitcast");
  const ir::Module m = simplify(R"(
ENTRY test {
  p = f32[1,14,14,64]{0,1,2,3} parameter(0)
  ROOT c = f32[1,14,14,64]{1,2,0,3} copy(p)
})");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

TEST(AlgsimpXlaA3, RemoveUnaryConcatenate) {
  const ir::Module m = simplify(R"(
ENTRY test {
  p = f32[100] parameter(0)
  ROOT c = f32[100] concatenate(p), dimensions={0}
})");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

// One run, as XLA's test (the fixed point goes on to slice the parameter itself).
TEST(AlgsimpXlaA3, SliceReverse) {
  const ir::Module m = testing::run_golden("algsimp", R"(HloModule m
ENTRY test {
  param = f32[6,7,32] parameter(0)
  constant = f32[] constant(0)
  pad = f32[8,7,32] pad(param, constant), padding=1_1x0_0x0_0
  rev = f32[8,7,32] reverse(pad), dimensions={0,2}
  slice = f32[1,7,32] slice(rev), slice={[2:3:1], [0:7:1], [0:32:1]}
  ROOT tuple = (f32[1,7,32]) tuple(slice)
})", true);
  EXPECT_EQ(root_expression(m, 3), "tuple(reverse(slice(pad)))");
  const ir::InstrId slice = m.operand(m.operand(m.computation(m.entry()).root, 0), 0);
  const std::vector<ir::SliceDim> want = {{5, 6, 1}, {0, 7, 1}, {0, 32, 1}};
  EXPECT_EQ(m.attrs(slice).slice, want);
}

// One run, as XLA's test (the fixed point goes on to slice the parameter itself).
TEST(AlgsimpXlaA3, SliceReverseNonUnitEvenOddStrides) {
  const ir::Module m = testing::run_golden("algsimp", R"(HloModule m
ENTRY test {
  param = f32[6,7,32] parameter(0)
  constant = f32[] constant(0)
  pad = f32[8,7,32] pad(param, constant), padding=1_1x0_0x0_0
  rev = f32[8,7,32] reverse(pad), dimensions={0,1,2}
  slice = f32[1,2,7] slice(rev), slice={[2:3:2], [0:7:4], [0:32:5]}
  ROOT tuple = (f32[1,2,7]) tuple(slice)
})", true);
  EXPECT_EQ(root_expression(m, 3), "tuple(reverse(slice(pad)))");
  const ir::InstrId slice = m.operand(m.operand(m.computation(m.entry()).root, 0), 0);
  const std::vector<ir::SliceDim> want = {{5, 6, 2}, {2, 7, 4}, {1, 32, 5}};
  EXPECT_EQ(m.attrs(slice).slice, want);
}

TEST(AlgsimpXlaA3, RemoveEmptyConcatenateOperands) {
  const ir::Module m = simplify(R"(
ENTRY test {
  p0 = f32[100] parameter(0)
  p1 = f32[100] parameter(1)
  e = f32[0] constant({})
  s = f32[0] slice(p1), slice={[42:42]}
  ROOT c = f32[300] concatenate(e, p0, p0, s, p1), dimensions={0}
})");
  EXPECT_EQ(root_expression(m), "concatenate(parameter(0), parameter(0), parameter(1))");
}

// A float sum over a concatenate split into one reduce per operand adds in another
// order (listed).
TEST(AlgsimpXlaA3, SimplifyReduceOfConcat) {
  expect_listed_unchanged("SimplifyReduceOfConcat", R"(
add {
  p0 = f32[] parameter(0)
  p1 = f32[] parameter(1)
  ROOT a = f32[] add(p0, p1)
}
ENTRY test {
  p0 = f32[10,10,10] parameter(0)
  p1 = f32[10,10,10] parameter(1)
  p2 = f32[10,10,10] parameter(2)
  c = f32[10,30,10] concatenate(p0, p1, p2), dimensions={1}
  zero = f32[] constant(0)
  ROOT r = f32[10] reduce(c, zero), dimensions={1,2}, to_apply=add
})");
}

// No elements: nothing for the interpreter to compare.
TEST(AlgsimpXlaA3, OnlyEmptyConcatenateOperands) {
  const ir::Module m = simplify(R"(
ENTRY test {
  p0 = f32[100] parameter(0)
  e = f32[0] constant({})
  s = f32[0] slice(p0), slice={[42:42]}
  ROOT c = f32[0] concatenate(e, s), dimensions={0}
})", true, false);
  EXPECT_EQ(root_expression(m), "constant");
}

TEST(AlgsimpXlaA3, SimplifyConcatenateOfSlices) {
  const ir::Module m = simplify(R"(
ENTRY test {
  p0 = f32[100,99] parameter(0)
  p1 = f32[100,99] parameter(1)
  s0 = f32[50,10] slice(p0), slice={[0:50], [0:10]}
  s1 = f32[50,10] slice(p0), slice={[50:100], [10:20]}
  s2 = f32[50,10] slice(p0), slice={[50:100], [20:40:2]}
  s3 = f32[50,10] slice(p0), slice={[50:100], [40:50]}
  s4 = f32[50,10] slice(p0), slice={[50:100], [50:60]}
  s5 = f32[50,10] slice(p0), slice={[50:100], [60:70]}
  s6 = f32[50,10] slice(p0), slice={[50:100], [69:79]}
  s7 = f32[50,10] slice(p1), slice={[50:100], [79:89]}
  s8 = f32[50,10] slice(p1), slice={[50:100], [89:99]}
  ROOT c = f32[50,90] concatenate(s0, s1, s2, s3, s4, s5, s6, s7, s8), dimensions={1}
})");
  EXPECT_EQ(root_expression(m), "concatenate(slice(parameter(0)), slice(parameter(0)), slice(parameter(0)), "
                                "slice(parameter(0)), slice(parameter(0)), slice(parameter(1)))");
  const ir::InstrId root = m.computation(m.entry()).root;
  EXPECT_EQ(m.shape(m.operand(root, 3)).dims(), (std::vector<int64_t>{50, 30}));
  EXPECT_EQ(m.attrs(m.operand(root, 3)).slice[1].start, 40);
  EXPECT_EQ(m.shape(m.operand(root, 5)).dims(), (std::vector<int64_t>{50, 20}));
}

// XLA keeps a copy between layouts when layout-sensitive; hlsgym's copy is an identity
// (listed).
TEST(AlgsimpXlaA3, CopyWithDifferentLayout) {
  expect_listed("CopyWithDifferentLayout");
  const ir::Module m = simplify(R"(
ENTRY test {
  p = f32[2,2]{0,1} parameter(0)
  ROOT c = f32[2,2]{1,0} copy(p)
})");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

TEST(AlgsimpXlaA3, CopyWithSameLayout) {
  const ir::Module m = simplify(R"(
ENTRY test {
  p = f32[2,2]{0,1} parameter(0)
  ROOT c = f32[2,2]{0,1} copy(p)
})");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

TEST(AlgsimpXlaA3, NoBitcastAdded) {
  simplify(R"(
ENTRY test {
  p = f32[2,2]{0,1} parameter(0)
  ROOT r = f32[1,2,1,1,2,1]{0,1,2,3,4,5} reshape(p)
})", false);
}

// The rng's values are placeholders to the interpreter: nothing to compare.
TEST(AlgsimpXlaA3, ReshapeOfTransposeOfRngToRng) {
  const ir::Module m = simplify(R"(
ENTRY test {
  zero = f32[] constant(0)
  one = f32[] constant(1)
  rng = f32[2,2] rng(zero, one), distribution=rng_uniform
  t = f32[2,2] transpose(rng), dimensions={1,0}
  ROOT r = f32[4] reshape(t)
})", true, false);
  EXPECT_EQ(root_expression(m, 0), "rng");
  EXPECT_EQ(m.shape(m.computation(m.entry()).root).dims(), (std::vector<int64_t>{4}));
}

// Layout-sensitive in XLA (a reshape that only adds size-1 dims, in a matching layout,
// becomes a bitcast); hlsgym adds no bitcasts (listed).
TEST(AlgsimpXlaA3, ReshapeReplacedWithBitcast) {
  expect_listed_unchanged("ReshapeReplacedWithBitcast", R"(
ENTRY test {
  p = f32[2,2]{0,1} parameter(0)
  a = f32[1,2,1,1,2,1]{0,1,2,3,4,5} reshape(p)
  b = f32[1,4,1,1,1,1]{0,1,2,3,4,5} reshape(p)
  c = f32[1,2,1,1,2,1]{5,4,3,2,1,0} reshape(p)
  ROOT t = (f32[1,2,1,1,2,1]{0,1,2,3,4,5}, f32[1,4,1,1,1,1]{0,1,2,3,4,5}, f32[1,2,1,1,2,1]{5,4,3,2,1,0}) tuple(a, b, c)
})");
}

TEST(AlgsimpXlaA3, FailureToSinkReshapeDoesntAffectChangedBit) {
  simplify(R"(
ENTRY test {
  p = f32[2,2] parameter(0)
  z = f32[2,2] constant({{0, 0}, {0, 0}})
  a = f32[2,2] add(p, z)
  ROOT r = f32[4] reshape(a)
})");
}

TEST(AlgsimpXlaA3, FailureToSinkBroadcastDoesntAffectChangedBit) {
  simplify(R"(
ENTRY test {
  p = f32[2,2] parameter(0)
  z = f32[2,2] constant({{0, 0}, {0, 0}})
  a = f32[2,2] add(p, z)
  ROOT b = f32[2,2,2] broadcast(a), dimensions={0,1}
})");
}

// Layout-sensitive in XLA (a transpose that keeps the physical order is a bitcast);
// hlsgym keeps the transpose (listed).
TEST(AlgsimpXlaA3, TransposeEqualsBitcast1) {
  expect_listed_unchanged("TransposeEqualsBitcast1", R"(
ENTRY test {
  p = f32[50,14,14,64]{1,2,0,3} parameter(0)
  ROOT t = f32[14,14,50,64]{0,1,2,3} transpose(p), dimensions={1,2,0,3}
})");
}

}  // namespace
}  // namespace hlsgym::passes
