// dynamic-dimension-simplifier: every case of XLA's dynamic_dimension_simplifier_test.cc
// (openxla/xla xla/service/dynamic_dimension_simplifier_test.cc at
// 16569562fc04a1d1eadcd6a79f2269c1ccf4c421), each a golden test: XLA's HLO text in (its
// one computation, not marked ENTRY, is the entry); the root pattern, or no change, out;
// the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {

ir::Module simplify(const std::string& body, bool expect_change) {
  return testing::run_golden("dynamic-dimension-simplifier", "HloModule m\ntest {\n" + body + "}\n", expect_change);
}

TEST(DynamicDimensionSimplifierXla, ForwardConcat) {
  const ir::Module m = simplify(
      " p0 = s32[1] parameter(0)\n p1 = s32[1] parameter(1)\n p2 = s32[1] parameter(2)\n"
      " concat1 = s32[2] concatenate(p0, p1), dimensions={0}\n"
      " ROOT concat2 = s32[3] concatenate(concat1, p2), dimensions={0}\n",
      true);
  EXPECT_EQ(testing::root_expression(m), "concatenate(parameter(0), parameter(1), parameter(2))");
}

TEST(DynamicDimensionSimplifierXla, DoNotForwardConcatMultipleDims) {
  simplify(" p0 = s32[1, 1] parameter(0)\n p1 = s32[1, 1] parameter(1)\n p2 = s32[2, 1] parameter(2)\n"
           " concat1 = s32[2, 1] concatenate(p0, p1), dimensions={0}\n"
           " ROOT concat2 = s32[2, 2] concatenate(concat1, p2), dimensions={1}\n",
           false);
}

// slice(concatenate(p0, p1, p2) of three s32[1]) to `out` with `range`.
ir::Module slice_of_concat(const std::string& out, const std::string& range, bool expect_change) {
  return simplify(
      " p0 = s32[1] parameter(0)\n p1 = s32[1] parameter(1)\n p2 = s32[1] parameter(2)\n"
      " concat = s32[3] concatenate(p0, p1, p2), dimensions={0}\n ROOT slice = " + out + " slice(concat), slice={" +
          range + "}\n",
      expect_change);
}

TEST(DynamicDimensionSimplifierXla, ForwardConcatSlice) {
  EXPECT_EQ(testing::root_expression(slice_of_concat("s32[1]", "[1:2]", true)), "parameter(1)");
}

TEST(DynamicDimensionSimplifierXla, DoNotForwardConcatSliceSizeMismatch) { slice_of_concat("s32[2]", "[1:3]", false); }

TEST(DynamicDimensionSimplifierXla, DoNotForwardConcatSliceStrided) { slice_of_concat("s32[1]", "[1:2:2]", false); }

TEST(DynamicDimensionSimplifierXla, BroadcastReshapeForwarding) {
  const ir::Module m = simplify(
      " p0 = s32[] parameter(0)\n broadcast = s32[1] broadcast(p0), dimensions={}\n"
      " ROOT reshape = s32[] reshape(broadcast)\n",
      true);
  EXPECT_EQ(testing::root_expression(m), "parameter(0)");
}

TEST(DynamicDimensionSimplifierXla, ReshapeReshapeForwarding) {
  const ir::Module m =
      simplify(" p0 = s32[] parameter(0)\n reshape = s32[1] reshape(p0)\n ROOT reshape2 = s32[] reshape(reshape)\n", true);
  EXPECT_EQ(testing::root_expression(m), "parameter(0)");
}

TEST(DynamicDimensionSimplifierXla, DoNotReshapeReshapeForwardingShapeMismatch) {
  simplify(" p0 = s32[1, 1] parameter(0)\n reshape = s32[1] reshape(p0)\n ROOT reshape2 = s32[] reshape(reshape)\n",
           false);
}

TEST(DynamicDimensionSimplifierXla, IdConvertRemoving) {
  const ir::Module m = simplify(" p0 = s32[1] parameter(0)\n ROOT reshape2 = s32[1] convert(p0)\n", true);
  EXPECT_EQ(testing::root_expression(m), "parameter(0)");
}

}  // namespace
}  // namespace hlsgym::passes
