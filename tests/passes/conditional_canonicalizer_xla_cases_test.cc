// conditional-canonicalizer: every case of XLA's conditional_canonicalizer_test.cc
// (openxla/xla xla/service/conditional_canonicalizer_test.cc at
// 001918b7024cf5f020051a9d25d2dd57a5896aaa), written as a golden test: HLO in; the root
// pattern out; the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {

TEST(ConditionalCanonicalizerXla, DenseArrayConditionalRewrite) {
  const ir::Module m = testing::run_golden(
      "conditional-canonicalizer",
      "HloModule _\n"
      "true_branch {\n true_param = (s32[3,2]) parameter(0)\n ROOT root = s32[] constant(0)\n}\n"
      "false_branch {\n false_param = (s32[3,2]) parameter(0)\n ROOT root = s32[] constant(1)\n}\n"
      "ENTRY entry {\n param0 = s32[3,2] parameter(0)\n branch = pred[] constant(false)\n"
      " param_tuple = (s32[3 ,2]) tuple(param0)\n"
      " ROOT conditional = s32[] conditional(branch, param_tuple, param_tuple), true_computation=true_branch,"
      " false_computation=false_branch\n}\n",
      true);
  EXPECT_EQ(testing::root_expression(m, 1), "get-tuple-element(conditional)");
}

}  // namespace
}  // namespace hlsgym::passes
