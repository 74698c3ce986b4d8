// AccumulationOrder::kHardware: reductions and contractions combine their terms in the
// element type and in the FPGA microarchitecture's order (hwmodel/timing.h "accumulate",
// hwmodel/microarch_ops.cc plan_split, rtl/verilog_units.cc emit_accumulate / emit_tree). Every
// expected value is worked out by hand in the comment beside it; the values are chosen so
// that the reference order (row-major, float dot/convolution in double), a sequential
// order, a wrong chunking or a wrong tree each give a different answer.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"
#include "ir/random_module.h"
#include "ir/verifier.h"

namespace hlsgym::ir {
namespace {

const char* kAddF32 = "addf {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT r = f32[] add(x, y)\n}\n";
const char* kAddS32 = "adds {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n ROOT r = s32[] add(x, y)\n}\n";

EvalOptions hardware(int64_t split) {
  EvalOptions o;
  o.accumulation = AccumulationOrder::kHardware;
  o.split_of = [split](InstrId) { return split; };
  return o;
}

Literal array(const std::string& shape, const std::vector<double>& values) {
  Literal l(frontend::parse_shape(shape));
  for (size_t k = 0; k < values.size(); ++k) l.set_double(static_cast<int64_t>(k), values[k]);
  return l;
}

Literal eval(const std::string& body, std::vector<Literal> args, const EvalOptions& opts) {
  Module m = frontend::parse_hlo("HloModule t\n\n" + body, "hardware_order.hlo");
  verify(m);
  return evaluate(m, args, opts).value;
}

std::string reduce_f32(int64_t n, const std::string& init) {
  return std::string(kAddF32) + "ENTRY e {\n a = f32[" + std::to_string(n) + "] parameter(0)\n z = f32[] constant(" +
         init + ")\n ROOT r = f32[] reduce(a, z), dimensions={0}, to_apply=addf\n}\n";
}

std::string dot(const std::string& type, int64_t n) {
  const std::string v = type + "[" + std::to_string(n) + "]";
  return "ENTRY e {\n a = " + v + " parameter(0)\n b = " + v + " parameter(1)\n ROOT r = " + type +
         "[] dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n}\n";
}

// f32 has 24 significant bits: around 1e8 (exact in f32) the spacing is 8, so 1e8 + 1
// and 1e8 + 4 (a tie, to the even 1e8) both round back to 1e8.
TEST(HardwareOrder, SequentialF32ReduceLosesTheSmallTermsAsTheReferenceDoes) {
  const std::vector<double> x{1e8, 1, 1, 1, -1e8, 1, 1, 1, 1, 1};
  // One lane: 1e8 three times unchanged, then 0, then five ones: 5.
  EXPECT_EQ(eval(reduce_f32(10, "0"), {array("f32[10]", x)}, hardware(1)).get_double(0), 5);
  EXPECT_EQ(eval(reduce_f32(10, "0"), {array("f32[10]", x)}, {}).get_double(0), 5);
}

TEST(HardwareOrder, TenTermsOnThreeLanesAreChunksOfFourJoinedByATree) {
  const std::vector<double> x{1e8, 1, 1, 1, -1e8, 1, 1, 1, 1, 1};
  // chunk = ceil(10 / 3) = 4: P0 = 0 + 1e8 + 1 + 1 + 1 = 1e8, P1 = -1e8 + 1 + 1 + 1 = -1e8,
  // P2 = 1 + 1 = 2; tree (P0 + P1) + P2 = 2 (sequential: 5, exact: 8).
  EXPECT_EQ(eval(reduce_f32(10, "0"), {array("f32[10]", x)}, hardware(3)).get_double(0), 2);
}

TEST(HardwareOrder, TheTreePairsNeighboursLevelByLevel) {
  const std::vector<double> x{1e8, 0, 1, 0, -1e8, 0, 1, 0};
  // Four chunks of two: P = {1e8, 1, -1e8, 1}; (P0 + P1) + (P2 + P3) = 1e8 + -1e8 = 0.
  // Partials joined left to right give 1, pairs (0,2),(1,3) give 2, sequential 1, exact 2.
  EXPECT_EQ(eval(reduce_f32(8, "0"), {array("f32[8]", x)}, hardware(4)).get_double(0), 0);
}

TEST(HardwareOrder, OnlyTheFirstChunkOfAReduceStartsFromTheInitValue) {
  const std::string body = std::string(kAddS32) +
                           "ENTRY e {\n a = s32[10] parameter(0)\n z = s32[] constant(100)\n"
                           " ROOT r = s32[] reduce(a, z), dimensions={0}, to_apply=adds\n}\n";
  Literal a(frontend::parse_shape("s32[10]"));
  for (int64_t k = 0; k < 10; ++k) a.set_int(k, k + 1);
  // 100 + (1 + ... + 10) = 155 on any number of lanes; init in every chunk would give 355.
  EXPECT_EQ(eval(body, {a}, hardware(3)).get_int(0), 155);
  EXPECT_EQ(eval(body, {a}, {}).get_int(0), 155);
}

TEST(HardwareOrder, ADotChunkStartsFromPlusZeroAReduceChunkFromItsFirstTerm) {
  const std::vector<double> negative_zeros{-0.0, -0.0};
  // Reduce with init -0 on two lanes: P0 = -0 + -0 = -0, P1 = -0 (its first term as is),
  // -0 + -0 = -0. Seeding P1 with +0 would give +0.
  EXPECT_EQ(eval(reduce_f32(2, "-0"), {array("f32[2]", negative_zeros)}, hardware(2)).get_bits(0), 0x80000000u);
  // Dot of (-0, -0) and (1, 1) on two lanes: each chunk is +0 + -0 = +0, so +0.
  EXPECT_EQ(eval(dot("f32", 2), {array("f32[2]", negative_zeros), array("f32[2]", {1, 1})}, hardware(2)).get_bits(0),
            0x00000000u);
}

// bf16 has 8 significant bits: integers are exact up to 256, then the spacing is 2 and
// 256 + 1 (a tie) rounds to the even 256. 300 itself is representable.
TEST(HardwareOrder, ABf16DotOfThreeHundredOnesSaturatesSequentially) {
  const std::vector<double> ones(300, 1.0);
  const std::string body = dot("bf16", 300);
  // Reference: summed in double, rounded once: 300.
  EXPECT_EQ(eval(body, {array("bf16[300]", ones), array("bf16[300]", ones)}, {}).get_double(0), 300);
  // One lane: stuck at 256.
  EXPECT_EQ(eval(body, {array("bf16[300]", ones), array("bf16[300]", ones)}, hardware(1)).get_double(0), 256);
  // Two lanes of 150 terms: 150 + 150 = 300.
  EXPECT_EQ(eval(body, {array("bf16[300]", ones), array("bf16[300]", ones)}, hardware(2)).get_double(0), 300);
}

TEST(HardwareOrder, AnF32DotRoundsEveryProductAndSum) {
  // 1e8 + 4 (tie to 1e8) + 4 (again) - 1e8 = 0 sequentially; 8 in double.
  const std::string body = dot("f32", 4);
  const std::vector<Literal> args{array("f32[4]", {1e8, 4, 4, -1e8}), array("f32[4]", {1, 1, 1, 1})};
  EXPECT_EQ(eval(body, args, {}).get_double(0), 8);
  EXPECT_EQ(eval(body, args, hardware(1)).get_double(0), 0);
  // Two lanes: (1e8 + 4 = 1e8) + (4 - 1e8 = -1e8, a tie to even) = 0.
  EXPECT_EQ(eval(body, args, hardware(2)).get_double(0), 0);
  // Products round too: (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 is a tie in f32, to the even
  // 1 + 2^-11; minus 1 leaves 2^-11. In double the 2^-24 survives (2^-11 + 2^-24 is exact in f32).
  const double v = 1 + std::ldexp(1.0, -12);
  const std::vector<Literal> square_minus_one{array("f32[2]", {v, -1}), array("f32[2]", {v, 1})};
  EXPECT_EQ(eval(dot("f32", 2), square_minus_one, hardware(1)).get_double(0), std::ldexp(1.0, -11));
  EXPECT_EQ(eval(dot("f32", 2), square_minus_one, {}).get_double(0), std::ldexp(1.0, -11) + std::ldexp(1.0, -24));
}

TEST(HardwareOrder, ReduceWindowChunksEachWindow) {
  const std::string body = std::string(kAddF32) +
                           "ENTRY e {\n a = f32[8] parameter(0)\n z = f32[] constant(0)\n"
                           " ROOT r = f32[2] reduce-window(a, z), window={size=4 stride=4}, to_apply=addf\n}\n";
  const std::vector<Literal> args{array("f32[8]", {1e8, 0, 4, 4, 1, 2, 3, 4})};
  // Window 0 sequentially: 1e8, 1e8, 1e8 + 4 = 1e8, again 1e8. On two lanes:
  // (1e8 + 0) + (4 + 4) = 100000008, exact in f32. Window 1: 10 either way.
  const Literal one_lane = eval(body, args, hardware(1)), two_lanes = eval(body, args, hardware(2));
  EXPECT_EQ(one_lane.get_double(0), 1e8);
  EXPECT_EQ(one_lane.get_double(1), 10);
  EXPECT_EQ(two_lanes.get_double(0), 100000008);
  EXPECT_EQ(two_lanes.get_double(1), 10);
}

TEST(HardwareOrder, AChunkOfOnlyPaddingTakesNoPartInTheTree) {
  // The RTL refuses padding in a split reduce; the interpreter still defines it: a chunk
  // with no term in the input holds nothing, its partner passes through. Window over
  // x0, x1 and two padding positions, two lanes: P0 = 100 + 1 + 2, P1 empty: 103.
  const std::string body = std::string(kAddS32) +
                           "ENTRY e {\n a = s32[2] parameter(0)\n z = s32[] constant(100)\n"
                           " ROOT r = s32[1] reduce-window(a, z), window={size=4 pad=0_2}, to_apply=adds\n}\n";
  Literal a(frontend::parse_shape("s32[2]"));
  a.set_int(0, 1);
  a.set_int(1, 2);
  EXPECT_EQ(eval(body, {a}, hardware(2)).get_int(0), 103);
}

TEST(HardwareOrder, DotTermsRunRowMajorOverTheContractingDimensionsAsListed) {
  // a = {{1e8, -1e8}, {4, 4}} times ones. Contracting {0, 1}: 1e8, -1e8, 4, 4 -> 8.
  // Contracting {1, 0} (dimension 1 outer): 1e8, 4, -1e8, 4 -> 1e8, 1e8, 0, 4.
  auto body = [](const std::string& dims) {
    return "ENTRY e {\n a = f32[2,2] parameter(0)\n b = f32[2,2] parameter(1)\n ROOT r = f32[] dot(a, b),"
           " lhs_contracting_dims={" + dims + "}, rhs_contracting_dims={" + dims + "}\n}\n";
  };
  const std::vector<Literal> args{array("f32[2,2]", {1e8, -1e8, 4, 4}), array("f32[2,2]", {1, 1, 1, 1})};
  EXPECT_EQ(eval(body("0,1"), args, hardware(1)).get_double(0), 8);
  EXPECT_EQ(eval(body("1,0"), args, hardware(1)).get_double(0), 4);
}

TEST(HardwareOrder, ConvolutionTermsRunInputFeatureOuterKernelPositionInner) {
  // x[0, k, ci] (b0f) times ones: the products p(ci, k) are x's values. Input feature
  // outer: p00 = 1e8, p01 = 4, p10 = -1e8, p11 = 4 -> 1e8, 1e8, 0, 4. Kernel position
  // outer would visit 1e8, -1e8, 4, 4 -> 8, as double does.
  const std::string body =
      "ENTRY e {\n x = f32[1,2,2] parameter(0)\n k = f32[2,2,1] parameter(1)\n"
      " ROOT y = f32[1,1,1] convolution(x, k), window={size=2}, dim_labels=b0f_0io->b0f\n}\n";
  const std::vector<Literal> args{array("f32[1,2,2]", {1e8, -1e8, 4, 4}), array("f32[2,2,1]", {1, 1, 1, 1})};
  EXPECT_EQ(eval(body, args, hardware(1)).get_double(0), 4);
  EXPECT_EQ(eval(body, args, {}).get_double(0), 8);
}

bool accumulates(const Module& m) {
  for (InstrId i = 0; i < m.instruction_slots(); ++i) {
    if (!m.is_live(i)) continue;
    const Opcode op = m.opcode(i);
    if (op == Opcode::kReduce || op == Opcode::kReduceWindow || op == Opcode::kDot || op == Opcode::kConvolution)
      return true;
  }
  return false;
}

// Wrap-around sums do not depend on the order, so the hardware path (operands converted
// to the result type, per-step wrap, chunks and tree) must give the reference's bits.
TEST(HardwareOrder, IntegerResultsEqualTheReferenceOnRandomGraphs) {
  int with_accumulation = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    RandomModuleOptions ro;
    ro.seed = seed;
    ro.floats = false;
    const Module m = random_module(ro);
    const std::vector<Literal> args = random_inputs(m, seed);
    EvalOptions hw;
    hw.accumulation = AccumulationOrder::kHardware;
    hw.split_of = [](InstrId i) { return 1 + static_cast<int64_t>(i % 5); };  // 1 to 5 lanes per output
    EXPECT_EQ(evaluate(m, args, hw).value, evaluate(m, args).value) << "seed " << seed;
    with_accumulation += accumulates(m);
  }
  EXPECT_GE(with_accumulation, 100);  // the property is about these ops: most graphs have one
}

TEST(HardwareOrder, SampledEvaluationRefusesTheHardwareOrder) {
  Module m = frontend::parse_hlo("HloModule t\n\n" + dot("f32", 2), "hardware_order.hlo");
  const std::vector<Literal> args{array("f32[2]", {1, 2}), array("f32[2]", {3, 4})};
  EXPECT_THROW(evaluate_sampled(m, args, 1, 1, hardware(1)), Error);
}

}  // namespace
}  // namespace hlsgym::ir
