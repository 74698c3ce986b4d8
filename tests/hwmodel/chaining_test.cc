// Operator chaining (hwmodel/chaining.h): which integer converts are wiring inside their
// readers, and what the estimate then counts (no task, no buffer, narrow multipliers).
#include <gtest/gtest.h>

#include "hwmodel/chaining.h"
#include "hwmodel/estimate.h"
#include "tests/hwmodel/hwmodel_test_util.h"

namespace hlsgym::testing {
namespace {
using namespace hwmodel;

constexpr const char* kMatmul = R"(design: mm
inputs: {A: "s16[4,4]", B: "u8[4,4]"}
ops:
  - {name: A32, op: convert, args: [A], type: "s32[4,4]"}
  - {name: B32, op: convert, args: [B], type: "s32[4,4]"}
  - {name: C, op: dot, args: [A32, B32], lhs_contracting_dims: [1], rhs_contracting_dims: [0]}
outputs: [C]
)";

TEST(Chaining, WideningConvertsIntoAMacAreWiring) {
  const ir::Module m = load_yaml(kMatmul);
  EXPECT_TRUE(chained_convert(m, named(m, "A32")));
  EXPECT_TRUE(chained_convert(m, named(m, "B32")));
  EXPECT_EQ(stored_type(m, named(m, "A32")), ir::ElementType::kS16);
  EXPECT_EQ(stored_type(m, named(m, "C")), ir::ElementType::kS32);
  EstimateOptions o;
  o.keep_details = true;
  const Estimate e = estimate(m, fpga_target(), o);
  int computing = 0;
  for (const Task& k : e.details->graph.tasks) computing += k.busy > 0;
  EXPECT_EQ(computing, 1);  // only the dot runs
  // s16 x u8 (9 bits signed) kept to 32 bits: one DSP48E1, not the three of 32 x 32
  EXPECT_EQ(e.area.dsp, 1);
  // the buffers are A (32 bytes), B (16) and C (64): no s32 copies of A and B
  EXPECT_EQ(e.memory_bytes, 32 + 16 + 64);
  // a CPU target keeps the convert as work
  EXPECT_GT(estimate(m, cpu_target()).cycles, 0);
}

TEST(Chaining, ConvertsThatNeedABufferStayTasks) {
  const ir::Module m = load_yaml(R"(design: keep
inputs: {a: "s32[8]", b: "s8[8]", c: "s16[8]"}
ops:
  - {name: n16, op: convert, args: [a], type: "s16[8]"}
  - {name: n16b, op: convert, args: [n16], type: "s32[8]"}
  - {name: d, op: dot, args: [n16b, n16b], lhs_contracting_dims: [0], rhs_contracting_dims: [0]}
  - {name: w, op: convert, args: [b], type: "s32[8]"}
  - {name: zero, op: constant, value: 0, type: s32}
  - {name: r, op: reduce, args: [w, zero], dimensions: [0], to_apply: add}
  - {name: e, op: convert, args: [c], type: "s32[8]"}
  - {name: f, op: convert, args: [c], type: "s32[8]"}
  - {name: s, op: add, args: [f, f]}
  - {name: m, op: dot, args: [e, e], lhs_contracting_dims: [0], rhs_contracting_dims: [0]}
outputs: [d, r, e, s, m]
)");
  // n16b reads a chained narrowing convert: the multiplier would see two converts
  EXPECT_TRUE(chained_convert(m, named(m, "n16")));
  EXPECT_FALSE(chained_convert(m, named(m, "n16b")));
  EXPECT_FALSE(chained_convert(m, named(m, "w")));  // a reduce reads its buffer
  EXPECT_FALSE(chained_convert(m, named(m, "e")));  // an output
  EXPECT_TRUE(chained_convert(m, named(m, "f")));   // an add computes it inline
  EXPECT_FALSE(chained_convert(m, named(m, "s")));  // not a convert
}

TEST(Chaining, NarrowingIntoAMacAndPredAreNotWiring) {
  const ir::Module m = load_yaml(R"(design: narrow
inputs: {a: "s32[4]", p: "pred[4]"}
ops:
  - {name: a8, op: convert, args: [a], type: "s8[4]"}
  - {name: d, op: dot, args: [a8, a8], lhs_contracting_dims: [0], rhs_contracting_dims: [0]}
  - {name: p32, op: convert, args: [p], type: "s32[4]"}
  - {name: q, op: add, args: [p32, a]}
outputs: [d, q]
)");
  EXPECT_FALSE(chained_convert(m, named(m, "a8")));   // truncation before a product: not an extension
  EXPECT_FALSE(chained_convert(m, named(m, "p32")));  // pred: a compare or a select, not wiring
}

}  // namespace
}  // namespace hlsgym::testing
