// XLA's HLO evaluator cases (xla/hlo/evaluator/hlo_evaluator_test.cc at openxla/xla
// 001918b7024cf5f020051a9d25d2dd57a5896aaa): map, sort, compare, layouts, async and copy
// wrappers, refusals, and XLA's evaluator-API cases (partial evaluation, substitutions,
// custom-call handlers), the last listed in tests/ir/xla_cases/evaluator_differences.txt.
// Counted in tests/ir/xla_cases/PORTED.md.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "ir/error.h"
#include "ir/evaluate.h"
#include "ir/verifier.h"
#include "tests/support/eval_case.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::testing {
namespace {

TEST(EvaluateXlaMisc, DoesCompareBF16) {
  EXPECT_TRUE(same_literal(literal("pred[2,3] {{false, true, true}, {false, true, true}}"),
                           evaluate_text(entry_module("  a = bf16[2,3] constant({{0.25, 0.35, 0.125}, {-0.25, -0.35, -0.125}})\n"
                                               "  b = bf16[2,3] constant({{0.5, 0.125, 0.125}, {0.25, -0.375, -0.127}})\n"
                                               "  ROOT c = pred[2,3] compare(a, b), direction=GE\n"))));
}

TEST(EvaluateXlaMisc, Int32Overflow) {
  EXPECT_TRUE(same_literal(tuple_literal({literal("s32[] -2147483648"), literal("s32[] 1073741824"), literal("s32[] 0")}),
                           evaluate_text(entry_module("  c1 = s32[] constant(1073741824)\n  sum = s32[] add(c1, c1)\n"
                                               "  c2 = s32[] constant(-2147483648)\n  sub = s32[] subtract(c2, c1)\n"
                                               "  mul = s32[] multiply(c1, c1)\n"
                                               "  ROOT tuple = (s32[], s32[], s32[]) tuple(sum, sub, mul)\n"))));
}

TEST(EvaluateXlaMisc, IsFiniteF16) {
  EXPECT_TRUE(same_literal(literal("pred[6] {false, true, false, true, false, false}"),
                           evaluate_text(entry_module("  c = f16[6] constant({nan, 7, nan, -1, inf, -inf})\n"
                                               "  ROOT f = pred[6] is-finite(c)\n"))));
}

TEST(EvaluateXlaMisc, IsFiniteBf16) {
  EXPECT_TRUE(same_literal(literal("pred[6] {false, true, false, true, false, false}"),
                           evaluate_text(entry_module("  c = bf16[6] constant({nan, 7, nan, -1, inf, -inf})\n"
                                               "  ROOT f = pred[6] is-finite(c)\n"))));
}

// An empty array, however long its other dimension, allocates nothing.
TEST(EvaluateXlaMisc, ZeroSizedIotaWithHugeDimension) {
  EXPECT_EQ(evaluate_text(entry_module("  ROOT i = f32[1000000000000,0] iota(), iota_dimension=0\n")).element_count(), 0);
}

TEST(EvaluateXlaMisc, CopyStartCopyDone) {
  EXPECT_TRUE(same_literal(literal("f32[] 42"),
                           evaluate_text(entry_module("  init = f32[] constant(42.0)\n"
                                               "  copy-start = (f32[]{:S(1)}, f32[], u32[]) copy-start(init)\n"
                                               "  ROOT copy-done = f32[] copy-done(copy-start)\n"))));
}

TEST(EvaluateXlaMisc, AsyncOps) {
  EXPECT_TRUE(same_literal(literal("f32[] -42"),
                           evaluate_text(entry_module("  init = f32[] constant(42.0)\n"
                                               "  async-start = ((f32[]), f32[], u32[]) negate-start(init)\n"
                                               "  async-update = ((f32[]), f32[], u32[]) negate-update(async-start)\n"
                                               "  ROOT async-done = f32[] negate-done(async-update)\n"))));
}

std::string map_module(const std::string& type) {
  return "HloModule m\n\nmap_computation {\n  p = " + type + "[] parameter(0)\n  add = " + type +
         "[] add(p, p)\n  ROOT conv = f32[] convert(add)\n}\n\nENTRY e {\n  c = " + type +
         "[3] constant({1, 2, 3})\n  ROOT map = f32[3] map(c), to_apply=map_computation\n}\n";
}

TEST(EvaluateXlaMisc, MapBF16) { EXPECT_TRUE(same_literal(literal("f32[3] {2, 4, 6}"), evaluate_text(map_module("bf16")))); }
TEST(EvaluateXlaMisc, MapS16) { EXPECT_TRUE(same_literal(literal("f32[3] {2, 4, 6}"), evaluate_text(map_module("s16")))); }
TEST(EvaluateXlaMisc, MapU16) { EXPECT_TRUE(same_literal(literal("f32[3] {2, 4, 6}"), evaluate_text(map_module("u16")))); }

TEST(EvaluateXlaMisc, MapMixed) {
  EXPECT_TRUE(same_literal(literal("f32[3] {2.5, 4.5, 6.5}"),
                           evaluate_text("HloModule m\n\nmap_computation {\n  p0 = u16[] parameter(0)\n  p1 = f32[] parameter(1)\n"
                                         "  c0 = f32[] convert(p0)\n  ROOT add = f32[] add(c0, p1)\n}\n\n"
                                         "ENTRY e {\n  c0 = u16[3] constant({1, 2, 3})\n  c1 = f32[3] constant({1.5, 2.5, 3.5})\n"
                                         "  ROOT map = f32[3] map(c0, c1), to_apply=map_computation\n}\n")));
}

TEST(EvaluateXlaMisc, SortC64) {
  EXPECT_TRUE(same_literal(literal("c64[3] {(2, 0), (4, 0), (6, 0)}"),
                           evaluate_text("HloModule m\n\nsort_lt_comparator {\n  parameter.0 = c64[] parameter(0)\n"
                                         "  real.0 = f32[] real(parameter.0)\n  parameter.1 = c64[] parameter(1)\n"
                                         "  real.1 = f32[] real(parameter.1)\n"
                                         "  ROOT compare = pred[] compare(real.0, real.1), direction=LT\n}\n\n"
                                         "ENTRY main {\n  c = c64[3] constant({(2, 0), (4, 0), (6, 0)})\n"
                                         "  ROOT sort = c64[3]{0} sort(c), dimensions={0}, to_apply=sort_lt_comparator\n}\n")));
}

// A slice whose result has another layout keeps the values.
TEST(EvaluateXlaMisc, SliceWithDifferentLayout) {
  const ir::Literal arg = literal("f32[2,2,2] {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}}");
  EXPECT_TRUE(same_literal(arg, evaluate_text(entry_module("  arg = f32[2,2,2]{0,1,2} parameter(0)\n"
                                                    "  ROOT s = f32[2,2,2]{1,0,2} slice(arg), slice={[0:2], [0:2], [0:2]}\n"),
                                              {arg})));
}

// The root is evaluated whole here, where XLA evaluates one instruction of the
// computation; the values are the same.
TEST(EvaluateXlaMisc, RecursivelyEvaluateNonConstantOperands) {
  EXPECT_TRUE(same_literal(literal("f32[2,2] {{2, 16}, {6, 16}}"),
                           evaluate_text(entry_module("  c0 = f32[2,2] constant({{0, 2}, {2, 4}})\n  c1 = f32[2,2] constant({{0, 5}, {0, 4}})\n"
                                               "  c2 = f32[2,2] constant({{2, 4}, {4, 4}})\n  add0 = f32[2,2] add(c0, c1)\n"
                                               "  add1 = f32[2,2] add(c1, c2)\n  ROOT add2 = f32[2,2] add(add0, add1)\n"))));
}

// Refusals: what XLA's evaluator refuses, ir::evaluate refuses too.
TEST(EvaluateXlaMisc, DontFailOnCallUnimplementedOps) {
  EXPECT_NE(evaluation_failure("HloModule m\n\ncall {\n  token0 = token[] after-all()\n  constant = u32[3]{0} constant({1,2,3})\n"
                    "  ROOT outfeed = token[] outfeed(constant, token0), outfeed_shape=u32[3]{0}\n}\n\n"
                    "ENTRY main {\n  ROOT result = token[] call(), to_apply=call\n}\n"),
            "NO ERROR");
}

TEST(EvaluateXlaMisc, DontFailOnFusionWithUnimplementedOps) {
  EXPECT_NE(evaluation_failure("HloModule m\n\nfused_computation {\n  token0 = token[] after-all()\n  constant = u32[3]{0} constant({1,2,3})\n"
                    "  ROOT outfeed = token[] outfeed(constant, token0), outfeed_shape=u32[3]{0}\n}\n\n"
                    "ENTRY main {\n  ROOT result = token[] fusion(), kind=kLoop, calls=fused_computation\n}\n"),
            "NO ERROR");
}

TEST(EvaluateXlaMisc, InfeedFailure) {
  EXPECT_NE(evaluation_failure(entry_module("  token = token[] after-all()\n  infeed = (f32[4,4], token[]) infeed(token)\n"
                          "  ROOT g = f32[4,4] get-tuple-element(infeed), index=0\n")),
            "NO ERROR");
}

TEST(EvaluateXlaMisc, EvaluateCustomCall_NoHandler) {
  EXPECT_NE(evaluation_failure(entry_module("  parameter.0 = u32[2,2]{1,0} parameter(0)\n"
                          "  ROOT test_root = (u32[2,2]{1,0}) custom-call(parameter.0), custom_call_target=\"_my_custom_call\"\n"),
                    {literal("u32[2,2] {{1, 2}, {3, 4}}")}),
            "NO ERROR");
}

// XLA's messages name the parameter and both shapes, or both counts; so do hlsgym's.
TEST(EvaluateXlaMisc, EvaluateWithWrongInputShapes) {
  const std::string why = evaluation_failure(entry_module("  p0 = s32[1] parameter(0)\n  ROOT sum = s32[1] add(p0, p0)\n"), {literal("s32[2] {0, 1}")});
  EXPECT_NE(why.find("s32[2]"), std::string::npos) << why;
  EXPECT_NE(why.find("s32[1]"), std::string::npos) << why;
}

TEST(EvaluateXlaMisc, EvaluateWithWrongNumberOfInputs) {
  const std::string why =
      evaluation_failure(entry_module("  p0 = s32[1] parameter(0)\n  ROOT sum = s32[1] add(p0, p0)\n"), {literal("s32[1] {0}"), literal("s32[1] {0}")});
  EXPECT_NE(why.find("takes 1 arguments, 2 given"), std::string::npos) << why;
}

// XLA's evaluator-API cases: hlsgym's ir::evaluate takes a whole module and a value for
// every parameter. Each case checks what hlsgym does instead and its line in the list.
TEST(EvaluateXlaMisc, EvaluateWithSubstitutions) {
  EXPECT_NE(deliberate_difference("evaluator", "EvaluateWithSubstitutions"), "");
}

TEST(EvaluateXlaMisc, EvaluateWithSubstitutionsWithConstantOperand) {
  EXPECT_NE(deliberate_difference("evaluator", "EvaluateWithSubstitutionsWithConstantOperand"), "");
}

TEST(EvaluateXlaMisc, EvaluateCustomCall_HandlerError) {
  EXPECT_NE(deliberate_difference("evaluator", "EvaluateCustomCall_HandlerError"), "");
}

TEST(EvaluateXlaMisc, EvaluateCustomCall_ManyInputs) {
  EXPECT_NE(deliberate_difference("evaluator", "EvaluateCustomCall_ManyInputs"), "");
}

TEST(EvaluateXlaMisc, GetDimensionSize) {
  EXPECT_NE(deliberate_difference("evaluator", "GetDimensionSize"), "");
  // Without a dynamic binding the size is the static one.
  EXPECT_TRUE(same_literal(literal("s32[] 4"), evaluate_text(entry_module("  size = s32[] parameter(0)\n  data = s32[4] parameter(1)\n"
                                                                   "  sum = s32[4] add(data, data)\n"
                                                                   "  ROOT d = s32[] get-dimension-size(sum), dimensions={0}\n"),
                                                             {literal("s32[] 3"), literal("s32[4] {1, 2, 3, 4}")})));
}

// Partial evaluation: XLA evaluates a get-tuple-element of a tuple of parameters and
// constants without the parameters' values. hlsgym needs them; given, the constant element
// comes out.
std::string partial_tuple_module(const std::string& body) {
  return entry_module("  c0 = f32[2,2] constant({{0, 2}, {2, 4}})\n  p0 = f32[2,2] parameter(0)\n  p1 = f32[2,2] parameter(1)\n"
               "  p2 = f32[2,2] parameter(2)\n" + body);
}

std::vector<ir::Literal> three_params() {
  return {literal("f32[2,2] {{1, 1}, {1, 1}}"), literal("f32[2,2] {{2, 2}, {2, 2}}"), literal("f32[2,2] {{3, 3}, {3, 3}}")};
}

TEST(EvaluateXlaMisc, GetTupleElementOnPartiallyKnownTupleSucceeds) {
  EXPECT_NE(deliberate_difference("evaluator", "GetTupleElementOnPartiallyKnownTupleSucceeds"), "");
  EXPECT_TRUE(same_literal(literal("f32[2,2] {{0, 2}, {2, 4}}"),
                           evaluate_text(partial_tuple_module("  t = (f32[2,2], f32[2,2], f32[2,2]) tuple(p0, p1, c0)\n"
                                                              "  ROOT g = f32[2,2] get-tuple-element(t), index=2\n"),
                                         three_params())));
}

TEST(EvaluateXlaMisc, GetUnknownTupleElementFails) {
  EXPECT_NE(deliberate_difference("evaluator", "GetUnknownTupleElementFails"), "");
  EXPECT_NE(evaluation_failure(partial_tuple_module("  t = (f32[2,2], f32[2,2], f32[2,2]) tuple(p0, p1, c0)\n"
                                         "  ROOT g = f32[2,2] get-tuple-element(t), index=0\n")),
            "NO ERROR");
}

TEST(EvaluateXlaMisc, GetTupleElementFromNestedTupleSucceeds) {
  EXPECT_NE(deliberate_difference("evaluator", "GetTupleElementFromNestedTupleSucceeds"), "");
  EXPECT_TRUE(same_literal(literal("f32[2,2] {{0, 2}, {2, 4}}"),
                           evaluate_text(partial_tuple_module("  t0 = (f32[2,2], f32[2,2]) tuple(p0, c0)\n"
                                                              "  t1 = ((f32[2,2], f32[2,2]), f32[2,2]) tuple(t0, p1)\n"
                                                              "  g0 = (f32[2,2], f32[2,2]) get-tuple-element(t1), index=0\n"
                                                              "  ROOT g1 = f32[2,2] get-tuple-element(g0), index=1\n"),
                                         three_params())));
}

TEST(EvaluateXlaMisc, GetTupleElementInterleavedWithTupleSucceeds) {
  EXPECT_NE(deliberate_difference("evaluator", "GetTupleElementInterleavedWithTupleSucceeds"), "");
  EXPECT_TRUE(same_literal(literal("f32[2,2] {{0, 2}, {2, 4}}"),
                           evaluate_text(partial_tuple_module("  t0 = (f32[2,2], f32[2,2]) tuple(p0, c0)\n"
                                                              "  t1 = ((f32[2,2], f32[2,2]), f32[2,2]) tuple(t0, p1)\n"
                                                              "  g0 = (f32[2,2], f32[2,2]) get-tuple-element(t1), index=0\n"
                                                              "  t2 = ((f32[2,2], f32[2,2]), f32[2,2]) tuple(g0, p2)\n"
                                                              "  g1 = (f32[2,2], f32[2,2]) get-tuple-element(t2), index=0\n"
                                                              "  ROOT g2 = f32[2,2] get-tuple-element(g1), index=1\n"),
                                         three_params())));
}

// Layouts: a bitcast reinterprets the operand's bytes in memory order, which the layouts
// give (minor-to-major); XLA checks the result's buffer equals the argument's.
// f32[32,121]{1,0} -> f32[121,32,1]{0,1,2}: result (i, j, 0) is argument (j, i).
TEST(EvaluateXlaMisc, Bitcast) {
  ir::Literal arg(ir::Shape(ir::ElementType::kF32, {32, 121}));
  for (int64_t k = 0; k < arg.element_count(); ++k) arg.set_double(k, double(k));
  const ir::Literal got = evaluate_text(entry_module("  param = f32[32,121]{1,0} parameter(0)\n"
                                              "  ROOT bitcast = f32[121,32,1]{0,1,2} bitcast(param)\n"),
                                        {arg});
  for (int64_t i = 0; i < 121; ++i)
    for (int64_t j = 0; j < 32; ++j) ASSERT_EQ(got.get_double(i * 32 + j), double(j * 121 + i)) << i << "," << j;
}

// f32[20,20]{0,1} bitcast to {1,0} in a fusion: the buffer is kept, so the values transpose.
void expect_transposed_20x20(const ir::Literal& got) {
  for (int64_t i = 0; i < 20; ++i)
    for (int64_t j = 0; j < 20; ++j) ASSERT_EQ(got.get_double(i * 20 + j), double(j * 20 + i)) << i << "," << j;
}

ir::Literal iota_20x20() {
  ir::Literal arg(ir::Shape(ir::ElementType::kF32, {20, 20}));
  for (int64_t k = 0; k < arg.element_count(); ++k) arg.set_double(k, double(k));
  return arg;
}

TEST(EvaluateXlaMisc, PreserveFusionInputLayout) {
  expect_transposed_20x20(evaluate_text("HloModule m\n\nfused_computation {\n  param_0 = f32[20,20]{0,1} parameter(0)\n"
                                        "  ROOT bitcast = f32[20,20]{1,0} bitcast(param_0)\n}\n\n"
                                        "ENTRY kernel_entry {\n  parameter.0 = f32[20,20]{0,1} parameter(0)\n"
                                        "  ROOT fusion = f32[20,20]{1,0} fusion(parameter.0), kind=kLoop, calls=fused_computation\n}\n",
                                        {iota_20x20()}));
}

TEST(EvaluateXlaMisc, PreserveFusionOutputLayout) {
  expect_transposed_20x20(evaluate_text("HloModule m\n\nfused_computation {\n  param_0 = f32[20,20]{1,0} parameter(0)\n"
                                        "  ROOT bitcast = f32[20,20]{0,1} bitcast(param_0)\n}\n\n"
                                        "ENTRY kernel_entry {\n  parameter.0 = f32[20,20]{1,0} parameter(0)\n"
                                        "  ROOT fusion = f32[20,20]{0,1} fusion(parameter.0), kind=kLoop, calls=fused_computation\n}\n",
                                        {iota_20x20()}));
}

TEST(EvaluateXlaMisc, PreserveMOFusionOutputLayout) {
  const ir::Literal got =
      evaluate_text("HloModule m\n\nfused_computation {\n  param_0 = f32[20,20]{1,0} parameter(0)\n"
                    "  bitcast = f32[20,20]{0,1} bitcast(param_0)\n  ROOT tuple = (f32[20,20]{0,1}) tuple(bitcast)\n}\n\n"
                    "ENTRY kernel_entry {\n  parameter.0 = f32[20,20]{1,0} parameter(0)\n"
                    "  ROOT fusion = (f32[20,20]{0,1}) fusion(parameter.0), kind=kLoop, calls=fused_computation\n}\n",
                    {iota_20x20()});
  ASSERT_EQ(got.tuple_elements().size(), 1u);
  expect_transposed_20x20(got.tuple_elements()[0]);
}

// Not an XLA case: the comparisons these ports rely on fail where they should (the sign
// of a zero and a NaN's payload are bits; a tolerance is a bound).
TEST(EvaluateXlaMisc, ComparisonsCanFail) {
  EXPECT_FALSE(same_literal(literal("f32[2] {0, 1}"), literal("f32[2] {-0, 1}")));
  EXPECT_FALSE(same_literal(literal("f32[2] {0, 1}"), literal("f32[2] {0, 2}")));
  EXPECT_FALSE(same_literal(literal("f32[2] {0, 1}"), literal("f64[2] {0, 1}")));
  EXPECT_FALSE(same_literal(literal("f32[2] {0, 1}"), literal("f32[1,2] {{0, 1}}")));
  EXPECT_FALSE(same_literal(tuple_literal({literal("s32[] 1")}), tuple_literal({literal("s32[] 2")})));
  EXPECT_TRUE(same_literal(literal("f32[1] {nan}"), literal("f32[1] {nan}")));
  EXPECT_TRUE(near_literal(literal("f32[1] {1}"), literal("f32[1] {1.00009}"), 1e-4));
  EXPECT_FALSE(near_literal(literal("f32[1] {1}"), literal("f32[1] {1.0002}"), 1e-4));
  EXPECT_FALSE(near_literal(literal("c64[1] {(1, 1)}"), literal("c64[1] {(1, 2)}"), 1e-4, 1e-5));
  EXPECT_FALSE(near_literal(literal("f32[1] {nan}"), literal("f32[1] {1}"), 1e-4));
}

// Not an XLA case: evaluating sampled elements reads a bitcast between layouts as the
// whole evaluation does.
TEST(EvaluateXlaMisc, SampledBitcastBetweenLayoutsAgrees) {
  const ir::Module m = frontend::parse_hlo("HloModule m\n\nENTRY e {\n  p = f32[20,20]{0,1} parameter(0)\n"
                                           "  ROOT b = f32[5,80]{1,0} bitcast(p)\n}\n", "t.hlo");
  ir::verify(m);
  const std::vector<ir::Literal> args = {iota_20x20()};
  const ir::Literal whole = ir::evaluate(m, args).value;
  const ir::SampledResult sampled = ir::evaluate_sampled(m, args, 50, 7);
  ASSERT_EQ(sampled.indices.size(), 1u);
  for (size_t k = 0; k < sampled.indices[0].size(); ++k)
    EXPECT_EQ(sampled.values[0].get_double(static_cast<int64_t>(k)), whole.get_double(sampled.indices[0][k])) << k;
  // Element (0, 1) of the result is the second float in memory: argument (1, 0) = 20.
  EXPECT_EQ(whole.get_double(1), 20.0);
}

// Not an XLA case: get-dimension-size of a bounded dynamic dimension is refused, not
// answered with its bound.
TEST(EvaluateXlaMisc, GetDimensionSizeOfABoundedDimensionIsRefused) {
  EXPECT_NE(evaluation_failure(entry_module("  p = s32[<=4] parameter(0)\n  ROOT d = s32[] get-dimension-size(p), dimensions={0}\n"),
                    {literal("s32[4] {1, 2, 3, 4}")})
                .find("bounded dynamic"),
            std::string::npos);
}

}  // namespace
}  // namespace hlsgym::testing
