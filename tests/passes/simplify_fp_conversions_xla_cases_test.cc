// simplify-fp-conversions: every case of XLA's simplify_fp_conversions_test.cc
// (openxla/xla xla/service/simplify_fp_conversions_test.cc at
// 001918b7024cf5f020051a9d25d2dd57a5896aaa), each a golden test: HLO in; the root
// pattern, or no change, out; the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {

ir::Module simplify(const std::string& entry, bool expect_change) {
  return testing::run_golden("simplify-fp-conversions", "HloModule test\n" + entry, expect_change);
}

TEST(SimplifyFpConversionsXla, DoesNotChangeSingleConvert) {
  simplify("ENTRY entry {\n p0 = f32[2,3] parameter(0)\n c0 = bf16[2,3] convert(p0)\n"
           " ROOT ret = (bf16[2,3]) tuple(c0)\n}\n",
           false);
}

// XLA drops the f32 -> bf16 -> f32 round trip, which removes a rounding to bf16 (listed).
TEST(SimplifyFpConversionsXla, SimplifiesF32ToBF16ToF32) {
  EXPECT_FALSE(testing::deliberate_difference("simplify-fp-conversions", "SimplifiesF32ToBF16ToF32").empty());
  const ir::Module m = simplify(
      "ENTRY entry {\n p0 = f32[2,3] parameter(0)\n c0 = bf16[2,3] convert(p0)\n c1 = f32[2,3] convert(c0)\n"
      " ROOT ret = (f32[2,3]) tuple(c1)\n}\n",
      false);
  EXPECT_EQ(testing::root_expression(m), "tuple(convert(convert(parameter(0))))");
}

// XLA converts f64 to bf16 at once, rounding once where the chain rounds to f16 first
// (listed); hlsgym leaves the chain.
TEST(SimplifyFpConversionsXla, SimplifiesF64ToF16ToF32ToBF16) {
  EXPECT_FALSE(testing::deliberate_difference("simplify-fp-conversions", "SimplifiesF64ToF16ToF32ToBF16").empty());
  const ir::Module m = simplify(
      "ENTRY entry {\n p0 = f64[2,3] parameter(0)\n c0 = f16[2,3] convert(p0)\n c1 = f32[2,3] convert(c0)\n"
      " c2 = bf16[2,3] convert(c1)\n ROOT ret = (bf16[2,3]) tuple(c2)\n}\n",
      false);
  EXPECT_EQ(testing::root_expression(m), "tuple(convert(convert(convert(parameter(0)))))");
}

// Not an XLA case: the exact round trip hlsgym does remove (bf16 -> f32 -> bf16).
TEST(SimplifyFpConversionsXla, ExactRoundTripRemoved) {
  const ir::Module m = simplify(
      "ENTRY entry {\n p0 = bf16[2,3] parameter(0)\n c0 = f32[2,3] convert(p0)\n c1 = bf16[2,3] convert(c0)\n"
      " ROOT ret = (bf16[2,3]) tuple(c1)\n}\n",
      true);
  EXPECT_EQ(testing::root_expression(m), "tuple(parameter(0))");
}

}  // namespace
}  // namespace hlsgym::passes
