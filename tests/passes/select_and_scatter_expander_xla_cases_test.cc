// select_and_scatter_expander: every case of XLA's select_and_scatter_expander_test.cc
// (openxla/xla xla/service/select_and_scatter_expander_test.cc at
// 827aca0eb2748018b7e803606250f9ea56939ab0, the one version the search tool holds), each
// written as a golden test: XLA's HLO in; its FileCheck lines (no select-and-scatter; a
// reduce, then a scatter) checked on the printed result; the interpreter agreeing (XLA
// leaves values to its runtime tests). XLA's select computation writes its compare with
// `order=TOTAL`, an attribute hlsgym's parser does not know yet (issue 17, item 2); it is
// left out here, which changes no value (the operand holds no NaN and no -0, the only
// values the total order compares differently).
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"

namespace hlsgym::passes {
namespace {

const std::string kModule =
    "HloModule R4F32OverlapSmall_module, entry_computation_layout={()->f32[4,5,1,1]{3,2,1,0}}\n"
    "%ge_F32.v3 (lhs: f32[], rhs: f32[]) -> pred[] {\n %lhs = f32[] parameter(0)\n %rhs = f32[] parameter(1)\n"
    " ROOT %greater-than-or-equal-to = pred[] compare(f32[] %lhs, f32[] %rhs), direction=GE\n}\n"
    "%add_F32.v3 (lhs.1: f32[], rhs.1: f32[]) -> f32[] {\n %lhs.1 = f32[] parameter(0)\n %rhs.1 = f32[] parameter(1)\n"
    " ROOT %add = f32[] add(f32[] %lhs.1, f32[] %rhs.1)\n}\n"
    "ENTRY %R4F32OverlapSmall.v4 () -> f32[4,5,1,1] {\n"
    " %constant = f32[4,5,1,1]{3,2,1,0} constant({ { /*i0=0*/ { /*i1=0*/ {7} }, { /*i1=1*/ {2} }, { /*i1=2*/ {5} },"
    " { /*i1=3*/ {3} }, { /*i1=4*/ {8} } }, { /*i0=1*/ { /*i1=0*/ {3} }, { /*i1=1*/ {8} }, { /*i1=2*/ {9} },"
    " { /*i1=3*/ {3} }, { /*i1=4*/ {4} } }, { /*i0=2*/ { /*i1=0*/ {1} }, { /*i1=1*/ {5} }, { /*i1=2*/ {7} },"
    " { /*i1=3*/ {5} }, { /*i1=4*/ {6} } }, { /*i0=3*/ { /*i1=0*/ {0} }, { /*i1=1*/ {6} }, { /*i1=2*/ {2} },"
    " { /*i1=3*/ {10} }, { /*i1=4*/ {2} } } })\n"
    " %constant.1 = f32[2,2,1,1]{3,2,1,0} constant({ { /*i0=0*/ { /*i1=0*/ {2} }, { /*i1=1*/ {6} } },"
    " { /*i0=1*/ { /*i1=0*/ {3} }, { /*i1=1*/ {1} } } })\n"
    " %constant.2 = f32[] constant(0)\n"
    " ROOT %select-and-scatter = f32[4,5,1,1]{3,2,1,0} select-and-scatter(f32[4,5,1,1]{3,2,1,0} %constant,"
    " f32[2,2,1,1]{3,2,1,0} %constant.1, f32[] %constant.2), window={size=2x3x1x1 stride=2x2x1x1},"
    " select=%ge_F32.v3, scatter=%add_F32.v3\n}\n";

std::string expanded() {
  return ir::print_module(testing::run_golden("select_and_scatter_expander", kModule, true));
}

TEST(SelectAndScatterExpanderXla, ReplacesSelectAndScatter) {
  EXPECT_EQ(expanded().find("select-and-scatter("), std::string::npos);
}

// FileCheck's "CHECK: reduce" then "CHECK: scatter": in that order in the text.
TEST(SelectAndScatterExpanderXla, CreatesReduceAndScatter) {
  const std::string text = expanded();
  const size_t reduce = text.find(" reduce");
  ASSERT_NE(reduce, std::string::npos) << text;
  EXPECT_NE(text.find(" scatter(", reduce), std::string::npos) << text;
}

}  // namespace
}  // namespace hlsgym::passes
