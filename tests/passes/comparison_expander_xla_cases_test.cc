// comparison-expander: every case of XLA's comparison_expander_test.cc (openxla/xla
// xla/hlo/transforms/expanders/comparison_expander_test.cc at
// da5a51d97deb662f197a934d2514a25a82ea4e5b, the one stored version of the file; XLA had
// no test file for the pass at the commits the other rows read). Both of its cases expand
// compares with order=WEAK, a comparison order XLA added after the commits hlsgym follows:
// hlsgym's IR has no such order, so its parser refuses the modules with a one-line error
// naming the attribute (listed). hlsgym's pass expands type=TOTALORDER compares, the only
// order it knows besides the default.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {

// The parser's message for `text`, or "" if it parses.
std::string parse_error(const std::string& text) {
  try {
    frontend::parse_hlo(text, "golden.hlo");
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

std::string weak_compare(const std::string& type, int64_t n, const std::string& direction) {
  const std::string s = type + "[" + std::to_string(n) + "]";
  return "HloModule test\nENTRY main {\n p0 = " + s + " parameter(0)\n p1 = " + s +
         " parameter(1)\n ROOT cmp = pred[" + std::to_string(n) + "] compare(p0, p1), direction=" + direction +
         ", order=WEAK\n}\n";
}

TEST(ComparisonExpanderXla, ExpandWeakOrderFloatComparisonMatchesEvaluator) {
  EXPECT_FALSE(
      testing::deliberate_difference("comparison-expander", "ExpandWeakOrderFloatComparisonMatchesEvaluator").empty());
  for (const char* direction : {"EQ", "NE", "LT", "LE", "GT", "GE"})
    EXPECT_NE(parse_error(weak_compare("f32", 64, direction)).find("unknown attribute 'order' for compare"),
              std::string::npos)
        << direction;
}

TEST(ComparisonExpanderXla, ExpandWeakOrderFloatWithoutNaN) {
  EXPECT_FALSE(testing::deliberate_difference("comparison-expander", "ExpandWeakOrderFloatWithoutNaN").empty());
  EXPECT_NE(parse_error(weak_compare("f4e2m1fn", 8, "LT")).find("unknown attribute 'order' for compare"),
            std::string::npos);
}

}  // namespace
}  // namespace hlsgym::passes
