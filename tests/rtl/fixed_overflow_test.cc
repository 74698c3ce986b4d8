// Issue 16's bad-input rule, "a fixed-point format that overflows on the vectors is
// reported with the first overflowing value, not silently wrapped", inside the
// computations ops call: designs whose outputs stay in range while a reduce's partial
// sums or a loop body's values leave the format are reported (op, computation, value),
// and the same designs in a format wide enough stay clean.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "rtl/fixed_accuracy.h"
#include "rtl/fixed_point.h"

namespace hlsgym::testing {
namespace {

// 64 values of 1.5 summed by a reduce inside a called computation (96), scaled back by
// 1/16 (6): the call's result is in ap_fixed<8,4>'s [-8, 7.9375], its accumulator is not.
constexpr const char* kCalledSum = R"(HloModule called_sum
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT acc = f32[] add(a, b)
}
mean {
  v = f32[64] parameter(0)
  zero = f32[] constant(0)
  s = f32[] reduce(v, zero), dimensions={0}, to_apply=sum
  k = f32[] constant(0.0625)
  ROOT m = f32[] multiply(s, k)
}
ENTRY main {
  x = f32[64] parameter(0)
  h = f32[] constant(1.5)
  hs = f32[64] broadcast(h), dimensions={}
  y = f32[64] clamp(hs, x, hs)
  ROOT r = f32[] call(y), to_apply=mean
}
)";

// A reduce in the entry over 32 values of 1.5 then 32 of -1.5: the result (0) is in
// range, the partial sums climb to 48.
constexpr const char* kEntryReduce = R"(HloModule entry_reduce
sum {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT acc = f32[] add(a, b)
}
ENTRY main {
  x = f32[32] parameter(0)
  h = f32[] constant(1.5)
  hs = f32[32] broadcast(h), dimensions={}
  up = f32[32] clamp(hs, x, hs)
  down = f32[32] negate(up)
  both = f32[64] concatenate(up, down), dimensions={0}
  zero = f32[] constant(0)
  ROOT s = f32[] reduce(both, zero), dimensions={0}, to_apply=sum
}
)";

// A loop body that adds 7 to values in [1, 3] and takes it away again: the loop's
// result is its start, the body's intermediate is past 8.
constexpr const char* kLoopBody = R"(HloModule loop_body
cond {
  p = (f32[], f32[4]) parameter(0)
  i = f32[] get-tuple-element(p), index=0
  n = f32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (f32[], f32[4]) parameter(0)
  i = f32[] get-tuple-element(p), index=0
  one = f32[] constant(1)
  next = f32[] add(i, one)
  acc = f32[4] get-tuple-element(p), index=1
  seven = f32[] constant(7)
  sevens = f32[4] broadcast(seven), dimensions={}
  up = f32[4] add(acc, sevens)
  down = f32[4] subtract(up, sevens)
  ROOT t = (f32[], f32[4]) tuple(next, down)
}
ENTRY main {
  x = f32[4] parameter(0)
  a = f32[4] abs(x)
  o = f32[] constant(1)
  os = f32[4] broadcast(o), dimensions={}
  start = f32[4] add(a, os)
  zero = f32[] constant(0)
  init = (f32[], f32[4]) tuple(zero, start)
  w = (f32[], f32[4]) while(init), condition=cond, body=body
  ROOT r = f32[4] get-tuple-element(w), index=1
}
)";

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
