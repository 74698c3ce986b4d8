// The expander passes (batchnorm_expander, logistic-expander, comparison-expander,
// gather_expander, scatter_expander, select_and_scatter_expander, bitcast_dtypes_expander,
// the convolution expanders, the dot/conv casters, all-reduce-simp): a golden rewrite per
// pass checked on the result and against the interpreter on several random input sets;
// a no-change case per pass; every pass on every design and small real module (verifier
// and interpreter); every pass on all real modules (verifier), with how many each changes.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <map>

#include "frontend/hlo_parser.h"
#include "frontend/load.h"
#include "frontend/source_text.h"
#include "ir/evaluate.h"
#include "ir/features.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/equivalence.h"
#include "passes/registry.h"
#include "tests/support/test_data.h"

namespace hlsgym::passes {
namespace {
using ir::Opcode;

const char* const kPasses[] = {"all-reduce-simp", "batchnorm_expander", "bitcast_dtypes_expander",
                               "change-op-data-type", "comparison-expander", "convolution_4d_expander",
                               "convolution-group-converter", "convolution-pred-expander", "gather_expander",
                               "logistic-expander", "operand_upcaster", "result_caster", "scatter_expander",
                               "select_and_scatter_expander"};

ir::Module parse(const std::string& body) {
  ir::Module m = frontend::parse_hlo("HloModule t\n\n" + body, "expanders_test.hlo");
  ir::verify(m);
  return m;
}

int count(const ir::Module& m, Opcode op) { return ir::extract_features(m).opcode_counts[static_cast<int>(op)]; }

// Runs `pass` once on a copy of `before` (which it must change), checks the verifier and
// the interpreter on four random input sets, and returns the result.
ir::Module expand_and_check(const std::string& pass, const ir::Module& before) {
  ir::Module m = before;
  PassPtr p = Registry::global().create(pass);
  EXPECT_TRUE(p->run(m)) << pass << " did not fire on\n" << ir::print_module(before);
  auto issues = ir::verify_all(m);
  EXPECT_TRUE(issues.empty()) << pass << ": " << issues.front().message << "\n" << ir::print_module(m);
  EquivalenceOptions o;
  o.input_sets = 4;
  o.float_tolerance = p->reassociates_floats();
  const EquivalenceResult r = check_equivalence(before, m, o);
  EXPECT_EQ(r.status, CheckStatus::kPassed) << pass << ": " << r.detail << "\nafter:\n" << ir::print_module(m);
  return m;
}

ir::Module expand_and_check(const std::string& pass, const std::string& body) {
  return expand_and_check(pass, parse(body));
}

void expect_unchanged(const std::string& pass, const std::string& body) {
  ir::Module m = parse(body);
  const std::string before = ir::print_module(m);
  EXPECT_FALSE(Registry::global().create(pass)->run(m)) << pass << " fired on\n" << body;
  EXPECT_EQ(ir::print_module(m), before) << pass;
}

const char* kAddF = "add {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT s = f32[] add(x, y)\n}\n";
const char* kAddS = "adds {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n ROOT s = s32[] add(x, y)\n}\n";
const char* kAssignF = "assign {\n x = f32[] parameter(0)\n ROOT y = f32[] parameter(1)\n}\n";
const char* kGeF = "ge {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT c = pred[] compare(x, y), direction=GE\n}\n";

TEST(Expanders, RegisteredWithXlasNames) {
  for (const char* n : kPasses) {
    PassPtr p = Registry::global().create(n);
    EXPECT_EQ(p->name(), n);
    const bool rounding = std::string(n) == "batchnorm_expander" || std::string(n) == "change-op-data-type";
    EXPECT_EQ(p->reassociates_floats(), rounding) << n;
  }
}

TEST(Expanders, NoChangeOnAModuleWithNothingToExpand) {
  const std::string body = std::string(kAddF) +
      "ENTRY e {\n a = f32[4] parameter(0)\n b = f32[4] parameter(1)\n"
      " c = pred[4] compare(a, b), direction=LT\n s = f32[4] select(c, a, b)\n z = f32[] constant(0)\n"
      " r = f32[] reduce(s, z), dimensions={0}, to_apply=add\n e1 = f32[4] exponential(s)\n"
      " ROOT t = (f32[], f32[4]) tuple(r, e1)\n}\n";
  for (const char* n : kPasses) expect_unchanged(n, body);
}

// ---- logistic-expander ----
TEST(LogisticExpander, ExpandsExactlyInEveryFloatType) {
  const ir::Module m = expand_and_check("logistic-expander",
      "ENTRY e {\n a = f32[6] parameter(0)\n h = f16[6] parameter(1)\n d = f64[6] parameter(2)\n"
      " l = f32[6] logistic(a)\n lh = f16[6] logistic(h)\n ld = f64[6] logistic(d)\n"
      " ROOT t = (f32[6], f16[6], f64[6]) tuple(l, lh, ld)\n}\n");
  EXPECT_EQ(count(m, Opcode::kLogistic), 0);
  EXPECT_EQ(count(m, Opcode::kExp), 3);
  EXPECT_EQ(count(m, Opcode::kDivide), 3);
  EXPECT_EQ(count(m, Opcode::kConvert), 2);  // f16 computed in f32, rounded once
}

TEST(LogisticExpander, NoChange) {
  expect_unchanged("logistic-expander", "ENTRY e {\n a = f32[4] parameter(0)\n ROOT t = f32[4] tanh(a)\n}\n");
}

// ---- comparison-expander ----
// Every pair of special values (both NaN signs and payloads, infinities, signed zeros,
// subnormals) in f32 and bf16, every direction: the expansion equals TOTALORDER.
TEST(ComparisonExpander, MatchesTotalOrderOnSpecialValues) {
  const std::vector<uint32_t> f32_bits = {0xffc00000, 0xff800001, 0xff800000, 0xbf800000, 0x80000001, 0x80000000,
                                          0x00000000, 0x00000001, 0x3f800000, 0x7f800000, 0x7f800001, 0x7fc00000};
  for (const char* dir : {"EQ", "NE", "LT", "LE", "GT", "GE"}) {
    const std::string n = std::to_string(f32_bits.size() * f32_bits.size());
    const ir::Module before = parse("ENTRY e {\n a = f32[" + n + "] parameter(0)\n b = f32[" + n + "] parameter(1)\n"
        " c = bf16[" + n + "] parameter(2)\n d = bf16[" + n + "] parameter(3)\n"
        " x = pred[" + n + "] compare(a, b), direction=" + dir + ", type=TOTALORDER\n"
        " y = pred[" + n + "] compare(c, d), direction=" + dir + ", type=TOTALORDER\n"
        " ROOT t = (pred[" + n + "], pred[" + n + "]) tuple(x, y)\n}\n");
    const ir::Module after = expand_and_check("comparison-expander", before);
    EXPECT_EQ(count(after, Opcode::kBitcastConvert), 12);
    auto args = ir::random_inputs(before, 1);
    size_t k = 0;
    for (uint32_t x : f32_bits)
      for (uint32_t y : f32_bits) {
        args[0].set_bits(k, x), args[1].set_bits(k, y);
        args[2].set_bits(k, x >> 16 | (x & 0xffff ? 1 : 0)), args[3].set_bits(k, y >> 16 | (y & 0xffff ? 1 : 0));
        ++k;
      }
    EXPECT_EQ(ir::evaluate(after, args).value, ir::evaluate(before, args).value) << dir;
  }
}

TEST(ComparisonExpander, NoChange) {
  expect_unchanged("comparison-expander", "ENTRY e {\n a = f32[4] parameter(0)\n b = f32[4] parameter(1)\n"
                   " ROOT c = pred[4] compare(a, b), direction=LT, type=FLOAT\n}\n");
}

// ---- batchnorm_expander ----
TEST(BatchNormExpander, TrainingInferenceAndGrad) {
  const ir::Module m = expand_and_check("batchnorm_expander",
      "ENTRY e {\n x = f32[2,3,4] parameter(0)\n s = f32[3] parameter(1)\n o = f32[3] parameter(2)\n"
      " mu = f32[3] parameter(3)\n v0 = f32[3] parameter(4)\n dy = f32[2,3,4] parameter(5)\n"
      " v = f32[3] multiply(v0, v0)\n"
      " t = (f32[2,3,4], f32[3], f32[3]) batch-norm-training(x, s, o), epsilon=0.001, feature_index=1\n"
      " i = f32[2,3,4] batch-norm-inference(x, s, o, mu, v), epsilon=0.001, feature_index=1\n"
      " g = (f32[2,3,4], f32[3], f32[3]) batch-norm-grad(x, s, mu, v, dy), epsilon=0.001, feature_index=1\n"
      " ROOT r = ((f32[2,3,4], f32[3], f32[3]), f32[2,3,4], (f32[2,3,4], f32[3], f32[3])) tuple(t, i, g)\n}\n");
  EXPECT_EQ(count(m, Opcode::kBatchNormTraining) + count(m, Opcode::kBatchNormInference) +
                count(m, Opcode::kBatchNormGrad), 0);
  EXPECT_EQ(count(m, Opcode::kReduce), 4);  // sum, sum of squares; sum(dy * (x - mean)), sum(dy)
  EXPECT_EQ(count(m, Opcode::kRsqrt), 4);
}

TEST(BatchNormExpander, NoChange) {
  expect_unchanged("batchnorm_expander", "ENTRY e {\n x = s32[2,3] parameter(0)\n ROOT n = s32[2,3] negate(x)\n}\n");
}

// ---- gather_expander ----
TEST(GatherExpander, OneIndexVectorBecomesADynamicSlice) {
  const ir::Module m = expand_and_check("gather_expander",
      "ENTRY e {\n op = f32[5,6] parameter(0)\n i2 = s32[2] parameter(1)\n i0 = s32[] parameter(2)\n"
      " i11 = u8[1,1] parameter(3)\n"
      " g1 = f32[2,3] gather(op, i2), offset_dims={0,1}, collapsed_slice_dims={}, start_index_map={1,0},"
      " index_vector_dim=0, slice_sizes={2,3}\n"
      " g2 = f32[6] gather(op, i0), offset_dims={0}, collapsed_slice_dims={0}, start_index_map={0},"
      " index_vector_dim=0, slice_sizes={1,6}\n"
      " g3 = f32[1,4] gather(op, i11), offset_dims={1}, collapsed_slice_dims={1}, start_index_map={1},"
      " index_vector_dim=1, slice_sizes={4,1}\n"
      " ROOT t = (f32[2,3], f32[6], f32[1,4]) tuple(g1, g2, g3)\n}\n");
  EXPECT_EQ(count(m, Opcode::kGather), 0);
  EXPECT_EQ(count(m, Opcode::kDynamicSlice), 3);
}

TEST(GatherExpander, WholeOperandSlicesBecomeABroadcast) {
  const ir::Module m = expand_and_check("gather_expander",
      "ENTRY e {\n op = f32[3,4] parameter(0)\n i = s32[5,2] parameter(1)\n"
      " ROOT g = f32[5,3,4] gather(op, i), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1},"
      " index_vector_dim=1, slice_sizes={3,4}\n}\n");
  EXPECT_EQ(count(m, Opcode::kGather), 0);
  EXPECT_EQ(m.opcode(m.computation(m.entry()).root), Opcode::kBroadcast);
}

TEST(GatherExpander, NoChangeWhenALoopIsNeeded) {
  expect_unchanged("gather_expander", "ENTRY e {\n op = f32[5,6] parameter(0)\n i = s32[3,1] parameter(1)\n"
                   " ROOT g = f32[3,6] gather(op, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0},"
                   " index_vector_dim=1, slice_sizes={1,6}\n}\n");
}

// ---- scatter_expander ----
TEST(ScatterExpander, DuplicateAndOutOfBoundsIndicesWithAnIntegerAdd) {
  const ir::Module m = expand_and_check("scatter_expander", std::string(kAddS) +
      "ENTRY e {\n op = s32[6] parameter(0)\n u = s32[8] parameter(1)\n"
      " i = s32[8,1] constant({{1},{1},{2},{-1},{5},{6},{1},{0}})\n"
      " ROOT s = s32[6] scatter(op, i, u), update_window_dims={}, inserted_window_dims={0},"
      " scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=adds\n}\n");
  EXPECT_EQ(count(m, Opcode::kScatter), 0);
  EXPECT_EQ(count(m, Opcode::kWhile), 1);
  EXPECT_EQ(count(m, Opcode::kDynamicUpdateSlice), 1);
}

TEST(ScatterExpander, OverlappingWindowsAssignedInUpdateOrder) {
  const ir::Module m = expand_and_check("scatter_expander", std::string(kAssignF) +
      "ENTRY e {\n op = f32[5,4] parameter(0)\n u = f32[4,2,4] parameter(1)\n"
      " i = s32[4] constant({0, 1, 4, 3})\n"
      " ROOT s = f32[5,4] scatter(op, i, u), update_window_dims={1,2}, inserted_window_dims={},"
      " scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=assign\n}\n");
  EXPECT_EQ(count(m, Opcode::kWhile), 1);
}

TEST(ScatterExpander, RandomIndicesTransposedUpdatesAndAMapCombiner) {
  const std::string scale = "scale {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n c = f32[] constant(0.5)\n"
                            " m = f32[] multiply(x, c)\n ROOT s = f32[] subtract(y, m)\n}\n";
  const ir::Module m = expand_and_check("scatter_expander", scale +
      "ENTRY e {\n op = f32[4,3] parameter(0)\n u = f32[2,3] parameter(1)\n i = s32[2,1] parameter(2)\n"
      " c = s32[2,1] constant({{2},{0}})\n j = s32[2,1] remainder(i, c)\n"
      " ROOT s = f32[4,3] scatter(op, j, u), update_window_dims={1}, inserted_window_dims={0},"
      " scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=scale\n}\n");
  EXPECT_EQ(count(m, Opcode::kMap), 1);
  // Window dimension before the scatter dimension: integer add gives any order the same sum.
  expand_and_check("scatter_expander", std::string(kAddS) +
      "ENTRY e {\n op = s32[6,3] parameter(0)\n u = s32[3,5] parameter(1)\n i = s32[5] parameter(2)\n"
      " c = s32[5] constant({7, 7, 7, 7, 7})\n j = s32[5] remainder(i, c)\n"
      " ROOT s = s32[6,3] scatter(op, j, u), update_window_dims={0}, inserted_window_dims={0},"
      " scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=adds\n}\n");
}

TEST(ScatterExpander, NoChangeWhenTheOrderOfOverlappingUpdatesCouldDiffer) {
  expect_unchanged("scatter_expander", std::string(kAssignF) +
      "ENTRY e {\n op = f32[6,3] parameter(0)\n u = f32[2,3,5] parameter(1)\n i = s32[5] parameter(2)\n"
      " ROOT s = f32[6,3] scatter(op, i, u), update_window_dims={0,1}, inserted_window_dims={},"
      " scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=assign\n}\n");
}

// ---- select_and_scatter_expander ----
TEST(SelectAndScatterExpander, MaxPoolGradientsWithTiesAndPadding) {
  const std::string ge_s = "ges {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n"
                           " ROOT c = pred[] compare(x, y), direction=GE\n}\n";
  const ir::Module m = expand_and_check("select_and_scatter_expander", std::string(kGeF) + kAddF + kAddS + ge_s +
      "ENTRY e {\n x = f32[4,6] parameter(0)\n s = f32[2,3] parameter(1)\n z = f32[] constant(0)\n"
      " a = f32[4,6] select-and-scatter(x, s, z), window={size=2x2 stride=2x2}, select=ge, scatter=add\n"
      " xi = s32[4,6] parameter(2)\n c = s32[4,6] constant({{1,2,3,4,5,6},{1,2,3,4,5,6},{1,2,3,4,5,6},{1,2,3,4,5,6}})\n"
      " ti = s32[4,6] remainder(xi, c)\n si = s32[2,3] parameter(3)\n zi = s32[] constant(7)\n"
      " b = s32[4,6] select-and-scatter(ti, si, zi), window={size=3x3 stride=2x2 pad=1_1x1_1}, select=ges,"
      " scatter=adds\n ROOT t = (f32[4,6], s32[4,6]) tuple(a, b)\n}\n");
  EXPECT_EQ(count(m, Opcode::kSelectAndScatter), 0);
  EXPECT_EQ(count(m, Opcode::kReduceWindow), 2);
  EXPECT_EQ(count(m, Opcode::kScatter), 2);
}

TEST(SelectAndScatterExpander, NoChangeWithWindowDilation) {
  expect_unchanged("select_and_scatter_expander", std::string(kGeF) + kAddF +
      "ENTRY e {\n x = f32[5] parameter(0)\n s = f32[3] parameter(1)\n z = f32[] constant(0)\n"
      " ROOT a = f32[5] select-and-scatter(x, s, z), window={size=2 stride=1 rhs_dilate=2}, select=ge, scatter=add\n}\n");
}

// ---- bitcast_dtypes_expander ----
TEST(BitcastDtypesExpander, WideToNarrowAndBack) {
  const ir::Module m = expand_and_check("bitcast_dtypes_expander",
      "ENTRY e {\n a = f32[3] parameter(0)\n b = u8[3,4] parameter(1)\n c = s16[2,2] parameter(2)\n"
      " d = u8[4] parameter(3)\n f = f64[2] parameter(4)\n g = u16[5,2] parameter(5)\n"
      " a1 = u8[3,4] bitcast-convert(a)\n b1 = f32[3] bitcast-convert(b)\n c1 = s8[2,2,2] bitcast-convert(c)\n"
      " d1 = u32[] bitcast-convert(d)\n f1 = u32[2,2] bitcast-convert(f)\n g1 = s32[5] bitcast-convert(g)\n"
      " ROOT t = (u8[3,4], f32[3], s8[2,2,2], u32[], u32[2,2], s32[5]) tuple(a1, b1, c1, d1, f1, g1)\n}\n");
  for (ir::InstrId i : m.instructions(m.entry()))
    if (m.opcode(i) == Opcode::kBitcastConvert) {
      EXPECT_EQ(ir::bit_width(m.shape(i).element_type()), ir::bit_width(m.shape(m.operand(i, 0)).element_type()));
    }
}

TEST(BitcastDtypesExpander, NoChange) {
  expect_unchanged("bitcast_dtypes_expander", "ENTRY e {\n a = f32[3] parameter(0)\n"
                   " ROOT b = s32[3] bitcast-convert(a)\n}\n");
}

// ---- convolution expanders ----
TEST(Convolution4DExpander, DropsTrivialSpatialDimensions) {
  const ir::Module m = expand_and_check("convolution_4d_expander",
      "ENTRY e {\n x = f32[2,1,3,1,4,3] parameter(0)\n k = f32[1,2,1,2,3,5] parameter(1)\n"
      " ROOT c = f32[2,1,2,1,3,5] convolution(x, k), window={size=1x2x1x2}, dim_labels=b0123f_0123io->b0123f\n}\n");
  for (ir::InstrId i : m.instructions(m.entry()))
    if (m.opcode(i) == Opcode::kConvolution) {
      EXPECT_EQ(m.shape(i).rank(), 4);
    }
}

TEST(Convolution4DExpander, NoChange) {
  expect_unchanged("convolution_4d_expander", "ENTRY e {\n x = f32[1,4,4,2] parameter(0)\n k = f32[1,1,2,3] parameter(1)\n"
                   " ROOT c = f32[1,4,4,3] convolution(x, k), window={size=1x1}, dim_labels=b01f_01io->b01f\n}\n");
}

TEST(ConvolutionPredExpander, PredConvolutionInF16) {
  const ir::Module m = expand_and_check("convolution-pred-expander",
      "ENTRY e {\n x = pred[1,4,4,2] parameter(0)\n k = pred[3,3,2,3] parameter(1)\n"
      " ROOT c = pred[1,2,2,3] convolution(x, k), window={size=3x3}, dim_labels=b01f_01io->b01f\n}\n");
  EXPECT_EQ(count(m, Opcode::kConvert), 3);
  expect_unchanged("convolution-pred-expander", "ENTRY e {\n x = f32[1,4,4,2] parameter(0)\n k = f32[3,3,2,3] parameter(1)\n"
                   " ROOT c = f32[1,2,2,3] convolution(x, k), window={size=3x3}, dim_labels=b01f_01io->b01f\n}\n");
}

TEST(ConvolutionGroupConverter, FeatureAndBatchGroupsBecomePlainConvolutions) {
  const std::string body =
      "ENTRY e {\n x = f32[2,5,5,6] parameter(0)\n k = f32[3,3,2,9] parameter(1)\n"
      " a = f32[2,3,3,9] convolution(x, k), window={size=3x3}, dim_labels=b01f_01io->b01f, feature_group_count=3\n"
      " d = f32[1,4,4,4] parameter(2)\n dk = f32[3,3,1,8] parameter(3)\n"
      " b = f32[1,4,4,8] convolution(d, dk), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f,"
      " feature_group_count=4\n"
      " y = s32[4,5,5,3] parameter(4)\n yk = s32[3,3,3,6] parameter(5)\n"
      " c = s32[2,3,3,6] convolution(y, yk), window={size=3x3}, dim_labels=b01f_01io->b01f, batch_group_count=2\n"
      " g = f32[4,6,6,3] parameter(6)\n gy = f32[4,4,4,3] parameter(7)\n"
      " w = f32[3,3,1,3] convolution(g, gy), window={size=4x4}, dim_labels=f01b_i01o->01bf, batch_group_count=3\n"
      " ROOT t = (f32[2,3,3,9], f32[1,4,4,8], s32[2,3,3,6], f32[3,3,1,3]) tuple(a, b, c, w)\n}\n";
  const ir::Module before = parse(body);
  const ir::Module m = expand_and_check("convolution-group-converter", before);
  for (ir::InstrId i : m.instructions(m.entry()))
    if (m.opcode(i) == Opcode::kConvolution) {
      EXPECT_TRUE(m.attrs(i).feature_group_count == 1 && m.attrs(i).batch_group_count == 1);
    }
  // An infinite input in one group does not leak into the others (no multiply by zero).
  auto args = ir::random_inputs(before, 3);
  args[2].set_double(0, INFINITY);
  EXPECT_EQ(ir::evaluate(m, args).value, ir::evaluate(before, args).value);
}

TEST(ConvolutionGroupConverter, NoChange) {
  expect_unchanged("convolution-group-converter", "ENTRY e {\n x = f32[1,4,4,2] parameter(0)\n k = f32[3,3,2,3] parameter(1)\n"
                   " ROOT c = f32[1,2,2,3] convolution(x, k), window={size=3x3}, dim_labels=b01f_01io->b01f\n}\n");
}

// ---- operand_upcaster, result_caster, change-op-data-type ----
TEST(DotConvCasters, UpcastOperandsWhenTheConvertIsExact) {
  const ir::Module m = expand_and_check("operand_upcaster",
      "ENTRY e {\n a = s8[2,3] parameter(0)\n b = s8[3,4] parameter(1)\n"
      " d = s32[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " x = f8e4m3fn[2,3] parameter(2)\n y = f8e5m2[3,4] parameter(3)\n"
      " f = bf16[2,4] dot(x, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " ROOT t = (s32[2,4], bf16[2,4]) tuple(d, f)\n}\n");
  EXPECT_EQ(count(m, Opcode::kConvert), 4);
  expect_unchanged("operand_upcaster", "ENTRY e {\n a = f16[2,3] parameter(0)\n b = f16[3,4] parameter(1)\n"
                   " ROOT d = bf16[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
}

TEST(DotConvCasters, ResultCasterOnlyForNarrowerIntegerResults) {
  const ir::Module m = expand_and_check("result_caster",
      "ENTRY e {\n a = s32[2,3] parameter(0)\n b = s32[3,4] parameter(1)\n"
      " ROOT d = s8[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
  EXPECT_EQ(m.opcode(m.computation(m.entry()).root), Opcode::kConvert);
  expect_unchanged("result_caster", "ENTRY e {\n a = f32[2,3] parameter(0)\n b = f32[3,4] parameter(1)\n"
                   " ROOT d = bf16[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
}

TEST(DotConvCasters, ChangeOpDataTypeComputesF16InF32) {
  const ir::Module m = expand_and_check("change-op-data-type",
      "ENTRY e {\n a = f16[2,3] parameter(0)\n b = f16[3,4] parameter(1)\n"
      " ROOT d = f16[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
  EXPECT_EQ(count(m, Opcode::kConvert), 3);
  expect_unchanged("change-op-data-type", "ENTRY e {\n a = bf16[2,3] parameter(0)\n b = bf16[3,4] parameter(1)\n"
                   " ROOT d = bf16[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
}

// ---- all-reduce-simp ----
TEST(AllReduceSimplifier, SingleMemberGroupsAndReplicatedValues) {
  const ir::Module m = expand_and_check("all-reduce-simp", std::string(kAddF) + kAddS +
      "ENTRY e {\n a = f32[4] parameter(0)\n b = s32[4] parameter(1), parameter_replication={true}\n"
      " r1 = f32[4] all-reduce(a), replica_groups={{0},{1}}, to_apply=add\n"
      " r2 = s32[4] all-reduce(b), replica_groups={{0,1,2,3}}, to_apply=adds\n"
      " c = f32[4] constant({1.5, -2, 3, 0.25})\n e1 = f32[4] exponential(c)\n"
      " r3 = f32[4] all-reduce(e1), replica_groups=[2,3]<=[6], to_apply=add\n"
      " g = f32[4] all-gather(a), replica_groups={{0},{1}}, dimensions={0}\n"
      " ROOT t = (f32[4], s32[4], f32[4], f32[4]) tuple(r1, r2, r3, g)\n}\n");
  EXPECT_EQ(count(m, Opcode::kAllReduce) + count(m, Opcode::kAllGather), 0);
  EXPECT_EQ(count(m, Opcode::kMultiply), 2);
}

TEST(AllReduceSimplifier, NoChangeForDistinctValuesBigFloatGroupsAndChannels) {
  expect_unchanged("all-reduce-simp", std::string(kAddF) +
      "ENTRY e {\n a = f32[4] parameter(0)\n r1 = f32[4] all-reduce(a), replica_groups={{0,1}}, to_apply=add\n"
      " c = f32[4] constant({1.5, -2, 3, 0.25})\n r2 = f32[4] all-reduce(c), replica_groups={{0,1,2,3}}, to_apply=add\n"
      " r3 = f32[4] all-reduce(a), channel_id=1, replica_groups={{0},{1}}, to_apply=add\n"
      " ROOT t = (f32[4], f32[4], f32[4]) tuple(r1, r2, r3)\n}\n");
}

// ---- the family on designs and real modules ----
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

TEST(Expanders, EveryPassOnDesignsAndSmallRealModules) {
  const auto modules = small_modules();
  ASSERT_GE(modules.size(), 40u);
  int changed = 0;
  std::map<std::string, std::pair<int, int>> fired_checked;
  for (const auto& original : modules) {
    for (const char* n : kPasses) {
      SCOPED_TRACE(original.name() + " / " + n);
      PassPtr p = Registry::global().create(n);
      ir::Module m = original;
      const std::string before = ir::print_module(m);
      const bool fired = p->run(m);
      auto issues = ir::verify_all(m);
      ASSERT_TRUE(issues.empty()) << issues.front().message;
      if (!fired) {
        EXPECT_EQ(ir::print_module(m), before);
        continue;
      }
      ++changed;
      EquivalenceOptions o;
      o.input_sets = 2;
      o.float_tolerance = p->reassociates_floats();
      const EquivalenceResult r = check_equivalence(original, m, o);
      EXPECT_NE(r.status, CheckStatus::kFailed) << r.detail;
      fired_checked[n].first++;
      fired_checked[n].second += r.status == CheckStatus::kPassed;
    }
  }
  EXPECT_GT(changed, 0);
  for (const auto& [n, fc] : fired_checked)
    std::printf("%-30s changes %2d small modules, %2d checked equal by the interpreter\n", n.c_str(), fc.first,
                fc.second);
}

// Every pass on every real file: the verifier stays clean. Prints how many files each changes.
TEST(Expanders, EveryPassOnAllRealModules) {
  std::map<std::string, int> changed;
  int files = 0;
  for (const auto& f : testing::all_hlo_files()) {
    const ir::Module original = frontend::parse_hlo(frontend::read_file(f.string()), f.string());
    ++files;
    for (const char* n : kPasses) {
      ir::Module m = original;
      const bool fired = Registry::global().create(n)->run(m);
      changed[n] += fired;
      if (!fired) {
        EXPECT_EQ(m.instruction_count(), original.instruction_count()) << n << " on " << f;
        continue;
      }
      auto issues = ir::verify_all(m);
      ASSERT_TRUE(issues.empty()) << n << " on " << f << ": " << issues.front().message;
    }
  }
  EXPECT_EQ(files, 108);
  for (const auto& [n, k] : changed) std::printf("%-30s changes %3d of %d real files\n", n.c_str(), k, files);
  for (const char* n : {"batchnorm_expander", "comparison-expander", "gather_expander", "scatter_expander",
                        "convolution-group-converter", "logistic-expander", "operand_upcaster"})
    EXPECT_GT(changed[n], 0) << n;
}

}  // namespace
}  // namespace hlsgym::passes
