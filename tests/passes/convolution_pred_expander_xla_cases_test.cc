// convolution-pred-expander: every case of XLA's convolution_pred_expander_test.cc
// (openxla/xla xla/hlo/transforms/expanders/convolution_pred_expander_test.cc at
// 782d678c5bc85176cc49139b11696d5da22843f1; not under xla/service/ at the commits the
// other rows read), each a golden test: HLO in; the root pattern with its element types,
// or no change, out; the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {

std::string conv_module(const std::string& type) {
  return "HloModule convolution_" + type + "\nENTRY convolution_computation {\n input = " + type +
         "[10,10]{1,0} parameter(0)\n kernel = " + type + "[10,10]{1,0} parameter(1)\n ROOT conv = " + type +
         "[10,10]{1,0} convolution(input, kernel), dim_labels=bf_io->bf\n}\n";
}

std::string type_of(const ir::Module& m, ir::InstrId i) {
  return std::string(ir::element_type_name(m.shape(i).element_type()));
}

TEST(ConvolutionPredExpanderXla, Match) {
  const ir::Module m = testing::run_golden("convolution-pred-expander", conv_module("pred"), true);
  EXPECT_EQ(testing::root_expression(m, 2), "convert(convolution(convert, convert))");
  const ir::InstrId root = m.computation(m.entry()).root, conv = m.operand(root, 0);
  EXPECT_EQ(type_of(m, root), "pred");
  EXPECT_EQ(type_of(m, conv), "f16");
  EXPECT_EQ(type_of(m, m.operand(conv, 0)), "f16");
  EXPECT_EQ(type_of(m, m.operand(conv, 1)), "f16");
}

TEST(ConvolutionPredExpanderXla, NoMatch) {
  testing::run_golden("convolution-pred-expander", conv_module("s8"), false);
}

}  // namespace
}  // namespace hlsgym::passes
