// algsimp (XLA AlgebraicSimplifier): golden rewrites per rule family, each checked on
// the resulting graph and against the interpreter on random inputs; the no-change
// case; differential checks on every design and small real module; the verifier and
// fixed-point convergence on all real modules; and the instruction count it saves.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "frontend/load.h"
#include "frontend/source_text.h"
#include "ir/features.h"
#include "ir/printer.h"
#include "ir/random_module.h"
#include "ir/verifier.h"
#include "passes/equivalence.h"
#include "passes/pipeline.h"
#include "passes/registry.h"
#include "tests/support/test_data.h"

namespace hlsgym::passes {
namespace {
using ir::Opcode;

ir::Module parse(const std::string& body) {
  ir::Module m = frontend::parse_hlo("HloModule t\n\n" + body, "algsimp_test.hlo");
  ir::verify(m);
  return m;
}

int count(const ir::Module& m, Opcode op) {
  return ir::extract_features(m).opcode_counts[static_cast<int>(op)];
}

Opcode root_opcode(const ir::Module& m) { return m.opcode(m.computation(m.entry()).root); }

// The interpreter gives the same outputs before and after on several random input sets.
void expect_equivalent(const ir::Module& before, const ir::Module& after) {
  EquivalenceOptions o;
  o.input_sets = 4;
  const EquivalenceResult r = check_equivalence(before, after, o);
  EXPECT_EQ(r.status, CheckStatus::kPassed) << r.detail << "\nafter:\n" << ir::print_module(after);
}

// Runs algsimp to its fixed point (plus nothing else), checks the verifier and the
// interpreter, and returns the result.
ir::Module simplify(const std::string& body, int* iterations = nullptr) {
  const ir::Module before = parse(body);
  ir::Module m = before;
  FixedPoint fix(Registry::global().create("algsimp"));
  EXPECT_TRUE(fix.run(m)) << body;
  auto issues = ir::verify_all(m);
  EXPECT_TRUE(issues.empty()) << issues.front().message << "\n" << ir::print_module(m);
  EXPECT_LT(fix.last_iterations(), 8);
  if (iterations) *iterations = fix.last_iterations();
  expect_equivalent(before, m);
  return m;
}

// algsimp must leave `body` untouched.
void expect_unchanged(const std::string& body) {
  ir::Module m = parse(body);
  const std::string before = ir::print_module(m);
  EXPECT_FALSE(Registry::global().create("algsimp")->run(m)) << body;
  EXPECT_EQ(ir::print_module(m), before);
}

bool contains(const ir::Module& m, const std::string& text) {
  return ir::print_module(m).find(text) != std::string::npos;
}

const char* kAdd = "add {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] add(x, y)\n}\n";
const char* kAddS = "adds {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n ROOT s = s32[] add(x, y)\n}\n";
const char* kMax = "maxf {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] maximum(x, y)\n}\n";

TEST(Algsimp, RegisteredWithXlasName) {
  PassPtr p = Registry::global().create("algsimp");
  EXPECT_EQ(p->name(), "algsimp");
  EXPECT_FALSE(p->reassociates_floats());
}

// ---- arithmetic ----
TEST(AlgsimpArithmetic, IdentitiesRemoveTheOperation) {
  ir::Module m = simplify("ENTRY e {\n a = f32[4] parameter(0)\n z = f32[] constant(-0)\n"
                          " zb = f32[4] broadcast(z), dimensions={}\n o = f32[] constant(1)\n"
                          " ob = f32[4] broadcast(o), dimensions={}\n s = f32[4] add(zb, a)\n"
                          " t = f32[4] multiply(ob, s)\n u = f32[4] divide(t, ob)\n p = f32[] constant(0)\n"
                          " pb = f32[4] broadcast(p), dimensions={}\n ROOT r = f32[4] subtract(u, pb)\n}\n");
  EXPECT_EQ(root_opcode(m), Opcode::kParameter);
  EXPECT_EQ(m.instruction_count(), 1u);
}

// x + (+0) is +0 for x = -0, and 1/x then tells +inf from -inf: +0 is dropped only where
// x cannot be -0 (here exp(x) >= +0, and an integer converted).
TEST(AlgsimpArithmetic, FloatPlusZeroKeepsTheSignOfZero) {
  expect_unchanged("ENTRY e {\n a = f32[4] parameter(0)\n z = f32[] constant(0)\n"
                   " zb = f32[4] broadcast(z), dimensions={}\n n = f32[4] negate(a)\n s = f32[4] add(n, zb)\n"
                   " d = f32[4] divide(a, s)\n ROOT r = (f32[4], f32[4]) tuple(d, s)\n}\n");
  // x - (-0) is x + (+0): it stays an add.
  ir::Module s = simplify("ENTRY e {\n a = f32[4] parameter(0)\n m = f32[] constant(-0)\n"
                          " mb = f32[4] broadcast(m), dimensions={}\n ROOT t = f32[4] subtract(a, mb)\n}\n");
  EXPECT_EQ(root_opcode(s), Opcode::kAdd);
  ir::Module m = simplify("ENTRY e {\n a = f32[4] parameter(0)\n i = s32[4] parameter(1)\n"
                          " z = f32[] constant(0)\n zb = f32[4] broadcast(z), dimensions={}\n"
                          " x = f32[4] exponential(a)\n s = f32[4] add(x, zb)\n c = f32[4] convert(i)\n"
                          " t = f32[4] add(zb, c)\n ROOT r = f32[4] multiply(s, t)\n}\n");
  EXPECT_EQ(count(m, Opcode::kAdd), 0);
}

TEST(AlgsimpArithmetic, IntegerOnlyRulesAndFloatsLeftAlone) {
  ir::Module m = simplify("ENTRY e {\n a = s32[4] parameter(0)\n z = s32[] constant(0)\n"
                          " zb = s32[4] broadcast(z), dimensions={}\n p = s32[4] multiply(a, zb)\n"
                          " d = s32[4] subtract(a, a)\n ROOT r = (s32[4], s32[4]) tuple(p, d)\n}\n");
  EXPECT_EQ(count(m, Opcode::kMultiply) + count(m, Opcode::kSubtract), 0);
  // 0 * NaN is NaN and x - x is NaN for x = inf: floats keep both.
  expect_unchanged("ENTRY e {\n a = f32[4] parameter(0)\n z = f32[] constant(0)\n"
                   " zb = f32[4] broadcast(z), dimensions={}\n p = f32[4] multiply(a, zb)\n"
                   " d = f32[4] subtract(a, a)\n ROOT r = (f32[4], f32[4]) tuple(p, d)\n}\n");
}

TEST(AlgsimpArithmetic, ConstantsMoveRightAndIntegerConstantsFold) {
  ir::Module m = simplify("ENTRY e {\n a = s32[4] parameter(0)\n c = s32[] constant(3)\n"
                          " cb = s32[4] broadcast(c), dimensions={}\n d = s32[] constant(4)\n"
                          " db = s32[4] broadcast(d), dimensions={}\n s = s32[4] add(cb, a)\n"
                          " ROOT r = s32[4] add(s, db)\n}\n");
  EXPECT_EQ(count(m, Opcode::kAdd), 1);
  EXPECT_TRUE(contains(m, "constant(7)")) << ir::print_module(m);
  const ir::InstrId root = m.computation(m.entry()).root;
  EXPECT_EQ(m.opcode(m.operand(root, 0)), Opcode::kParameter);
  // x - c becomes x + (-c), then folds: (x - 5) + 5 -> x.
  ir::Module n = simplify("ENTRY e {\n a = s32[4] parameter(0)\n c = s32[] constant(5)\n"
                          " cb = s32[4] broadcast(c), dimensions={}\n s = s32[4] subtract(a, cb)\n"
                          " ROOT r = s32[4] add(s, cb)\n}\n");
  EXPECT_EQ(root_opcode(n), Opcode::kParameter);
}

// Every s8 value (an iota of 256 wraps through all of them) divided and reduced modulo
// powers of two: the shift/and forms must agree with truncating division exactly.
TEST(AlgsimpArithmetic, IntegerDivideAndRemainderByPowersOfTwo) {
  for (const char* type : {"s8", "u8"}) {
    for (const char* op : {"divide", "remainder"}) {
      for (int k : {1, 2, 64}) {
        SCOPED_TRACE(std::string(type) + " " + op + " " + std::to_string(k));
        const std::string t = type;
        ir::Module m = simplify("ENTRY e {\n i = " + t + "[256] iota(), iota_dimension=0\n p = " + t +
                                "[256] parameter(0)\n x = " + t + "[256] add(i, p)\n c = " + t + "[] constant(" +
                                std::to_string(k) + ")\n cb = " + t + "[256] broadcast(c), dimensions={}\n ROOT r = " +
                                t + "[256] " + op + "(x, cb)\n}\n");
        EXPECT_EQ(count(m, Opcode::kDivide) + count(m, Opcode::kRemainder), 0) << ir::print_module(m);
      }
    }
  }
  // Divisors that are not positive powers of two stay.
  expect_unchanged("ENTRY e {\n a = s32[4] parameter(0)\n c = s32[] constant(-4)\n"
                   " cb = s32[4] broadcast(c), dimensions={}\n d = s32[] constant(6)\n"
                   " db = s32[4] broadcast(d), dimensions={}\n q = s32[4] divide(a, cb)\n"
                   " ROOT r = s32[4] remainder(q, db)\n}\n");
}

TEST(AlgsimpArithmetic, FloatDivideByPowerOfTwoIsAnExactMultiply) {
  ir::Module m = simplify("ENTRY e {\n a = f32[8] parameter(0)\n c = f32[] constant(-0.25)\n"
                          " cb = f32[8] broadcast(c), dimensions={}\n ROOT r = f32[8] divide(a, cb)\n}\n");
  EXPECT_EQ(root_opcode(m), Opcode::kMultiply);
  EXPECT_TRUE(contains(m, "constant(-4)")) << ir::print_module(m);
  // 1/3 is not exact; 2^-149 has no representable reciprocal.
  expect_unchanged("ENTRY e {\n a = f32[8] parameter(0)\n c = f32[] constant(3)\n"
                   " cb = f32[8] broadcast(c), dimensions={}\n ROOT r = f32[8] divide(a, cb)\n}\n");
  expect_unchanged("ENTRY e {\n a = f32[8] parameter(0)\n c = f32[] constant(1e-45)\n"
                   " cb = f32[8] broadcast(c), dimensions={}\n ROOT r = f32[8] divide(a, cb)\n}\n");
}

TEST(AlgsimpArithmetic, PowerWithSmallExponents) {
  ir::Module m = simplify("ENTRY e {\n a = s32[4] parameter(0)\n c = s32[] constant(2)\n"
                          " cb = s32[4] broadcast(c), dimensions={}\n ROOT r = s32[4] power(a, cb)\n}\n");
  EXPECT_EQ(root_opcode(m), Opcode::kMultiply);
  ir::Module f = simplify("ENTRY e {\n a = f32[4] parameter(0)\n z = f32[] constant(0)\n"
                          " zb = f32[4] broadcast(z), dimensions={}\n o = f32[] constant(1)\n"
                          " ob = f32[4] broadcast(o), dimensions={}\n p0 = f32[4] power(a, zb)\n"
                          " p1 = f32[4] power(a, ob)\n ROOT r = f32[4] add(p0, p1)\n}\n");
  EXPECT_EQ(count(f, Opcode::kPower), 0);
  ir::Module h = simplify("ENTRY e {\n a = f16[4] parameter(0)\n c = f16[] constant(-1)\n"
                          " cb = f16[4] broadcast(c), dimensions={}\n ROOT r = f16[4] power(a, cb)\n}\n");
  EXPECT_EQ(root_opcode(h), Opcode::kDivide);
  // f32 pow(x, 2) differs from x*x in the last bit of subnormal results: left alone.
  expect_unchanged("ENTRY e {\n a = f32[4] parameter(0)\n c = f32[] constant(2)\n"
                   " cb = f32[4] broadcast(c), dimensions={}\n ROOT r = f32[4] power(a, cb)\n}\n");
}

TEST(AlgsimpArithmetic, DoubleNegationCancels) {
  ir::Module m = simplify("ENTRY e {\n a = f32[4] parameter(0)\n n = f32[4] negate(a)\n"
                          " ROOT r = f32[4] negate(n)\n}\n");
  EXPECT_EQ(root_opcode(m), Opcode::kParameter);
}

// ---- unary, logic, compare, select, convert ----
TEST(AlgsimpLogic, NotAndOrXorIdentities) {
  ir::Module m = simplify("ENTRY e {\n p = pred[4] parameter(0)\n q = pred[4] parameter(1)\n"
                          " t = pred[] constant(true)\n tb = pred[4] broadcast(t), dimensions={}\n"
                          " f = pred[] constant(false)\n fb = pred[4] broadcast(f), dimensions={}\n"
                          " n = pred[4] not(p)\n nn = pred[4] not(n)\n a = pred[4] and(nn, tb)\n"
                          " o = pred[4] or(fb, a)\n x = pred[4] xor(o, fb)\n w = pred[4] or(q, tb)\n"
                          " ROOT r = (pred[4], pred[4]) tuple(x, w)\n}\n");
  EXPECT_EQ(count(m, Opcode::kNot) + count(m, Opcode::kAnd) + count(m, Opcode::kOr) + count(m, Opcode::kXor), 0);
  ir::Module s = simplify("ENTRY e {\n a = s32[4] parameter(0)\n m = s32[] constant(-1)\n"
                          " mb = s32[4] broadcast(m), dimensions={}\n x = s32[4] and(a, mb)\n"
                          " y = s32[4] and(x, x)\n ROOT r = s32[4] xor(y, y)\n}\n");
  EXPECT_EQ(root_opcode(s), Opcode::kBroadcast);
}

TEST(AlgsimpLogic, ComparesWithAKnownAnswer) {
  ir::Module m = simplify("ENTRY e {\n a = s32[4] parameter(0)\n u = u32[4] parameter(1)\n"
                          " z = u32[] constant(0)\n zb = u32[4] broadcast(z), dimensions={}\n"
                          " i = s32[4] iota(), iota_dimension=0\n sz = s32[] constant(0)\n"
                          " szb = s32[4] broadcast(sz), dimensions={}\n c0 = pred[4] compare(a, a), direction=LE\n"
                          " c1 = pred[4] compare(u, zb), direction=LT\n c2 = pred[4] compare(i, szb), direction=GE\n"
                          " c3 = pred[4] compare(zb, u), direction=LE\n"
                          " ROOT r = (pred[4], pred[4], pred[4], pred[4]) tuple(c0, c1, c2, c3)\n}\n");
  EXPECT_EQ(count(m, Opcode::kCompare), 0);
  // NaN != NaN: a float compared with itself stays.
  expect_unchanged("ENTRY e {\n a = f32[4] parameter(0)\n ROOT r = pred[4] compare(a, a), direction=EQ\n}\n");
}

TEST(AlgsimpLogic, MaxMinWithExtremesAndClamp) {
  ir::Module m = simplify("ENTRY e {\n a = s32[4] parameter(0)\n lo = s32[] constant(-2147483648)\n"
                          " lob = s32[4] broadcast(lo), dimensions={}\n hi = s32[] constant(2147483647)\n"
                          " hib = s32[4] broadcast(hi), dimensions={}\n x = s32[4] maximum(a, lob)\n"
                          " ROOT r = s32[4] minimum(hib, x)\n}\n");
  EXPECT_EQ(root_opcode(m), Opcode::kParameter);
  // relu6: max(min(x, 6), 0) -> clamp(0, x, 6), floats included.
  ir::Module c = simplify("ENTRY e {\n a = f32[4] parameter(0)\n z = f32[] constant(0)\n"
                          " zb = f32[4] broadcast(z), dimensions={}\n s = f32[] constant(6)\n"
                          " sb = f32[4] broadcast(s), dimensions={}\n m = f32[4] minimum(sb, a)\n"
                          " ROOT r = f32[4] maximum(m, zb)\n}\n");
  EXPECT_EQ(root_opcode(c), Opcode::kClamp);
  // max(+0, -0) is +0 but clamp(+0, -0, 6) is -0: a zero bound must not come first.
  expect_unchanged("ENTRY e {\n a = f32[4] parameter(0)\n z = f32[] constant(0)\n"
                   " zb = f32[4] broadcast(z), dimensions={}\n s = f32[] constant(6)\n"
                   " sb = f32[4] broadcast(s), dimensions={}\n m = f32[4] minimum(a, sb)\n"
                   " ROOT r = f32[4] maximum(zb, m)\n}\n");
  // minmax_propagate_nan=false on CPU: the float extremes are not used.
  expect_unchanged("ENTRY e {\n a = f32[4] parameter(0)\n lo = f32[] constant(-inf)\n"
                   " lob = f32[4] broadcast(lo), dimensions={}\n ROOT r = f32[4] maximum(a, lob)\n}\n");
}

TEST(AlgsimpLogic, SelectAbsAndConvert) {
  ir::Module m = simplify("ENTRY e {\n p = pred[4] parameter(0)\n a = f32[4] parameter(1)\n"
                          " b = f32[4] parameter(2)\n t = pred[] constant(true)\n"
                          " tb = pred[4] broadcast(t), dimensions={}\n s0 = f32[4] select(tb, a, b)\n"
                          " s1 = f32[4] select(p, s0, s0)\n n = pred[4] not(p)\n s2 = f32[4] select(n, s1, b)\n"
                          " x = f32[4] abs(s2)\n ax = f32[4] abs(x)\n ROOT r = f32[4] convert(ax)\n}\n");
  EXPECT_EQ(count(m, Opcode::kNot), 0);
  EXPECT_EQ(count(m, Opcode::kSelect), 1);
  EXPECT_EQ(count(m, Opcode::kAbs), 1);
  EXPECT_EQ(count(m, Opcode::kConvert), 0);
  ir::Module c = simplify("ENTRY e {\n a = s8[4] parameter(0)\n w = s32[4] convert(a)\n"
                          " n = s8[4] convert(w)\n h = f16[4] parameter(1)\n f = f32[4] convert(h)\n"
                          " d = f64[4] convert(f)\n u = u32[4] parameter(2)\n au = u32[4] abs(u)\n"
                          " ROOT r = (s8[4], f64[4], u32[4]) tuple(n, d, au)\n}\n");
  EXPECT_EQ(count(c, Opcode::kConvert), 1);  // f16 -> f64 directly
  EXPECT_EQ(count(c, Opcode::kAbs), 0);
  // Narrowing in the middle loses values: kept.
  expect_unchanged("ENTRY e {\n a = f32[4] parameter(0)\n w = s32[4] convert(a)\n"
                   " ROOT n = f32[4] convert(w)\n}\n");
}

// ---- data movement ----
TEST(AlgsimpMovement, BroadcastReshapeTransposeChains) {
  ir::Module m = simplify("ENTRY e {\n a = f32[3] parameter(0)\n b = f32[3,4] broadcast(a), dimensions={0}\n"
                          " c = f32[2,3,4] broadcast(b), dimensions={1,2}\n r1 = f32[6,4] reshape(c)\n"
                          " r2 = f32[24] reshape(r1)\n t1 = f32[4,6] transpose(r1), dimensions={1,0}\n"
                          " t2 = f32[6,4] transpose(t1), dimensions={1,0}\n"
                          " ROOT r = (f32[24], f32[6,4]) tuple(r2, t2)\n}\n");
  EXPECT_EQ(count(m, Opcode::kBroadcast), 1);
  EXPECT_EQ(count(m, Opcode::kTranspose), 0);
  EXPECT_EQ(count(m, Opcode::kReshape), 2);
  ir::Module d = simplify("ENTRY e {\n a = f32[3,1] parameter(0)\n t = f32[1,3] transpose(a), dimensions={1,0}\n"
                          " b = f32[1,3,1] broadcast(t), dimensions={0,1}\n ROOT r = f32[1,3,1] copy(b)\n}\n");
  EXPECT_EQ(count(d, Opcode::kTranspose) + count(d, Opcode::kBroadcast) + count(d, Opcode::kCopy), 0);
  EXPECT_EQ(root_opcode(d), Opcode::kReshape);
  // broadcast(iota) is an iota; broadcast(reshape) that only inserts 1-dims broadcasts the
  // original; a one-element broadcast feeding a reshape becomes a scalar broadcast.
  ir::Module e = simplify("ENTRY e {\n i = s32[4] iota(), iota_dimension=0\n b = s32[3,4] broadcast(i), dimensions={1}\n"
                          " a = f32[5] parameter(0)\n r = f32[1,5,1] reshape(a)\n"
                          " c = f32[2,1,5,1] broadcast(r), dimensions={1,2,3}\n s = f32[1] parameter(1)\n"
                          " sb = f32[3,1] broadcast(s), dimensions={1}\n sr = f32[3] reshape(sb)\n"
                          " ROOT t = (s32[3,4], f32[2,1,5,1], f32[3]) tuple(b, c, sr)\n}\n");
  EXPECT_EQ(count(e, Opcode::kIota), 1);
  EXPECT_TRUE(contains(e, "iota(), iota_dimension=1")) << ir::print_module(e);
  EXPECT_TRUE(contains(e, "broadcast(a), dimensions={2}")) << ir::print_module(e);
  EXPECT_EQ(count(e, Opcode::kReshape), 1);  // f32[1] -> f32[] for the scalar broadcast
}

TEST(AlgsimpMovement, SlicesOfSlicesPadsBroadcastsConcatsAndReverses) {
  ir::Module m = simplify("ENTRY e {\n a = s32[10] parameter(0)\n b = s32[6] parameter(1)\n"
                          " s1 = s32[8] slice(a), slice={[1:9]}\n s2 = s32[3] slice(s1), slice={[2:8:2]}\n"
                          " z = s32[] constant(7)\n p = s32[14] pad(a, z), padding=2_2\n"
                          " s3 = s32[4] slice(p), slice={[3:7]}\n s4 = s32[2] slice(p), slice={[12:14]}\n"
                          " c = s32[16] concatenate(a, b), dimensions={0}\n s5 = s32[6] slice(c), slice={[10:16]}\n"
                          " rv = s32[10] reverse(a), dimensions={0}\n s6 = s32[3] slice(rv), slice={[0:3]}\n"
                          " bc = s32[10,5] broadcast(a), dimensions={0}\n s7 = s32[2,5] slice(bc), slice={[4:6], [0:5]}\n"
                          " ROOT r = (s32[3], s32[4], s32[2], s32[6], s32[3], s32[2,5]) tuple(s2, s3, s4, s5, s6, s7)\n}\n");
  EXPECT_EQ(count(m, Opcode::kPad) + count(m, Opcode::kConcatenate), 0) << ir::print_module(m);
  const ir::InstrId root = m.computation(m.entry()).root;
  EXPECT_EQ(m.opcode(m.operand(root, 0)), Opcode::kSlice);
  EXPECT_EQ(m.opcode(m.operand(m.operand(root, 0), 0)), Opcode::kParameter);
  EXPECT_EQ(m.opcode(m.operand(root, 2)), Opcode::kBroadcast);  // all padding
  EXPECT_EQ(m.opcode(m.operand(root, 3)), Opcode::kParameter);  // b itself
  EXPECT_EQ(m.opcode(m.operand(root, 4)), Opcode::kReverse);
  EXPECT_EQ(m.opcode(m.operand(root, 5)), Opcode::kBroadcast);
}

TEST(AlgsimpMovement, ConcatenateFlattensDropsEmptiesAndMergesSlices) {
  ir::Module m = simplify("ENTRY e {\n a = f32[6,2] parameter(0)\n e0 = f32[0,2] parameter(1)\n"
                          " s1 = f32[2,2] slice(a), slice={[0:2], [0:2]}\n s2 = f32[3,2] slice(a), slice={[2:5], [0:2]}\n"
                          " s3 = f32[1,2] slice(a), slice={[5:6], [0:2]}\n c1 = f32[4,2] concatenate(s2, s3), dimensions={0}\n"
                          " ROOT c = f32[6,2] concatenate(s1, e0, c1), dimensions={0}\n}\n");
  EXPECT_EQ(root_opcode(m), Opcode::kParameter);
  ir::Module one = simplify("ENTRY e {\n a = f32[6,2] parameter(0)\n ROOT c = f32[6,2] concatenate(a), dimensions={0}\n}\n");
  EXPECT_EQ(root_opcode(one), Opcode::kParameter);
}

TEST(AlgsimpMovement, PadReverseAndTupleIdentities) {
  ir::Module m = simplify("ENTRY e {\n a = f32[4,1] parameter(0)\n z = f32[] constant(0)\n"
                          " p = f32[4,1] pad(a, z), padding=0_0x0_0\n r1 = f32[4,1] reverse(p), dimensions={0}\n"
                          " r2 = f32[4,1] reverse(r1), dimensions={0,1}\n t = (f32[4,1], f32[]) tuple(r2, z)\n"
                          " ROOT g = f32[4,1] get-tuple-element(t), index=0\n}\n");
  EXPECT_EQ(root_opcode(m), Opcode::kParameter);
}

TEST(AlgsimpMovement, DynamicSlicesWithConstantOrFullIndices) {
  // Start 5 for a size-3 slice of 6 clamps to 3, exactly like the interpreter.
  ir::Module m = simplify("ENTRY e {\n a = s32[6,4] parameter(0)\n i = s32[] constant(5)\n"
                          " j = s32[] constant(-1)\n d = s32[3,2] dynamic-slice(a, i, j), dynamic_slice_sizes={3,2}\n"
                          " k = s32[] parameter(1)\n f = s32[6,4] dynamic-slice(a, k, k), dynamic_slice_sizes={6,4}\n"
                          " u = s32[6,4] parameter(2)\n w = s32[6,4] dynamic-update-slice(f, u, k, k)\n"
                          " ROOT r = (s32[3,2], s32[6,4]) tuple(d, w)\n}\n");
  EXPECT_EQ(count(m, Opcode::kDynamicSlice) + count(m, Opcode::kDynamicUpdateSlice), 0);
  EXPECT_TRUE(contains(m, "slice={[3:6], [0:2]}")) << ir::print_module(m);
}

TEST(AlgsimpMovement, ElementwiseSinksThroughBroadcastsAndScalarBroadcastsFold) {
  ir::Module m = simplify("ENTRY e {\n a = f32[3] parameter(0)\n b = f32[3] parameter(1)\n"
                          " ab = f32[3,5] broadcast(a), dimensions={0}\n bb = f32[3,5] broadcast(b), dimensions={0}\n"
                          " c = f32[] constant(2)\n cb = f32[3,5] broadcast(c), dimensions={}\n"
                          " s = f32[3,5] add(ab, bb)\n ROOT t = f32[3,5] multiply(s, cb)\n}\n");
  EXPECT_EQ(root_opcode(m), Opcode::kBroadcast);
  EXPECT_EQ(count(m, Opcode::kBroadcast), 2);  // the result and the scalar at f32[3]
  ir::Module s = simplify("ENTRY e {\n c = f32[] parameter(0)\n b = f32[2,6] broadcast(c), dimensions={}\n"
                          " r1 = f32[12] reshape(b)\n t = f32[6,2] transpose(b), dimensions={1,0}\n"
                          " sl = f32[3] slice(r1), slice={[0:3]}\n rv = f32[12] reverse(r1), dimensions={0}\n"
                          " ROOT r = (f32[6,2], f32[3], f32[12]) tuple(t, sl, rv)\n}\n");
  EXPECT_EQ(count(s, Opcode::kReshape) + count(s, Opcode::kTranspose) + count(s, Opcode::kSlice) +
                count(s, Opcode::kReverse), 0);
  ir::Module k = simplify("ENTRY e {\n a = s32[2,3] parameter(0)\n"
                          " c = s32[2,3] constant({ {4, 4, 4}, {4, 4, 4} })\n ROOT r = s32[2,3] add(a, c)\n}\n");
  EXPECT_TRUE(contains(k, "s32[] constant(4)")) << ir::print_module(k);
}

// ---- reduce, reduce-window, dot ----
TEST(AlgsimpReduceDot, ReducesThatCollapse) {
  ir::Module m = simplify(std::string(kAdd) + "ENTRY e {\n a = f32[4,1] parameter(0)\n e0 = f32[0,3] parameter(1)\n"
                          " z = f32[] constant(-0)\n r1 = f32[4] reduce(a, z), dimensions={1}, to_apply=add\n"
                          " r2 = f32[3] reduce(e0, z), dimensions={0}, to_apply=add\n"
                          " ROOT r = (f32[4], f32[3]) tuple(r1, r2)\n}\n");
  EXPECT_EQ(count(m, Opcode::kReduce), 0);
  // init 1 for an add is not neutral (each output is 1 + x), nor is +0 for a float that
  // may be -0: left as reduces.
  expect_unchanged(std::string(kAdd) + "ENTRY e {\n a = f32[4,1] parameter(0)\n o = f32[] constant(1)\n"
                   " r1 = f32[4] reduce(a, o), dimensions={1}, to_apply=add\n z = f32[] constant(0)\n"
                   " r2 = f32[4] reduce(a, z), dimensions={1}, to_apply=add\n"
                   " ROOT r = (f32[4], f32[4]) tuple(r1, r2)\n}\n");
}

TEST(AlgsimpReduceDot, ReduceOfTransposeAndReshape) {
  ir::Module m = simplify(std::string(kAdd) + "ENTRY e {\n a = f32[3,4,5] parameter(0)\n z = f32[] constant(0)\n"
                          " t = f32[4,3,5] transpose(a), dimensions={1,0,2}\n"
                          " r1 = f32[3,5] reduce(t, z), dimensions={0}, to_apply=add\n"
                          " s = f32[12,5] reshape(a)\n r2 = f32[5] reduce(s, z), dimensions={0}, to_apply=add\n"
                          " ROOT r = (f32[3,5], f32[5]) tuple(r1, r2)\n}\n");
  EXPECT_EQ(count(m, Opcode::kTranspose) + count(m, Opcode::kReshape), 0) << ir::print_module(m);
  EXPECT_TRUE(contains(m, "dimensions={0,1}")) << ir::print_module(m);
  // Float add reduced in a different order would round differently: kept.
  expect_unchanged(std::string(kAdd) + "ENTRY e {\n a = f32[3,4] parameter(0)\n z = f32[] constant(0)\n"
                   " t = f32[4,3] transpose(a), dimensions={1,0}\n"
                   " ROOT r = f32[] reduce(t, z), dimensions={0,1}, to_apply=add\n}\n");
  ir::Module n = simplify(std::string(kAddS) + "ENTRY e {\n a = s32[3,4] parameter(0)\n z = s32[] constant(0)\n"
                          " t = s32[4,3] transpose(a), dimensions={1,0}\n"
                          " ROOT r = s32[] reduce(t, z), dimensions={0,1}, to_apply=adds\n}\n");
  EXPECT_EQ(count(n, Opcode::kTranspose), 0);
}

TEST(AlgsimpReduceDot, OneByOneReduceWindow) {
  ir::Module m = simplify(std::string(kMax) + "ENTRY e {\n a = f32[4,3] parameter(0)\n z = f32[] constant(0.5)\n"
                          " ROOT r = f32[4,3] reduce-window(a, z), window={size=1x1}, to_apply=maxf\n}\n");
  EXPECT_EQ(root_opcode(m), Opcode::kMaximum);
  ir::Module n = simplify(std::string(kMax) + "ENTRY e {\n a = f32[4,3] parameter(0)\n z = f32[] constant(-inf)\n"
                          " ROOT r = f32[4,3] reduce-window(a, z), window={size=1x1}, to_apply=maxf\n}\n");
  // A float max keeps its -inf as XLA does under minmax_propagate_nan=false (its
  // TrivialReduceWindow_Max); an integer max drops its identity.
  EXPECT_EQ(root_opcode(n), Opcode::kMaximum);
  ir::Module k = simplify("maxs {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n ROOT m = s32[] maximum(x, y)\n}\n"
                          "ENTRY e {\n a = s32[4,3] parameter(0)\n z = s32[] constant(-2147483648)\n"
                          " ROOT r = s32[4,3] reduce-window(a, z), window={size=1x1}, to_apply=maxs\n}\n");
  EXPECT_EQ(root_opcode(k), Opcode::kParameter);
}

TEST(AlgsimpReduceDot, OuterProductDotsAndEmptyDots) {
  ir::Module m = simplify("ENTRY e {\n a = s32[3] parameter(0)\n b = s32[4] parameter(1)\n"
                          " ROOT d = s32[3,4] dot(a, b)\n}\n");
  EXPECT_EQ(root_opcode(m), Opcode::kMultiply);
  ir::Module bt = simplify("ENTRY e {\n a = s32[2,3] parameter(0)\n b = s32[4,2] parameter(1)\n"
                           " ROOT d = s32[2,3,4] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={1}\n}\n");
  EXPECT_EQ(root_opcode(bt), Opcode::kMultiply);
  EXPECT_EQ(count(bt, Opcode::kTranspose), 1);
  ir::Module e = simplify("ENTRY e {\n a = s32[3,0] parameter(0)\n b = s32[0,4] parameter(1)\n"
                          " ROOT d = s32[3,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
  EXPECT_EQ(root_opcode(e), Opcode::kBroadcast);
  // A float dot adds its product to +0.0 (0 * -1 gives +0, multiply gives -0): kept; and
  // a real contraction is left to the dot.
  expect_unchanged("ENTRY e {\n a = f32[3] parameter(0)\n b = f32[4] parameter(1)\n"
                   " ROOT d = f32[3,4] dot(a, b)\n}\n");
  expect_unchanged("ENTRY e {\n a = f32[3,2] parameter(0)\n b = f32[2,4] parameter(1)\n"
                   " ROOT d = f32[3,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
}

// ---- whole modules ----
TEST(Algsimp, NoChangeLeavesTheModuleIdentical) {
  expect_unchanged(std::string(kAdd) + "ENTRY e {\n a = f32[4] parameter(0)\n b = f32[4] parameter(1)\n"
                   " c = f32[] constant(3)\n cb = f32[4] broadcast(c), dimensions={}\n m = f32[4] multiply(a, b)\n"
                   " d = f32[4] divide(m, cb)\n s = f32[4] subtract(d, a)\n z = f32[] constant(0)\n"
                   " r = f32[] reduce(s, z), dimensions={0}, to_apply=add\n t = f32[2] slice(s), slice={[1:3]}\n"
                   " ROOT o = (f32[], f32[2]) tuple(r, t)\n}\n");
}

std::vector<ir::Module> small_modules() {
  std::vector<ir::Module> modules;
  for (const auto& d : testing::all_designs()) modules.push_back(frontend::load_design(d.string()).module);
  for (const auto& f : testing::all_hlo_files()) {
    ir::Module m = frontend::parse_hlo(frontend::read_file(f.string()), f.string());
    const ir::Features ft = ir::extract_features(m);
    if (ft.instructions <= 300 && ft.max_tensor_elements <= 20000 && ft.while_loops == 0) modules.push_back(std::move(m));
  }
  return modules;
}

TEST(Algsimp, DifferentialOnDesignsAndSmallRealModules) {
  const auto modules = small_modules();
  ASSERT_GE(modules.size(), 40u);
  int changed = 0;
  for (const auto& original : modules) {
    SCOPED_TRACE(original.name());
    ir::Module m = original;
    FixedPoint fix(Registry::global().create("algsimp"));
    changed += fix.run(m);
    EXPECT_LE(fix.last_iterations(), 6);
    auto issues = ir::verify_all(m);
    ASSERT_TRUE(issues.empty()) << issues.front().message;
    EquivalenceOptions o;
    o.input_sets = 3;
    const EquivalenceResult r = check_equivalence(original, m, o);
    EXPECT_NE(r.status, CheckStatus::kFailed) << r.detail;
  }
  EXPECT_GT(changed, 10);
}

// Random graphs biased towards the simplifier's patterns (s32 and f32, while loops,
// calls): algsimp to its fixed point keeps every output, in a few runs.
TEST(Algsimp, FixedPointOnRandomGraphs) {
  int changed = 0;
  for (uint64_t seed = 1; seed <= 3000; ++seed) {
    ir::RandomModuleOptions opts;
    opts.seed = seed;
    opts.instructions = 15 + static_cast<int>(seed % 60);
    opts.integers = seed % 6 != 0;
    opts.floats = seed % 5 != 0;
    if (seed % 2) {  // wider and deeper graphs
      opts.max_rank = 2 + static_cast<int>(seed % 3);
      opts.max_dim = 2 + static_cast<int>(seed % 5);
      opts.instructions = 30 + static_cast<int>(seed % 100);
    }
    const ir::Module original = ir::random_module(opts);
    ir::Module m = original;
    FixedPoint fix(Registry::global().create("algsimp"));
    changed += fix.run(m);
    ASSERT_LE(fix.last_iterations(), 6) << "seed " << seed;  // no rule undoes another
    auto issues = ir::verify_all(m);
    ASSERT_TRUE(issues.empty()) << "seed " << seed << ": " << issues.front().message;
    EquivalenceOptions o;
    o.seed = seed;
    o.input_sets = 3;
    const EquivalenceResult r = check_equivalence(original, m, o);
    ASSERT_NE(r.status, CheckStatus::kFailed) << "seed " << seed << ": " << r.detail << "\nbefore:\n"
                                              << ir::print_module(original) << "\nafter:\n" << ir::print_module(m);
  }
  EXPECT_GT(changed, 2000);
}

// Every real file: verifier clean after each run, a fixed point within a few runs (the
// rules never undo each other), and fewer instructions overall.
TEST(Algsimp, AllRealModulesVerifyConvergeAndShrink) {
  int64_t before_total = 0, after_total = 0, shrunk = 0, files = 0;
  int max_iterations = 0;
  for (const auto& f : testing::all_hlo_files()) {
    SCOPED_TRACE(f.string());
    ir::Module m = frontend::parse_hlo(frontend::read_file(f.string()), f.string());
    ++files;
    const int64_t before = static_cast<int64_t>(m.instruction_count());
    FixedPoint fix(Registry::global().create("algsimp"), 25);
    fix.run(m);
    EXPECT_LE(fix.last_iterations(), 6);
    max_iterations = std::max(max_iterations, fix.last_iterations());
    auto issues = ir::verify_all(m);
    ASSERT_TRUE(issues.empty()) << issues.front().message;
    const int64_t after = static_cast<int64_t>(m.instruction_count());
    before_total += before;
    after_total += after;
    shrunk += after < before;
  }
  EXPECT_EQ(files, 108);
  EXPECT_GE(shrunk, 20) << "files whose instruction count algsimp reduced";
  EXPECT_LT(after_total, before_total);
  std::printf("algsimp: at most %d runs; %lld of %lld real files shrink, %lld -> %lld instructions\n", max_iterations,
              static_cast<long long>(shrunk), static_cast<long long>(files), static_cast<long long>(before_total),
              static_cast<long long>(after_total));
}

}  // namespace
}  // namespace hlsgym::passes
