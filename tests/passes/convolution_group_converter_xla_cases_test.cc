// convolution-group-converter: every case of XLA's convolution_group_converter_test.cc
// (openxla/xla xla/service/convolution_group_converter_test.cc at
// 16569562fc04a1d1eadcd6a79f2269c1ccf4c421), each written as a golden test: XLA's HLO in;
// the root pattern out; the interpreter agreeing. hlsgym's pass always uses XLA's
// extra-spatial-dimension construction (see passes/convolution_group_converter.cc); the
// cases that ask XLA for its other constructions through the pass's options are listed.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {
using ir::Opcode;

ir::Module convert(const std::string& module, bool compare_values = true) {
  return testing::run_golden("convolution-group-converter", module, true, compare_values);
}

ir::InstrId root(const ir::Module& m) { return m.computation(m.entry()).root; }

// XLA's case asks for filter expansion (cost model "yes"): a block-diagonal filter,
// select(eq(broadcast, broadcast), broadcast(reshape(filter)), broadcast(0)), in a
// convolution with feature_group_count 1. That multiplies other groups' inputs by zero,
// inexact for inf and NaN inputs; hlsgym builds the extra-spatial-dimension form (listed).
TEST(ConvolutionGroupConverterXla, ConvertFeatureGroupCountEqualToInputFeatureDim) {
  EXPECT_FALSE(testing::deliberate_difference("convolution-group-converter",
                                              "ConvertFeatureGroupCountEqualToInputFeatureDim")
                   .empty());
  const ir::Module m = convert(
      "HloModule Convolve1D1Window_0_module\n\n"
      "ENTRY %Convolve1D1Window_0.v3 (input: f32[1,2,2], filter: f32[1,1,2]) -> f32[1,2,2] {\n"
      "  %input = f32[1,2,2]{2,1,0} parameter(0)\n"
      "  %copy = f32[1,2,2]{2,0,1} copy(f32[1,2,2]{2,1,0} %input)\n"
      "  %filter = f32[1,1,2]{2,1,0} parameter(1)\n"
      "  ROOT %convolution = f32[1,2,2]{2,0,1} convolution(f32[1,2,2]{2,0,1} %copy, f32[1,1,2]{2,1,0} %filter),"
      " window={size=1}, dim_labels=b0f_0io->b0f, feature_group_count=2\n}");
  ASSERT_EQ(m.opcode(root(m)), Opcode::kReshape);
  const ir::InstrId conv = m.operand(root(m), 0);
  ASSERT_EQ(m.opcode(conv), Opcode::kConvolution);
  EXPECT_EQ(m.attrs(conv).feature_group_count, 1);
}

TEST(ConvolutionGroupConverterXla, ConvertFeatureGroupCountDivisorOfInputFeatureDim) {
  const ir::Module m = convert(
      "HloModule Convolve1D1Window_0_module\n\n"
      "ENTRY %Convolve1D1Window_0.v3 (input: f32[1,2,4], filter: f32[1,2,2]) -> f32[1,2,2] {\n"
      "  %input = f32[1,2,4]{2,1,0} parameter(0)\n"
      "  %copy = f32[1,2,4]{2,0,1} copy(f32[1,2,4]{2,1,0} %input)\n"
      "  %filter = f32[1,2,2]{2,1,0} parameter(1)\n"
      "  ROOT %convolution = f32[1,2,2]{2,0,1} convolution(f32[1,2,4]{2,0,1} %copy, f32[1,2,2]{2,1,0} %filter),"
      " window={size=1}, dim_labels=b0f_0io->b0f, feature_group_count=2\n}");
  ASSERT_EQ(m.opcode(root(m)), Opcode::kReshape);
  const ir::InstrId conv = m.operand(root(m), 0);
  ASSERT_EQ(m.opcode(conv), Opcode::kConvolution);
  EXPECT_EQ(m.attrs(conv).feature_group_count, 1);
  EXPECT_EQ(m.shape(conv).rank(), 4);
}

// XLA's case asks for the batch-group construction with cost model "no": a reduce-window
// of products, converted back. hlsgym builds the extra-spatial-dimension form (listed).
// The convolution is 26 million multiply-adds; values are compared on the next case.
TEST(ConvolutionGroupConverterXla, ConvertBatchGroupCountEqualToInputBatchDim) {
  EXPECT_FALSE(testing::deliberate_difference("convolution-group-converter",
                                              "ConvertBatchGroupCountEqualToInputBatchDim")
                   .empty());
  const ir::Module m = convert(
      "HloModule Convolve1D1Window_0_module\n\n"
      "ENTRY %Convolve1D1Window_0.v3 (input: f32[16,19,19,512]{3,2,1,0}, filter: f32[16,19,19,512]{3,2,1,0})"
      " -> f32[3,3,512,1]{3,2,1,0} {\n"
      "  %input = f32[16,19,19,512]{3,2,1,0} parameter(0)\n"
      "  %filter = f32[16,19,19,512]{3,2,1,0} parameter(1)\n"
      "  ROOT %convolution = f32[3,3,512,1]{3,2,1,0} convolution(f32[16,19,19,512]{3,2,1,0} %input,"
      " f32[16,19,19,512]{3,2,1,0} %filter), window={size=19x19 pad=1_1x1_1}, dim_labels=f01b_i01o->01fb,"
      " batch_group_count=512\n  }",
      /*compare_values=*/false);
  ASSERT_EQ(m.opcode(root(m)), Opcode::kReshape);
  EXPECT_EQ(m.attrs(m.operand(root(m), 0)).batch_group_count, 1);
}

TEST(ConvolutionGroupConverterXla, ConvertBatchGroupCountNotEqualToInputBatchDim) {
  convert("HloModule m\n  ENTRY main {\n  %input = f32[1,1,1,4] parameter(0)\n  %filter = f32[1,1,1,2] parameter(1)\n"
          "  ROOT %convolution = f32[1,1,2,2] convolution(%input,%filter),\n"
          "      window={size=1x1}, dim_labels=f01b_i01o->01fb, batch_group_count=2\n  }");
}

}  // namespace
}  // namespace hlsgym::passes
