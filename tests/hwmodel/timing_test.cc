// The timing formulas of timing.h, by hand.
#include <gtest/gtest.h>

#include "hwmodel/timing.h"

namespace hlsgym::hwmodel {
namespace {

TEST(Timing, Stream) {
  // 64 elements, 1 lane, depth 4: the last element enters at cycle 63, leaves at 67.
  Timing t = stream_timing(64, 1, 4);
  EXPECT_EQ(t.latency, 67);
  EXPECT_EQ(t.busy, 64);
  // 8 lanes: 8 issue cycles. More lanes than elements: one issue cycle.
  EXPECT_EQ(stream_timing(64, 8, 4).latency, 4 + 8 - 1);
  t = stream_timing(5, 100, 2);
  EXPECT_EQ(t.latency, 2);
  EXPECT_EQ(t.lanes_used, 5);
  EXPECT_EQ(stream_timing(0, 1, 4).latency, 0);
}

TEST(Timing, AccumulateInterleavesOutputs) {
  // 4 outputs x 8 terms, 1 lane, multiplier depth 3, integer adder depth 1: the lane
  // interleaves its 4 outputs (round 4 >= adder depth): issue 7*4 + 4 = 32 cycles,
  // latency 3 + 1 + 32 - 1 = 35.
  Timing t = accumulate_timing(4, 8, 1, 3, 1);
  EXPECT_EQ(t.latency, 35);
  EXPECT_EQ(t.busy, 32);
  // One output of 16 terms on a float adder of depth 4, 1 lane: every term waits for
  // the previous sum: issue 15*4 + 1 = 61, latency 0 + 4 + 61 - 1 = 64.
  EXPECT_EQ(accumulate_timing(1, 16, 1, 0, 4).latency, 64);
  // Same with 8 lanes: 8 partial sums of 2 terms (issue 1*4 + 1 = 5), then a tree of
  // 3 levels of 4: latency 4 + 5 - 1 + 12 = 20.
  t = accumulate_timing(1, 16, 8, 0, 4);
  EXPECT_EQ(t.latency, 20);
  EXPECT_EQ(t.lanes_used, 8);
  // Reduce of 8 terms into 1 output on integer adders: 8 cycles.
  EXPECT_EQ(accumulate_timing(1, 8, 1, 0, 1).latency, 8);
}

// Lanes with no work are not lanes used (rtl builds no port or pipeline for them), and a
// gather's lead stage adds a cycle to latency and busy.
TEST(Timing, IdleLanesAndLead) {
  EXPECT_EQ(stream_timing(4, 3, 2).lanes_used, 2);  // 2 + 2, the third lane idles
  EXPECT_EQ(stream_timing(4, 3, 2).busy, 2);
  Timing g = stream_timing(10, 2, 3, 1);
  EXPECT_EQ(g.latency, 1 + 3 + 5 - 1);
  EXPECT_EQ(g.busy, 1 + 5);
  EXPECT_EQ(accumulate_timing(5, 4, 3, 1, 1).lanes_used, 3);  // 2 + 2 + 1 outputs
  EXPECT_EQ(accumulate_timing(6, 4, 4, 1, 1).lanes_used, 3);  // 2 + 2 + 2, the fourth idles
  // 1 output of 4 terms on 3 lanes: chunks of 2 terms, so 2 partial sums (not 3) and one
  // tree level: M' + A + (2 - 1) A + 1 A with M' = 1, A = 1.
  Timing a = accumulate_timing(1, 4, 3, 1, 1);
  EXPECT_EQ(a.lanes_used, 2);
  EXPECT_EQ(a.latency, 1 + 1 + 1 + 1);
}

TEST(Timing, SortNetwork) {
  // 8 keys, 1 row: 3*4/2 = 6 stages of 4 compare-exchanges; 1 lane of depth 1: 6 * 4.
  EXPECT_EQ(sort_network_ops(8, 1), 24);
  EXPECT_EQ(sort_timing(8, 1, 1, 1).latency, 24);
  EXPECT_EQ(sort_timing(8, 1, 4, 2).latency, 6 * 2);
  EXPECT_EQ(sort_timing(1, 5, 1, 1).latency, 0);
}

}  // namespace
}  // namespace hlsgym::hwmodel
