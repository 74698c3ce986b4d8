// XLA's HLO evaluator cases (xla/hlo/evaluator/hlo_evaluator_test.cc at openxla/xla
// 001918b7024cf5f020051a9d25d2dd57a5896aaa): reduce, reduce-window, slicing, tuples.
// Each TEST is the XLA case of the same name (its f32 instantiation where XLA also runs
// bf16); the HLO text is what XLA's builder calls construct. Counted in
// tests/ir/xla_cases/PORTED.md.
#include <gtest/gtest.h>

#include "ir/evaluate.h"
#include "tests/support/eval_case.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::testing {
namespace {

const char* const kAddF32 = "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\n";
const char* const kMaxF32 = "max {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT m = f32[] maximum(a, b)\n}\n\n";

std::string module(const std::string& computations, const std::string& body) {
  return "HloModule m\n\n" + computations + "ENTRY e {\n" + body + "}\n";
}

// XLA's ReduceWindowMaxIotaTest: max over a 4x4 iota (0..15), init 0, the same window in
// both dimensions.
ir::Literal reduce_window_max_iota(const std::string& window, const std::string& out_shape) {
  return evaluate_text(module(kMaxF32, "  i = f32[4,4] constant({{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}})\n"
                                       "  z = f32[] constant(0)\n  ROOT r = " + out_shape +
                                           " reduce-window(i, z), window={" + window + "}, to_apply=max\n"));
}

// XLA accumulates an add reduce in double (2^25 ones sum to 2^25). hlsgym's reduce applies
// the reducer in the element type, row-major (README "Interpreter semantics"), so f32
// stops at 2^24; listed.
TEST(EvaluateXlaReduceWindow, AddReductionPrecisionTest) {
  EXPECT_NE(deliberate_difference("evaluator", "AddReductionPrecisionTest"), "");
  const ir::Literal got = evaluate_text(module(kAddF32, "  one = f32[] constant(1)\n  v = f32[33554432] broadcast(one), dimensions={}\n"
                                                        "  z = f32[] constant(0)\n"
                                                        "  ROOT r = f32[] reduce(v, z), dimensions={0}, to_apply=add\n"));
  EXPECT_EQ(got.get_double(0), 16777216.0);
}

TEST(EvaluateXlaReduceWindow, ReduceAdd) {
  EXPECT_TRUE(same_literal(literal("f32[2] {6, 18}"),
                           evaluate_text(module(kAddF32, "  a = f32[2,3] constant({{1, 2, 3}, {5, 6, 7}})\n  z = f32[] constant(0)\n"
                                                         "  ROOT r = f32[2] reduce(a, z), dimensions={1}, to_apply=add\n"))));
}

TEST(EvaluateXlaReduceWindow, ReduceWindowMax) {
  EXPECT_TRUE(same_literal(literal("f32[1,2] {{6, 7}}"),
                           evaluate_text(module(kMaxF32, "  a = f32[2,3] constant({{1, 2, 3}, {5, 6, 7}})\n  z = f32[] constant(0)\n"
                                                         "  ROOT r = f32[1,2] reduce-window(a, z), window={size=2x2}, to_apply=max\n"))));
}

TEST(EvaluateXlaReduceWindow, ReduceWindowMaxIotaWindowDilation) {
  EXPECT_TRUE(same_literal(literal("f32[2,2] {{10, 11}, {14, 15}}"), reduce_window_max_iota("size=2x2 rhs_dilate=2x2", "f32[2,2]")));
}

TEST(EvaluateXlaReduceWindow, ReduceWindowMaxIotaStrideWindowDilation) {
  EXPECT_TRUE(same_literal(literal("f32[1,1] {{10}}"), reduce_window_max_iota("size=2x2 stride=2x2 rhs_dilate=2x2", "f32[1,1]")));
}

TEST(EvaluateXlaReduceWindow, ReduceWindowMaxIotaBaseDilation) {
  EXPECT_TRUE(same_literal(literal("f32[6,6] {{0, 1, 1, 2, 2, 3}, {4, 5, 5, 6, 6, 7}, {4, 5, 5, 6, 6, 7}, "
                                   "{8, 9, 9, 10, 10, 11}, {8, 9, 9, 10, 10, 11}, {12, 13, 13, 14, 14, 15}}"),
                           reduce_window_max_iota("size=2x2 lhs_dilate=2x2", "f32[6,6]")));
}

TEST(EvaluateXlaReduceWindow, ReduceWindowMaxIotaStrideBaseDilation) {
  EXPECT_TRUE(same_literal(literal("f32[3,3] {{0, 1, 2}, {4, 5, 6}, {8, 9, 10}}"),
                           reduce_window_max_iota("size=2x2 stride=2x2 lhs_dilate=2x2", "f32[3,3]")));
}

TEST(EvaluateXlaReduceWindow, ReduceWindowMaxIotaStrideBothDilation) {
  EXPECT_TRUE(same_literal(literal("f32[3,3] {{5, 6, 7}, {9, 10, 11}, {13, 14, 15}}"),
                           reduce_window_max_iota("size=2x2 stride=2x2 lhs_dilate=2x2 rhs_dilate=2x2", "f32[3,3]")));
}

// The base is dilated first, then padded.
TEST(EvaluateXlaReduceWindow, ReduceWindowMaxIotaPaddingStrideBaseDilation) {
  EXPECT_TRUE(same_literal(literal("f32[3,3] {{0, 2, 3}, {8, 10, 11}, {12, 14, 15}}"),
                           reduce_window_max_iota("size=3x3 stride=3x3 pad=1_1x1_1 lhs_dilate=2x2", "f32[3,3]")));
}

TEST(EvaluateXlaReduceWindow, ReduceWindowAdd) {
  EXPECT_TRUE(same_literal(literal("f32[2,3] {{1, 3, 5}, {5, 11, 13}}"),
                           evaluate_text(module(kAddF32, "  a = f32[2,3] constant({{1, 2, 3}, {5, 6, 7}})\n  z = f32[] constant(0)\n"
                                                         "  ROOT r = f32[2,3] reduce-window(a, z), window={size=1x2 pad=0_0x1_0}, "
                                                         "to_apply=add\n"))));
}

TEST(EvaluateXlaReduceWindow, ReduceWindowAdd6D) {
  const ir::Literal got = evaluate_text(module(kAddF32, "  one = f32[] constant(1)\n  a = f32[4,4,4,4,4,4] broadcast(one), dimensions={}\n"
                                                        "  z = f32[] constant(0)\n"
                                                        "  ROOT r = f32[4,3,3,3,4,4] reduce-window(a, z), window={size=1x2x2x2x1x1}, "
                                                        "to_apply=add\n"));
  const ir::Literal want = evaluate_text(entry_module("  e = f32[] constant(8)\n  ROOT b = f32[4,3,3,3,4,4] broadcast(e), dimensions={}\n"));
  EXPECT_TRUE(same_literal(want, got));
}

const char* const kMinTuple =
    "min {\n  x0 = f32[] parameter(0)\n  x1 = TYPE[] parameter(1)\n  y0 = f32[] parameter(2)\n  y1 = TYPE[] parameter(3)\n"
    "  m0 = f32[] minimum(x0, y0)\n  m1 = TYPE[] minimum(x1, y1)\n  ROOT t = (f32[], TYPE[]) tuple(m0, m1)\n}\n\n";

std::string with_type(std::string text, const std::string& type) {
  for (size_t at; (at = text.find("TYPE")) != std::string::npos;) text.replace(at, 4, type);
  return text;
}

TEST(EvaluateXlaReduceWindow, Min3In5Stride2Tuple) {
  const ir::Literal got = evaluate_text(module(
      with_type(kMinTuple, "f32"),
      "  a = f32[5] constant({10000, 1000, 100, 10, 1})\n  b = f32[5] constant({10000, 1000, 100, 10, 1})\n"
      "  i = f32[] constant(3.40282347e+38)\n  j = f32[] constant(3.40282347e+38)\n"
      "  ROOT r = (f32[2], f32[2]) reduce-window(a, b, i, j), window={size=3 stride=2}, to_apply=min\n"));
  EXPECT_TRUE(same_literal(tuple_literal({literal("f32[2] {100, 1}"), literal("f32[2] {100, 1}")}), got));
}

TEST(EvaluateXlaReduceWindow, Min3In5Stride2TupleDiffInput) {
  const ir::Literal got = evaluate_text(module(
      with_type(kMinTuple, "s32"),
      "  a = f32[5] constant({10000, 1000, 100, 10, 1})\n  b = s32[5] constant({15, 28, 300, 107, 12})\n"
      "  i = f32[] constant(3.40282347e+38)\n  j = s32[] constant(2147483647)\n"
      "  ROOT r = (f32[2], s32[2]) reduce-window(a, b, i, j), window={size=3 stride=2}, to_apply=min\n"));
  EXPECT_TRUE(same_literal(tuple_literal({literal("f32[2] {100, 1}"), literal("s32[2] {15, 12}")}), got));
}

TEST(EvaluateXlaReduceWindow, StridedSlice) {
  EXPECT_TRUE(same_literal(literal("f32[2,1] {{3}, {19}}"),
                           evaluate_text(entry_module("  a = f32[3,5] constant({{1, 2, 3, 4, 5}, {9, 10, 11, 12, 13}, {17, 18, 19, 20, 21}})\n"
                                               "  ROOT s = f32[2,1] slice(a), slice={[0:3:2], [2:5:3]}\n"))));
}

TEST(EvaluateXlaReduceWindow, DynamicSlice) {
  EXPECT_TRUE(same_literal(literal("f32[2,3] {{2, 3, 4}, {6, 7, 8}}"),
                           evaluate_text(entry_module("  a = f32[2,4] constant({{1, 2, 3, 4}, {5, 6, 7, 8}})\n"
                                               "  i = s32[] constant(0)\n  j = s32[] constant(1)\n"
                                               "  ROOT s = f32[2,3] dynamic-slice(a, i, j), dynamic_slice_sizes={2,3}\n"))));
}

// A start index past the end is clamped (as XLA's backends do).
TEST(EvaluateXlaReduceWindow, DynamicSliceModSlice) {
  EXPECT_TRUE(same_literal(literal("f32[2,3] {{2, 3, 4}, {6, 7, 8}}"),
                           evaluate_text(entry_module("  a = f32[2,4] constant({{1, 2, 3, 4}, {5, 6, 7, 8}})\n"
                                               "  i = s32[] constant(2)\n  j = s32[] constant(1)\n"
                                               "  ROOT s = f32[2,3] dynamic-slice(a, i, j), dynamic_slice_sizes={2,3}\n"))));
}

TEST(EvaluateXlaReduceWindow, DynamicSliceUpdate) {
  EXPECT_TRUE(same_literal(literal("f64[2,3] {{1, -2, -3}, {5, -6, -7}}"),
                           evaluate_text(entry_module("  a = f64[2,3] constant({{1, 2, 3}, {5, 6, 7}})\n"
                                               "  i = s32[] constant(0)\n  j = s32[] constant(1)\n"
                                               "  u = f64[2,2] constant({{-2, -3}, {-6, -7}})\n"
                                               "  ROOT s = f64[2,3] dynamic-update-slice(a, u, i, j)\n"))));
}

TEST(EvaluateXlaReduceWindow, SetAndGetTuples) {
  EXPECT_TRUE(same_literal(literal("f64[2,3] {{1, 2, 3}, {5, 6, 7}}"),
                           evaluate_text(entry_module("  a = f64[2,3] constant({{1, 2, 3}, {5, 6, 7}})\n  b = s64[2] constant({0, 1})\n"
                                               "  t = (s64[2], f64[2,3]) tuple(b, a)\n"
                                               "  ROOT g = f64[2,3] get-tuple-element(t), index=1\n"))));
}

TEST(EvaluateXlaReduceWindow, SetAndGetNestedTuples) {
  const ir::Literal inner = literal("f64[2,3] {{1, 2, 3}, {5, 6, 7}}");
  EXPECT_TRUE(same_literal(tuple_literal({inner, inner}),
                           evaluate_text(entry_module("  a = f64[2,3] constant({{1, 2, 3}, {5, 6, 7}})\n  b = s64[2] constant({0, 1})\n"
                                               "  t1 = (s64[2], f64[2,3]) tuple(b, a)\n  t2 = (f64[2,3], f64[2,3]) tuple(a, a)\n"
                                               "  o = ((s64[2], f64[2,3]), (f64[2,3], f64[2,3])) tuple(t1, t2)\n"
                                               "  ROOT g = (f64[2,3], f64[2,3]) get-tuple-element(o), index=1\n"))));
}

TEST(EvaluateXlaReduceWindow, Reverse) {
  EXPECT_TRUE(same_literal(
      literal("f32[4,3,2,1] {{{{23}, {24}}, {{21}, {22}}, {{19}, {20}}}, {{{17}, {18}}, {{15}, {16}}, {{13}, {14}}}, "
              "{{{11}, {12}}, {{9}, {10}}, {{7}, {8}}}, {{{5}, {6}}, {{3}, {4}}, {{1}, {2}}}}"),
      evaluate_text(entry_module("  a = f32[4,3,2,1] constant({{{{1}, {2}}, {{3}, {4}}, {{5}, {6}}}, {{{7}, {8}}, {{9}, {10}}, {{11}, {12}}}, "
                          "{{{13}, {14}}, {{15}, {16}}, {{17}, {18}}}, {{{19}, {20}}, {{21}, {22}}, {{23}, {24}}}})\n"
                          "  ROOT r = f32[4,3,2,1] reverse(a), dimensions={0,1}\n"))));
}

TEST(EvaluateXlaReduceWindow, Bf16Reduction) {
  EXPECT_TRUE(same_literal(
      literal("bf16[] 44"),
      evaluate_text(module("add_bf16 {\n  a = bf16[] parameter(0)\n  b = bf16[] parameter(1)\n  ROOT s = bf16[] add(a, b)\n}\n\n",
                           "  arg0 = bf16[4]{0} parameter(0)\n  init = bf16[] constant(0)\n"
                           "  ROOT r = bf16[] reduce(arg0, init), dimensions={0}, to_apply=add_bf16\n"),
                    {literal("bf16[4] {1, 3, -2, 42}")})));
}

// The reduce is declared bf16[] but its reducer computes f32[]: XLA's test verifier allows
// such mixed precision, hlsgym's verifier requires the inferred type and refuses it. Listed.
TEST(EvaluateXlaReduceWindow, MixedPrecisionReduction) {
  EXPECT_NE(deliberate_difference("evaluator", "MixedPrecisionReduction"), "");
  EXPECT_ANY_THROW(evaluate_text(module(kAddF32, "  arg0 = f32[4]{0} parameter(0)\n  init = f32[] constant(0)\n"
                                                 "  ROOT r = bf16[] reduce(arg0, init), dimensions={0}, to_apply=add\n"),
                                 {literal("f32[4] {1, 3, -2, 42}")}));
}

}  // namespace
}  // namespace hlsgym::testing
