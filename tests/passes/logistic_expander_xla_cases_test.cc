// logistic-expander: every case of XLA's logistic_expander_test.cc (openxla/xla
// xla/service/logistic_expander_test.cc at 001918b7024cf5f020051a9d25d2dd57a5896aaa),
// each written as a golden test: HLO in; the root pattern out; the interpreter agreeing
// (exactly: the interpreter computes f32 logistic with the kExp formula).
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {

// XLA's module: one computation, not marked ENTRY (the last computation is the entry).
const std::string kLogistic = "HloModule m\ntest {\n p = f32[2,3] parameter(0)\n ROOT r = f32[2,3] logistic(p)\n}\n";

// XLA's kTanh expansion, 0.5 + 0.5 * tanh(0.5 * x), is an option its CPU pipeline does
// not use (it runs kExp); hlsgym's pass is the kExp form (listed).
TEST(LogisticExpanderXla, ExpandWithTanh) {
  EXPECT_FALSE(testing::deliberate_difference("logistic-expander", "ExpandWithTanh").empty());
  const ir::Module m = testing::run_golden("logistic-expander", kLogistic, true);
  EXPECT_EQ(testing::root_expression(m, 1), "divide(broadcast, add)");
}

TEST(LogisticExpanderXla, ExpandWithEXP) {
  const ir::Module m = testing::run_golden("logistic-expander", kLogistic, true);
  EXPECT_EQ(testing::root_expression(m),
            "divide(broadcast(constant(1)), add(broadcast(constant(1)), exponential(negate(parameter(0)))))");
}

}  // namespace
}  // namespace hlsgym::passes
