// result_caster: every case of XLA's result_caster_test.cc (openxla/xla
// xla/service/result_caster_test.cc at 16569562fc04a1d1eadcd6a79f2269c1ccf4c421): its one
// parameterized test CastResultWhenNeeded, one golden test per instantiation of "All"
// (<index> in gtest's order). HLO in; dot in the accumulation type and a convert, or no
// change, out; the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {

ir::Module cast(const std::string& lhs, const std::string& rhs, const std::string& result, bool expect_change) {
  return testing::run_golden(
      "result_caster",
      "HloModule module\nENTRY main {\n p0 = " + lhs + "[2,3]{1,0} parameter(0)\n p1 = " + rhs +
          "[3,2]{1,0} parameter(1)\n ROOT dot = " + result +
          "[2,2]{1,0} dot(p0, p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      expect_change);
}

// XLA: convert(dot in bf16) to s32. hlsgym keeps the dot exact (listed).
TEST(ResultCasterXla, CastResultWhenNeeded_All_0) {
  EXPECT_FALSE(testing::deliberate_difference("result_caster", "CastResultWhenNeeded_All_0").empty());
  const ir::Module m = cast("bf16", "bf16", "s32", false);
  EXPECT_EQ(testing::root_expression(m), "dot(parameter(0), parameter(1))");
}

// XLA: convert(dot in f32) to s32. hlsgym keeps the dot exact (listed).
TEST(ResultCasterXla, CastResultWhenNeeded_All_1) {
  EXPECT_FALSE(testing::deliberate_difference("result_caster", "CastResultWhenNeeded_All_1").empty());
  const ir::Module m = cast("f32", "f32", "s32", false);
  EXPECT_EQ(testing::root_expression(m), "dot(parameter(0), parameter(1))");
}

// The accumulation type (f32, the higher of f32 and bf16) is the result type: no cast.
TEST(ResultCasterXla, CastResultWhenNeeded_All_2) {
  const ir::Module m = cast("f32", "bf16", "f32", false);
  EXPECT_EQ(testing::root_expression(m), "dot(parameter(0), parameter(1))");
  EXPECT_EQ(m.shape(m.computation(m.entry()).root).to_string(false), "f32[2,2]");
}

// Not an XLA case: the integer cast hlsgym does apply (s32 x s32 -> s8 computed in s32).
TEST(ResultCasterXla, IntegerResultNarrowerThanOperands) {
  const ir::Module m = cast("s32", "s32", "s8", true);
  EXPECT_EQ(testing::root_expression(m), "convert(dot(parameter(0), parameter(1)))");
  EXPECT_EQ(m.shape(m.operand(m.computation(m.entry()).root, 0)).to_string(false), "s32[2,2]");
}

}  // namespace
}  // namespace hlsgym::passes
