// XLA's HLO evaluator cases (xla/hlo/evaluator/hlo_evaluator_test.cc at openxla/xla
// 001918b7024cf5f020051a9d25d2dd57a5896aaa): elementwise ops, data movement, pad.
// Each TEST is the XLA case of the same name, its f32 instantiation where XLA runs it in
// f32 and bf16; the HLO text is what XLA's builder calls construct. Counted in
// tests/ir/xla_cases/PORTED.md.
#include <gtest/gtest.h>

#include "tests/support/eval_case.h"

namespace hlsgym::testing {
namespace {

// ROOT r = out_shape op(a, b, ...) of constants a, b, ... written "shape value".
ir::Literal op_of_constants(const std::string& op, const std::vector<std::string>& constants, const std::string& out_shape) {
  std::string body, names;
  for (size_t k = 0; k < constants.size(); ++k) {
    const std::string name(1, char('a' + k));
    const size_t space = constants[k].find(' ');
    body += "  " + name + " = " + constants[k].substr(0, space) + " constant(" + constants[k].substr(space + 1) + ")\n";
    names += (k ? ", " : "") + name;
  }
  return evaluate_text(entry_module(body + "  ROOT r = " + out_shape + " " + op + "(" + names + ")\n"));
}

ir::Literal unary(const std::string& op, const std::string& a, const std::string& out_shape) {
  return op_of_constants(op, {a}, out_shape);
}
ir::Literal binary(const std::string& op, const std::string& a, const std::string& b, const std::string& out_shape) {
  return op_of_constants(op, {a, b}, out_shape);
}
ir::Literal ternary(const std::string& op, const std::string& a, const std::string& b, const std::string& c,
                    const std::string& out_shape) {
  return op_of_constants(op, {a, b, c}, out_shape);
}

TEST(EvaluateXlaElementwise, DoesClamp) {
  EXPECT_TRUE(same_literal(literal("f32[2,2] {{0, 4}, {2, 4}}"),
                           ternary("clamp", "f32[2,2] {{0, 2}, {2, 4}}", "f32[2,2] {{0, 5}, {0, 4}}",
                                   "f32[2,2] {{2, 4}, {4, 4}}", "f32[2,2]")));
}

// ones(n) = 2^n - 1: clamping s64 must not go through double.
TEST(EvaluateXlaElementwise, DoesClampInt64) {
  EXPECT_TRUE(same_literal(
      literal("s64[2,2] {{0, 36028797018963967}, {18014398509481983, 288230376151711743}}"),
      ternary("clamp", "s64[2,2] {{0, 18014398509481983}, {18014398509481983, 288230376151711743}}",
              "s64[2,2] {{0, 72057594037927935}, {0, 288230376151711743}}",
              "s64[2,2] {{18014398509481983, 36028797018963967}, {72057594037927935, 288230376151711743}}", "s64[2,2]")));
}

TEST(EvaluateXlaElementwise, DoesSelect) {
  EXPECT_TRUE(same_literal(literal("f32[2,2] {{2, 5}, {0, 4}}"),
                           ternary("select", "pred[2,2] {{true, false}, {false, true}}", "f32[2,2] {{2, 4}, {4, 4}}",
                                   "f32[2,2] {{0, 5}, {0, 4}}", "f32[2,2]")));
}

TEST(EvaluateXlaElementwise, DoesAdd) {
  EXPECT_TRUE(same_literal(literal("s64[2,2] {{3, 4}, {-96, 8}}"),
                           binary("add", "s64[2,2] {{1, 0}, {-100, 4}}", "s64[2,2] {{2, 4}, {4, 4}}", "s64[2,2]")));
}

TEST(EvaluateXlaElementwise, DoesAnd) {
  EXPECT_TRUE(same_literal(literal("s64[2,2] {{0, 0}, {4, 4}}"),
                           binary("and", "s64[2,2] {{1, 0}, {-100, 4}}", "s64[2,2] {{2, 4}, {4, 4}}", "s64[2,2]")));
}

TEST(EvaluateXlaElementwise, DoesOr) {
  EXPECT_TRUE(same_literal(literal("s64[2,2] {{3, 4}, {-100, 4}}"),
                           binary("or", "s64[2,2] {{1, 0}, {-100, 4}}", "s64[2,2] {{2, 4}, {4, 4}}", "s64[2,2]")));
}

TEST(EvaluateXlaElementwise, DoesXor) {
  EXPECT_TRUE(same_literal(literal("s64[2,2] {{3, 4}, {-104, 0}}"),
                           binary("xor", "s64[2,2] {{1, 0}, {-100, 4}}", "s64[2,2] {{2, 4}, {4, 4}}", "s64[2,2]")));
}

TEST(EvaluateXlaElementwise, DoesMultiply) {
  EXPECT_TRUE(same_literal(literal("s32[2,2] {{-2147483648, 0}, {-400, 16}}"),
                           binary("multiply", "s32[2,2] {{-1, 0}, {-100, 4}}", "s32[2,2] {{-2147483648, 4}, {4, 4}}",
                                  "s32[2,2]")));
}

TEST(EvaluateXlaElementwise, DoesDivideInt64) {
  EXPECT_TRUE(same_literal(literal("s64[2,2] {{0, 0}, {-25, 1}}"),
                           binary("divide", "s64[2,2] {{1, 0}, {-100, 4}}", "s64[2,2] {{2, 4}, {4, 4}}", "s64[2,2]")));
}

TEST(EvaluateXlaElementwise, DoesClampS64) {
  EXPECT_TRUE(same_literal(
      literal("s64[3] {-6780561065411491190, 6780561065411491190, 3832151243857508051}"),
      ternary("clamp", "s64[3] {-8616761059752331528, 6780561065411491190, -8616761059752331528}",
              "s64[3] {-6780561065411491190, 6780561065411491180, 4241131823772864090}",
              "s64[3] {-6780561065411491180, 8616761059752331528, 3832151243857508051}", "s64[3]")));
}

TEST(EvaluateXlaElementwise, DoesDivideDouble) {
  EXPECT_TRUE(same_literal(literal("f64[2,2] {{0.45454545454545453, 0}, {-25, 1}}"),
                           binary("divide", "f64[2,2] {{1, 0}, {-100, 4}}", "f64[2,2] {{2.2, 4}, {4, 4}}", "f64[2,2]")));
}

TEST(EvaluateXlaElementwise, DoesAbsR2) {
  EXPECT_TRUE(same_literal(literal("s64[2,2] {{1, 20}, {100, 4}}"), unary("abs", "s64[2,2] {{1, -20}, {-100, 4}}", "s64[2,2]")));
}

TEST(EvaluateXlaElementwise, DoesAbsR0) {
  EXPECT_TRUE(same_literal(literal("f32[] 1"), unary("abs", "f32[] -1", "f32[]")));
}

TEST(EvaluateXlaElementwise, DoesAbsR1WithZeroSize) {
  EXPECT_TRUE(same_literal(literal("f32[0] {}"), unary("abs", "f32[0] {}", "f32[0]")));
}

// XLA compares with an error of 3e-6 (its expected value is rounded to 6 digits).
TEST(EvaluateXlaElementwise, DoesAbsC128) {
  EXPECT_TRUE(near_literal(literal("f64[] 2.23607"), unary("abs", "c128[] (1, 2)", "f64[]"), 3e-6));
}

TEST(EvaluateXlaElementwise, DoesNegateR2) {
  EXPECT_TRUE(same_literal(literal("s32[2,2] {{0, -2147483648}, {1, -4}}"),
                           unary("negate", "s32[2,2] {{0, -2147483648}, {-1, 4}}", "s32[2,2]")));
}

// XLA's bound for f32: 9.5367431640625E-7 (cos(pi) of the rounded pi).
TEST(EvaluateXlaElementwise, DoesCosR2) {
  EXPECT_TRUE(near_literal(literal("f32[2,2] {{1, -1}, {-1, 1}}"),
                           unary("cosine", "f32[2,2] {{0, 3.14159265358979}, {-3.14159265358979, 6.28318530717959}}",
                                 "f32[2,2]"),
                           9.5367431640625E-7));
}

TEST(EvaluateXlaElementwise, DoesSinR2) {
  EXPECT_TRUE(near_literal(literal("f32[2,2] {{0, 0}, {0, 0}}"),
                           unary("sine", "f32[2,2] {{0, 3.14159265358979}, {-3.14159265358979, 6.28318530717959}}",
                                 "f32[2,2]"),
                           9.5367431640625E-7));
}

TEST(EvaluateXlaElementwise, DoesNotR2) {
  EXPECT_TRUE(same_literal(literal("s32[2,2] {{-1, 2147483647}, {0, -2147483648}}"),
                           unary("not", "s32[2,2] {{0, -2147483648}, {-1, 2147483647}}", "s32[2,2]")));
}

TEST(EvaluateXlaElementwise, DoesRealC128) {
  EXPECT_TRUE(same_literal(literal("f64[2] {1, -100}"), unary("real", "c128[2] {(1, 0), (-100, 4)}", "f64[2]")));
}

TEST(EvaluateXlaElementwise, DoesImagC128) {
  EXPECT_TRUE(same_literal(literal("f64[2] {0, 4}"), unary("imag", "c128[2] {(1, 0), (-100, 4)}", "f64[2]")));
}

TEST(EvaluateXlaElementwise, DoesImagF32AndBf16) {
  EXPECT_TRUE(same_literal(literal("f32[2] {0, 0}"), unary("imag", "f32[2] {1, -100}", "f32[2]")));
  EXPECT_TRUE(same_literal(literal("bf16[2] {0, 0}"), unary("imag", "bf16[2] {1, -100}", "bf16[2]")));
}

TEST(EvaluateXlaElementwise, DoesImagF64) {
  EXPECT_TRUE(same_literal(literal("f64[2] {0, 0}"), unary("imag", "f64[2] {1, -100}", "f64[2]")));
}

TEST(EvaluateXlaElementwise, DoesTraverseInstructions) {
  const ir::Literal got = evaluate_text(
      entry_module("  lhs = s64[2,2] parameter(0)\n  rhs = s64[2,2] parameter(1)\n  a = s64[2,2] add(lhs, rhs)\n"
            "  rhs2 = s64[2,2] parameter(2)\n  ROOT r = s64[2,2] add(a, rhs2)\n"),
      {literal("s64[2,2] {{1, 0}, {-100, 4}}"), literal("s64[2,2] {{2, 4}, {4, 4}}"),
       literal("s64[2,2] {{1, -20}, {-100, 4}}")});
  EXPECT_TRUE(same_literal(literal("s64[2,2] {{4, -16}, {-196, 12}}"), got));
}

// XLA transposes a random f32[11,8,7,5,9] by {1,2,0,4,3} and checks each cell against the
// operand at the inverse permutation; here the operand is iota-like (cell = its linear
// index) and every cell is checked the same way.
TEST(EvaluateXlaElementwise, DoesReshape) {
  const int64_t dims[] = {11, 8, 7, 5, 9}, perm[] = {1, 2, 0, 4, 3};
  const ir::Literal got = evaluate_text(entry_module("  c = f32[11,8,7,5,9] parameter(0)\n"
                                              "  ROOT t = f32[8,7,11,9,5] transpose(c), dimensions={1,2,0,4,3}\n"),
                                        {[&] {
                                          ir::Literal l(ir::Shape(ir::ElementType::kF32, {11, 8, 7, 5, 9}));
                                          for (int64_t k = 0; k < l.element_count(); ++k) l.set_double(k, double(k));
                                          return l;
                                        }()});
  int64_t out_dims[5];
  for (int d = 0; d < 5; ++d) out_dims[d] = dims[perm[d]];
  for (int64_t k = 0; k < got.element_count(); ++k) {
    int64_t index[5], rest = k;
    for (int d = 4; d >= 0; --d) index[d] = rest % out_dims[d], rest /= out_dims[d];
    int64_t in_index[5];
    for (int d = 0; d < 5; ++d) in_index[perm[d]] = index[d];
    int64_t linear = 0;
    for (int d = 0; d < 5; ++d) linear = linear * dims[d] + in_index[d];
    ASSERT_EQ(got.get_double(k), double(linear)) << k;
  }
}

TEST(EvaluateXlaElementwise, DoesBroadcast) {
  EXPECT_TRUE(same_literal(literal("s32[2,3,2] {{{1, 2}, {3, 4}, {5, 6}}, {{1, 2}, {3, 4}, {5, 6}}}"),
                           evaluate_text(entry_module("  c = s32[3,2] constant({{1, 2}, {3, 4}, {5, 6}})\n"
                                               "  ROOT b = s32[2,3,2] broadcast(c), dimensions={1,2}\n"))));
}

TEST(EvaluateXlaElementwise, DoesBroadcastScalar) {
  EXPECT_TRUE(same_literal(literal("s32[6,2] {{111, 111}, {111, 111}, {111, 111}, {111, 111}, {111, 111}, {111, 111}}"),
                           evaluate_text(entry_module("  c = s32[] constant(111)\n  ROOT b = s32[6,2] broadcast(c), dimensions={}\n"))));
}

TEST(EvaluateXlaElementwise, DoesConcatenateSimple) {
  EXPECT_TRUE(same_literal(literal("s64[4,2] {{-1, -2}, {100, 200}, {-2, -3}, {-100, -200}}"),
                           evaluate_text(entry_module("  a = s64[2,2] constant({{-1, -2}, {100, 200}})\n"
                                               "  b = s64[2,2] constant({{-2, -3}, {-100, -200}})\n"
                                               "  ROOT c = s64[4,2] concatenate(a, b), dimensions={0}\n"))));
}

TEST(EvaluateXlaElementwise, ConcatenateHandlesShapeWithZeroElement) {
  EXPECT_TRUE(same_literal(literal("s64[2] {100, 200}"),
                           evaluate_text(entry_module("  a = s64[2] constant({100, 200})\n  b = s64[0] constant({})\n"
                                               "  ROOT c = s64[2] concatenate(a, b), dimensions={0}\n"))));
}

TEST(EvaluateXlaElementwise, ConvertWithSameLayout) {
  EXPECT_TRUE(same_literal(literal("f32[3,2] {{1, 2}, {3, 4}, {5, 6}}"),
                           unary("convert", "s32[3,2] {{1, 2}, {3, 4}, {5, 6}}", "f32[3,2]")));
}

// Layouts do not change values: the convert reads s32[3,2]{0,1} and writes f32[3,2]{1,0}.
TEST(EvaluateXlaElementwise, ConvertWithDifferentLayout) {
  EXPECT_TRUE(same_literal(literal("f32[3,2] {{1, 2}, {3, 4}, {5, 6}}"),
                           unary("convert", "s32[3,2]{0,1} {{1, 2}, {3, 4}, {5, 6}}", "f32[3,2]{1,0}")));
}

TEST(EvaluateXlaElementwise, Pad2DIntegerArrayWithZeroDimension) {
  EXPECT_TRUE(same_literal(literal("s32[5,2] {{10, 10}, {10, 10}, {10, 10}, {10, 10}, {10, 10}}"),
                           evaluate_text(entry_module("  a = s32[2,0] constant({{}, {}})\n  v = s32[] constant(10)\n"
                                               "  ROOT p = s32[5,2] pad(a, v), padding=1_0_2x0_2_1\n"))));
}

TEST(EvaluateXlaElementwise, Pad4DFloatArrayWithInteriorPadding) {
  EXPECT_TRUE(same_literal(
      literal("f32[8,5,1,1] {{{{1.5}}, {{1.5}}, {{1.5}}, {{1.5}}, {{1.5}}}, {{{1}}, {{1.5}}, {{2}}, {{1.5}}, {{1.5}}}, "
              "{{{1.5}}, {{1.5}}, {{1.5}}, {{1.5}}, {{1.5}}}, {{{1.5}}, {{1.5}}, {{1.5}}, {{1.5}}, {{1.5}}}, {{{3}}, "
              "{{1.5}}, {{4}}, {{1.5}}, {{1.5}}}, {{{1.5}}, {{1.5}}, {{1.5}}, {{1.5}}, {{1.5}}}, {{{1.5}}, {{1.5}}, "
              "{{1.5}}, {{1.5}}, {{1.5}}}, {{{5}}, {{1.5}}, {{6}}, {{1.5}}, {{1.5}}}}"),
      evaluate_text(entry_module("  a = f32[3,2,1,1] constant({{{{1}}, {{2}}}, {{{3}}, {{4}}}, {{{5}}, {{6}}}})\n"
                          "  v = f32[] constant(1.5)\n"
                          "  ROOT p = f32[8,5,1,1] pad(a, v), padding=1_0_2x0_2_1x0_0x0_0\n"))));
}

TEST(EvaluateXlaElementwise, NegativePadding2D) {
  EXPECT_TRUE(same_literal(literal("f32[1,5] {{7, 2.718, 2.718, 2.718, 2.718}}"),
                           evaluate_text(entry_module("  a = f32[4,3] constant({{1, 2, 3}, {5, 6, 7}, {9, 10, 11}, {13, 14, 15}})\n"
                                               "  v = f32[] constant(2.718)\n"
                                               "  ROOT p = f32[1,5] pad(a, v), padding=-1_-2x-2_4\n"))));
}

TEST(EvaluateXlaElementwise, NegativeAndInteriorPadding2D) {
  EXPECT_TRUE(same_literal(literal("f32[0,9] {}"),
                           evaluate_text(entry_module("  a = f32[4,3] constant({{1, 2, 3}, {5, 6, 7}, {9, 10, 11}, {13, 14, 15}})\n"
                                               "  v = f32[] constant(2.718)\n"
                                               "  ROOT p = f32[0,9] pad(a, v), padding=-2_-5_1x-2_4_2\n"))));
}

}  // namespace
}  // namespace hlsgym::testing
