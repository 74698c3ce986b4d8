// --check must not raise false alarms (a false alarm is as harmful as a missed bug):
// a long bf16 sum under the default order, whose allowed reassociation error grows with
// the sum's length and shrinks with its precision; and elided constants ({...}), whose
// placeholder values must survive call-inliner cloning and renaming them. The checker
// must still catch a real difference in the same modules.
#include <gtest/gtest.h>

#include <string>

#include "frontend/hlo_parser.h"
#include "ir/verifier.h"
#include "passes/default_order.h"
#include "passes/equivalence.h"
#include "passes/order.h"

namespace hlsgym::passes {
namespace {

ir::Module parse(const std::string& text) {
  ir::Module m = frontend::parse_hlo(text, "t.hlo");
  ir::verify(m);
  return m;
}

std::string sum_module(const std::string& type, int n, const std::string& shift = "") {
  const std::string arr = type + "[" + std::to_string(n) + "]";
  std::string body = "  x = " + arr + " parameter(0)\n";
  std::string in = "x";
  if (!shift.empty()) {
    body += "  one = " + type + "[] constant(" + shift + ")\n  ones = " + arr + " broadcast(one), dimensions={}\n" +
            "  xs = " + arr + " add(x, ones)\n";
    in = "xs";
  }
  return "HloModule s\n\nadd {\n  a = " + type + "[] parameter(0)\n  b = " + type + "[] parameter(1)\n  ROOT r = " + type +
         "[] add(a, b)\n}\n\nENTRY e {\n" + body + "  z = " + type + "[] constant(0)\n  ROOT s = " + type + "[] reduce(" +
         in + ", z), dimensions={0}, to_apply=add\n}\n";
}

// The issue's case: a 640-element bf16 sum failed --check under the default order.
TEST(CheckFalseAlarms, LongBf16SumUnderTheDefaultOrder) {
  const ir::Module before = parse(sum_module("bf16", 640));
  ir::Module after = before;
  PassPtr order = make_default_order();
  order->run(after);
  ASSERT_TRUE(order->reassociates_floats());
  EquivalenceOptions o;
  o.float_tolerance = true;
  o.input_sets = 200;
  const EquivalenceResult r = check_equivalence(before, after, o);
  EXPECT_EQ(r.status, CheckStatus::kPassed) << r.detail;
  EXPECT_EQ(longest_float_accumulation(before), std::make_pair(ir::ElementType::kBF16, 640.0));
}

TEST(CheckFalseAlarms, ToleranceGrowsWithLengthAndShrinksWithPrecision) {
  using ir::ElementType;
  const FloatTolerance one = float_tolerance_for(ElementType::kF32, ElementType::kF32, 1);
  EXPECT_EQ(one.relative, float_tolerance_for(ElementType::kF32));
  EXPECT_EQ(one.absolute, float_tolerance_for(ElementType::kF32));
  const FloatTolerance bf16 = float_tolerance_for(ElementType::kBF16, ElementType::kBF16, 640);
  const FloatTolerance bf16_long = float_tolerance_for(ElementType::kBF16, ElementType::kBF16, 6400);
  const FloatTolerance f32 = float_tolerance_for(ElementType::kF32, ElementType::kF32, 640);
  EXPECT_GT(bf16.absolute, float_tolerance_for(ElementType::kBF16));
  EXPECT_GT(bf16_long.relative, bf16.relative);
  EXPECT_GT(bf16_long.absolute, bf16.absolute);
  EXPECT_LT(f32.relative, bf16.relative);
  EXPECT_LT(f32.absolute, bf16.absolute);
  // An f32 output of a bf16 accumulation gets the bf16 allowance.
  EXPECT_EQ(float_tolerance_for(ElementType::kF32, ElementType::kBF16, 640).absolute, bf16.absolute);
}

TEST(CheckFalseAlarms, LongSumStillCatchesARealDifference) {
  // The same sum over x + 1 is 640 larger: far outside any reassociation error.
  const ir::Module before = parse(sum_module("bf16", 640));
  const ir::Module shifted = parse(sum_module("bf16", 640, "1"));
  EquivalenceOptions o;
  o.float_tolerance = true;
  EXPECT_EQ(check_equivalence(before, shifted, o).status, CheckStatus::kFailed);
}

const char* kElidedCalls = R"(HloModule elided

body {
  p = f32[4] parameter(0)
  w = f32[4] constant({...})
  ROOT r = f32[4] add(p, w)
}

ENTRY e {
  x = f32[4] parameter(0)
  a = f32[4] call(x), to_apply=body
  b = f32[4] call(a), to_apply=body
  ROOT t = (f32[4], f32[4]) tuple(a, b)
}
)";

// The issue's case: modules with elided constants failed --check after call-inliner.
TEST(CheckFalseAlarms, ElidedConstantsAfterCallInliner) {
  const ir::Module before = parse(kElidedCalls);
  for (const char* spec : {"call-inliner", "call-inliner,cse,dce", "default"}) {
    SCOPED_TRACE(spec);
    ir::Module after = before;
    const Order order = parse_order(spec);
    order.pipeline->run(after);
    ir::verify(after);
    EquivalenceOptions o;
    o.float_tolerance = order.pipeline->reassociates_floats();
    o.input_sets = 4;
    const EquivalenceResult r = check_equivalence(before, after, o);
    EXPECT_EQ(r.status, CheckStatus::kPassed) << r.detail;
  }
}

TEST(CheckFalseAlarms, ElidedConstantsStillDifferByName) {
  // Two elided constants written with different names stand for different values, so a
  // module that swaps one for the other is caught.
  const ir::Module a = parse("HloModule m\n\nENTRY e {\n  x = f32[4] parameter(0)\n  w = f32[4] constant({...})\n"
                             "  ROOT r = f32[4] add(x, w)\n}\n");
  const ir::Module b = parse("HloModule m\n\nENTRY e {\n  x = f32[4] parameter(0)\n  v = f32[4] constant({...})\n"
                             "  ROOT r = f32[4] add(x, v)\n}\n");
  EXPECT_EQ(check_equivalence(a, b).status, CheckStatus::kFailed);
}

}  // namespace
}  // namespace hlsgym::passes
