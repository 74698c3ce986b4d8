// Issue 16's bad-input rule, "a fixed-point format that overflows on the vectors is
// reported with the first overflowing value, not silently wrapped", inside the
// computations ops call: designs whose outputs stay in range while a reduce's partial
// sums or a loop body's values leave the format are reported (op, computation, value),
// and the same designs in a format wide enough stay clean.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "rtl/fixed_accuracy.h"
#include "rtl/fixed_point.h"
#include "tests/rtl/fixed_overflow_designs.h"

namespace hlsgym::testing {
namespace {

rtl::FixedAccuracy measure(const char* hlo, const char* format) {
  const ir::Module m = frontend::parse_hlo(hlo);
  return rtl::measure_accuracy(m, rtl::quantize_module(m, rtl::parse_fixed(format)), 2, 1);
}

TEST(FixedOverflow, AReduceInsideACallIsReported) {
  const rtl::FixedAccuracy a = measure(kCalledSum, "ap_fixed<8,4>");
  ASSERT_TRUE(a.first_overflow);
  EXPECT_EQ(rtl::describe(*a.first_overflow),
            "op 'acc' in computation 'sum' element 0 of vector 0: 9 is outside ap_fixed<8,4,AP_TRN,AP_WRAP> ([-8, 7.9375])");
  // per vector: the partial sums 9 .. 96 (59 of them), each read back by the next
  // application's parameter `a` (58), and the reduce's own value 96
  EXPECT_EQ(a.overflows, 2 * (59 + 58 + 1));
  const rtl::FixedAccuracy wide = measure(kCalledSum, "ap_fixed<12,8>");
  EXPECT_FALSE(wide.first_overflow) << rtl::describe(*wide.first_overflow);
  EXPECT_EQ(wide.overflows, 0);
  EXPECT_EQ(wide.max_abs_error, 0);
}

TEST(FixedOverflow, AnEntryReducesPartialSumsAreReported) {
  const rtl::FixedAccuracy a = measure(kEntryReduce, "ap_fixed<8,4>");
  ASSERT_TRUE(a.first_overflow);
  EXPECT_EQ(a.first_overflow->op, "acc");
  EXPECT_EQ(a.first_overflow->computation, "sum");
  EXPECT_EQ(a.first_overflow->value, 9);
  EXPECT_FALSE(measure(kEntryReduce, "ap_fixed<12,8>").first_overflow);
}

TEST(FixedOverflow, ALoopBodysValuesAreReported) {
  const rtl::FixedAccuracy a = measure(kLoopBody, "ap_fixed<8,4>");
  ASSERT_TRUE(a.first_overflow);
  EXPECT_EQ(a.first_overflow->op, "up");
  EXPECT_EQ(a.first_overflow->computation, "body");
  EXPECT_GE(a.first_overflow->value, 8);
  EXPECT_EQ(a.overflows, 2 * 3 * 4);  // every element of every iteration of both vectors
  const rtl::FixedAccuracy wide = measure(kLoopBody, "ap_fixed<12,8>");
  EXPECT_FALSE(wide.first_overflow) << rtl::describe(*wide.first_overflow);
}

}  // namespace
}  // namespace hlsgym::testing
