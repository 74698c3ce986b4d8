// zero_sized_hlo_elimination: every case of XLA's zero_sized_hlo_elimination_test.cc
// (openxla/xla xla/service/zero_sized_hlo_elimination_test.cc at
// 16569562fc04a1d1eadcd6a79f2269c1ccf4c421), each written as a golden test: HLO in (XLA
// builds them with the C++ API: a zero-sized parameter f32[3,0] first, the root last);
// the root, or no change, out. The outputs hold no elements, so the interpreter has
// nothing to compare (the checker does not call zero elements compared a pass).
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {
using testing::root_expression;

ir::Module eliminate(const std::string& rest, bool expect_change) {
  return testing::run_golden("zero_sized_hlo_elimination",
                             "HloModule zero_sized_elimination_test_module\n\nENTRY zero_sized_computation {\n"
                             " zero_sized_param = f32[3,0] parameter(0)\n" +
                                 rest + "}\n",
                             expect_change, /*compare_values=*/false);
}

TEST(ZeroSizedHloEliminationXla, EliminatedZeroSizedOp) {
  const ir::Module m = eliminate(" ROOT tanh = f32[3,0] tanh(zero_sized_param)\n", true);
  EXPECT_EQ(root_expression(m), "constant");
}

TEST(ZeroSizedHloEliminationXla, DoesNotEliminateParameter) {
  std::string text = "HloModule zero_sized_elimination_test_module\n\nENTRY zero_sized_computation {\n"
                     " ROOT zero_sized_param = f32[3,0] parameter(0)\n}\n";
  testing::run_golden("zero_sized_hlo_elimination", text, false, /*compare_values=*/false);
}

TEST(ZeroSizedHloEliminationXla, DoesNotEliminateSideEffects) {
  eliminate(" token = token[] after-all()\n send = (f32[3,0], u32[], token[]) send(zero_sized_param, token), channel_id=1\n"
            " ROOT send-done = token[] send-done(send), channel_id=1\n",
            false);
}

TEST(ZeroSizedHloEliminationXla, DoesNotEliminateConstant) {
  eliminate(" ROOT constant = f32[0] constant({})\n", false);
}

TEST(ZeroSizedHloEliminationXla, ZeroSizedInstructionWithoutLayoutFolded) {
  const ir::Module m = eliminate(
      " param1 = f32[4,0] parameter(1)\n param2 = f32[4,0] parameter(2)\n ROOT add = f32[4,0] add(param1, param2)\n", true);
  EXPECT_EQ(root_expression(m), "constant");
}

}  // namespace
}  // namespace hlsgym::passes
