// XLA's HLO evaluator cases (xla/hlo/evaluator/hlo_evaluator_test.cc at openxla/xla
// 001918b7024cf5f020051a9d25d2dd57a5896aaa): dot and convolution. Each TEST is the XLA case
// of the same name (its f32 instantiation where XLA also runs bf16); the HLO text is what
// XLA's builder calls construct. Counted in tests/ir/xla_cases/PORTED.md.
#include <gtest/gtest.h>

#include "tests/support/eval_case.h"

namespace hlsgym::testing {
namespace {

const char* const k4x4 = "  l = f32[1,1,4,4] constant({{{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}}}})\n";
const char* const kGeneralInput =  // [feature=2, height=3, batch=1, width=4]
    "  l = f32[2,3,1,4] constant({{{{1, 2, 3, 4}}, {{5, 6, 7, 8}}, {{9, 10, 11, 12}}}, "
    "{{{13, 14, 15, 16}}, {{17, 18, 19, 20}}, {{21, 22, 23, 24}}}})\n";
const char* const kGeneralWeight =  // [kernel_output_feature=1, width=3, kernel_input_feature=2, height=3]
    "  r = f32[1,3,2,3] constant({{{{1, 7, 13}, {4, 10, 16}}, {{2, 8, 14}, {5, 11, 17}}, {{3, 9, 15}, {6, 12, 18}}}})\n";

TEST(EvaluateXlaDotConv, DotRank2AndRank1) {
  EXPECT_TRUE(same_literal(literal("f32[4,2] {{1, 2}, {2, 4}, {3, 6}, {4, 8}}"),
                           evaluate_text(entry_module("  l = f32[4,1] constant({{1}, {2}, {3}, {4}})\n  r = f32[1,2] constant({{1, 2}})\n"
                                               "  ROOT d = f32[4,2] dot(l, r), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"))));
}

TEST(EvaluateXlaDotConv, DotRank1AndRank2) {
  EXPECT_TRUE(same_literal(literal("f32[2] {22, 28}"),
                           evaluate_text(entry_module("  l = f32[3] constant({1, 2, 3})\n  r = f32[3,2] constant({{1, 2}, {3, 4}, {5, 6}})\n"
                                               "  ROOT d = f32[2] dot(l, r), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"))));
}

TEST(EvaluateXlaDotConv, DotRank2AndRank2) {
  EXPECT_TRUE(same_literal(literal("f32[4,2] {{22, 28}, {58, 76}, {94, 124}, {130, 172}}"),
                           evaluate_text(entry_module("  l = f32[4,3] constant({{1, 2, 3}, {5, 6, 7}, {9, 10, 11}, {13, 14, 15}})\n"
                                               "  r = f32[3,2] constant({{1, 2}, {3, 4}, {5, 6}})\n"
                                               "  ROOT d = f32[4,2] dot(l, r), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"))));
}

// Batch dimension 0, contracting dimensions {1, 2}: sum of i * (i + 1) over each batch's six.
TEST(EvaluateXlaDotConv, DotRank4AndRank4) {
  EXPECT_TRUE(same_literal(
      literal("f32[2,1,1] {{{112}}, {{616}}}"),
      evaluate_text(entry_module("  l = f32[2,2,3,1] constant({{{{1}, {2}, {3}}, {{4}, {5}, {6}}}, {{{7}, {8}, {9}}, {{10}, {11}, {12}}}})\n"
                          "  r = f32[2,2,3,1] constant({{{{2}, {3}, {4}}, {{5}, {6}, {7}}}, {{{8}, {9}, {10}}, {{11}, {12}, {13}}}})\n"
                          "  ROOT d = f32[2,1,1] dot(l, r), lhs_batch_dims={0}, rhs_batch_dims={0}, "
                          "lhs_contracting_dims={1,2}, rhs_contracting_dims={1,2}\n"))));
}

TEST(EvaluateXlaDotConv, DotUpcast) {
  EXPECT_TRUE(same_literal(
      literal("s32[4,2] {{22, 28}, {58, 76}, {94, 124}, {130, 172}}"),
      evaluate_text(entry_module("  l = s16[4,3] parameter(0)\n  r = s8[3,2] parameter(1)\n"
                          "  ROOT d = s32[4,2] dot(l, r), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"),
                    {literal("s16[4,3] {{1, 2, 3}, {5, 6, 7}, {9, 10, 11}, {13, 14, 15}}"),
                     literal("s8[3,2] {{1, 2}, {3, 4}, {5, 6}}")})));
}

TEST(EvaluateXlaDotConv, SimpleConv1D) {
  EXPECT_TRUE(same_literal(literal("f32[1,1,3] {{{11, 18, 9}}}"),
                           evaluate_text(entry_module("  l = f32[1,1,3] constant({{{1, 2, 3}}})\n  r = f32[1,1,2] constant({{{3, 4}}})\n"
                                               "  ROOT c = f32[1,1,3] convolution(l, r), window={size=2 pad=0_1}, "
                                               "dim_labels=bf0_oi0->bf0\n"))));
}

TEST(EvaluateXlaDotConv, Simple4x4Conv2DWith2x2Kernel) {
  EXPECT_TRUE(same_literal(
      literal("f32[1,1,4,4] {{{{100, 126, 152, 76}, {204, 230, 256, 124}, {308, 334, 360, 172}, {149, 160, 171, 80}}}}"),
      evaluate_text(entry_module(std::string(k4x4) + "  r = f32[1,1,2,2] constant({{{{5, 6}, {7, 8}}}})\n"
                          "  ROOT c = f32[1,1,4,4] convolution(l, r), window={size=2x2 pad=0_1x0_1}, dim_labels=bf01_oi01->bf01\n"))));
}

// The kernel reversed in both spatial dimensions, then read reversed by the window.
TEST(EvaluateXlaDotConv, Conv2DGeneralDimensionsReversed) {
  EXPECT_TRUE(same_literal(literal("f32[1,1,1,2] {{{{2514, 2685}}}}"),
                           evaluate_text(entry_module(std::string(kGeneralInput) + kGeneralWeight +
                                               "  rr = f32[1,3,2,3] reverse(r), dimensions={3,1}\n"
                                               "  ROOT c = f32[1,1,1,2] convolution(l, rr), window={size=3x3 rhs_reversal=1x1}, "
                                               "dim_labels=f0b1_o1i0->f0b1\n"))));
}

TEST(EvaluateXlaDotConv, Conv2DGeneralDimensions) {
  EXPECT_TRUE(same_literal(literal("f32[1,1,1,2] {{{{2514, 2685}}}}"),
                           evaluate_text(entry_module(std::string(kGeneralInput) + kGeneralWeight +
                                               "  ROOT c = f32[1,1,1,2] convolution(l, r), window={size=3x3}, "
                                               "dim_labels=f0b1_o1i0->f0b1\n"))));
}

TEST(EvaluateXlaDotConv, DilatedBaseConv2DWithHighPadding) {
  EXPECT_TRUE(same_literal(
      literal("f32[1,1,7,7] {{{{5, 12, 10, 18, 15, 24, 20}, {35, 48, 42, 56, 49, 64, 56}, {25, 36, 30, 42, 35, 48, 40}, "
              "{63, 80, 70, 88, 77, 96, 84}, {45, 60, 50, 66, 55, 72, 60}, {91, 112, 98, 120, 105, 128, 112}, "
              "{65, 84, 70, 90, 75, 96, 80}}}}"),
      evaluate_text(entry_module(std::string(k4x4) + "  r = f32[1,1,2,2] constant({{{{5, 6}, {7, 8}}}})\n"
                          "  ROOT c = f32[1,1,7,7] convolution(l, r), window={size=2x2 pad=0_1x0_1 lhs_dilate=2x2}, "
                          "dim_labels=bf01_oi01->bf01\n"))));
}

TEST(EvaluateXlaDotConv, DilatedBaseConv2DWithLowAndHighPadding) {
  EXPECT_TRUE(same_literal(
      literal("f32[1,1,8,8] {{{{8, 7, 16, 14, 24, 21, 32, 28}, {6, 5, 12, 10, 18, 15, 24, 20}, "
              "{40, 35, 48, 42, 56, 49, 64, 56}, {30, 25, 36, 30, 42, 35, 48, 40}, {72, 63, 80, 70, 88, 77, 96, 84}, "
              "{54, 45, 60, 50, 66, 55, 72, 60}, {104, 91, 112, 98, 120, 105, 128, 112}, {78, 65, 84, 70, 90, 75, 96, 80}}}}"),
      evaluate_text(entry_module(std::string(k4x4) + "  r = f32[1,1,2,2] constant({{{{5, 6}, {7, 8}}}})\n"
                          "  ROOT c = f32[1,1,8,8] convolution(l, r), window={size=2x2 pad=1_1x1_1 lhs_dilate=2x2}, "
                          "dim_labels=bf01_oi01->bf01\n"))));
}

TEST(EvaluateXlaDotConv, DilatedWindowAndBaseConv2DWithDifferentLowAndHighPaddingAndStrides) {
  EXPECT_TRUE(same_literal(
      literal("f32[1,1,9,3] {{{{10, 20, 30}, {0, 0, 0}, {57, 74, 91}, {0, 0, 0}, {125, 142, 159}, {0, 0, 0}, "
              "{193, 210, 227}, {0, 0, 0}, {91, 98, 105}}}}"),
      evaluate_text(entry_module(std::string(k4x4) + "  r = f32[1,1,2,3] constant({{{{5, 6, 7}, {8, 9, 10}}}})\n"
                          "  ROOT c = f32[1,1,9,3] convolution(l, r), window={size=2x3 stride=1x3 pad=2_2x2_-1 "
                          "lhs_dilate=2x3 rhs_dilate=2x1}, dim_labels=bf01_oi01->bf01\n"))));
}

// Input iota from -7, filter iota from -31 (row-major), feature_group_count=2.
TEST(EvaluateXlaDotConv, Conv2DGroupedConvolution) {
  EXPECT_TRUE(same_literal(
      literal("f32[1,1,1,8] {{{{668, 664, 660, 656, 668, 680, 692, 704}}}}"),
      evaluate_text(entry_module(
          "  l = f32[1,2,2,4] constant({{{{-7, -6, -5, -4}, {-3, -2, -1, 0}}, {{1, 2, 3, 4}, {5, 6, 7, 8}}}})\n"
          "  r = f32[2,2,2,8] constant({{{{-31, -30, -29, -28, -27, -26, -25, -24}, {-23, -22, -21, -20, -19, -18, -17, -16}}, "
          "{{-15, -14, -13, -12, -11, -10, -9, -8}, {-7, -6, -5, -4, -3, -2, -1, 0}}}, {{{1, 2, 3, 4, 5, 6, 7, 8}, "
          "{9, 10, 11, 12, 13, 14, 15, 16}}, {{17, 18, 19, 20, 21, 22, 23, 24}, {25, 26, 27, 28, 29, 30, 31, 32}}}})\n"
          "  ROOT c = f32[1,1,1,8] convolution(l, r), window={size=2x2}, dim_labels=b01f_01io->b01f, feature_group_count=2\n"))));
}

}  // namespace
}  // namespace hlsgym::testing
