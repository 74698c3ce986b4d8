// convolution_4d_expander: every case of XLA's convolution_4d_expander_test.cc
// (openxla/xla xla/hlo/transforms/expanders/convolution_4d_expander_test.cc at
// 782d678c5bc85176cc49139b11696d5da22843f1; not under xla/service/ at the commits the
// other rows read), each a golden test: HLO in; a reshape of a convolution with the
// expected number of spatial dimensions, or no change, out; the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"

namespace hlsgym::passes {
namespace {

const char* const kPass = "convolution_4d_expander";

std::string conv_module(const std::string& input, const std::string& kernel, const std::string& out,
                        const std::string& labels, const std::string& window) {
  return "HloModule convolution_4d_fp32\nENTRY convolution_computation {\n input = f32[" + input +
         "] parameter(0)\n kernel = f32[" + kernel + "] parameter(1)\n ROOT conv = f32[" + out +
         "] convolution(input, kernel), dim_labels=" + labels + ", window={" + window + "}\n}\n";
}

size_t window_rank(const ir::Module& m, ir::InstrId conv) { return m.attrs(conv).window->size(); }

// The module is a 4-D convolution before the pass; after it, the root is a reshape of a
// convolution with `spatial` spatial dimensions.
void expect_expanded(const std::string& text, size_t spatial) {
  const ir::Module before = testing::parse_module(text);
  const ir::InstrId old_root = before.computation(before.entry()).root;
  ASSERT_EQ(before.opcode(old_root), ir::Opcode::kConvolution);
  EXPECT_EQ(window_rank(before, old_root), 4u);
  const ir::Module m = testing::run_golden(kPass, text, true);
  const ir::InstrId root = m.computation(m.entry()).root;
  ASSERT_EQ(m.opcode(root), ir::Opcode::kReshape);
  const ir::InstrId conv = m.operand(root, 0);
  ASSERT_EQ(m.opcode(conv), ir::Opcode::kConvolution);
  EXPECT_EQ(window_rank(m, conv), spatial);
}

TEST(Convolution4DExpanderXla, ConvertTo2DConvolution) {
  expect_expanded(conv_module("1,10,1,10,5,20", "20,1,2,1,4,15", "15,1,9,1,7,5", "0123bf_i0123o->f0123b", "size=1x2x1x4"),
                  2);
}

// Two input dimensions have size 1, but the low padding of one makes its output 2 wide.
TEST(Convolution4DExpanderXla, ConvertTo3DConvolution) {
  expect_expanded(conv_module("1,10,1,10,5,20", "20,1,2,1,4,15", "15,1,9,2,7,5", "0123bf_i0123o->f0123b",
                              "size=1x2x1x4 pad=0_0x0_0x1_0x0_0"),
                  3);
}

TEST(Convolution4DExpanderXla, ConvertTo0DConvolution) {
  expect_expanded(conv_module("1,1,1,1,5,20", "20,1,1,1,1,15", "15,1,1,1,1,5", "0123bf_i0123o->f0123b", "size=1x1x1x1"),
                  0);
}

TEST(Convolution4DExpanderXla, DontConvert3DConvolution) {
  testing::run_golden(kPass, conv_module("1,1,1,5,20", "20,1,1,1,15", "15,1,1,1,5", "012bf_i012o->f012b", "size=1x1x1"),
                      false);
}

TEST(Convolution4DExpanderXla, DontConvertIfNoTrivialDimensionAvailable) {
  testing::run_golden(
      kPass, conv_module("2,10,2,10,5,20", "20,2,2,2,4,15", "15,1,9,1,7,5", "0123bf_i0123o->f0123b", "size=2x2x2x4"),
      false);
}

// Size-1 input dimensions with padding (and stride) are not trivial.
TEST(Convolution4DExpanderXla, DontConvertIfPaddingIsNonzero) {
  testing::run_golden(kPass,
                      conv_module("1,10,1,10,5,20", "20,1,2,1,4,15", "15,1,9,1,7,5", "0123bf_i0123o->f0123b",
                                  "size=1x2x1x4 stride=2x1x2x1 pad=1_0x0_0x0_1x0_0"),
                      false);
}

}  // namespace
}  // namespace hlsgym::passes
