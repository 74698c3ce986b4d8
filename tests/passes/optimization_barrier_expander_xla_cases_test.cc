// cse_barrier_expander: every case of XLA's optimization_barrier_expander_test.cc (XLA's
// OptimizationBarrierExpander has no test file at the commits the other rows read; this one
// is tensorflow/tensorflow third_party/xla/xla/hlo/transforms/expanders/
// optimization_barrier_expander_test.cc at 28e11767bd21bf34cb6bdd9c732aa7cb80b14521), each
// written as a golden test: XLA's HLO in; no opt-barrier left out; the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"

namespace hlsgym::passes {
namespace {

int barriers(const ir::Module& m) {
  int n = 0;
  for (ir::CompId c : m.live_computations()) n += testing::count_opcode(m, c, ir::Opcode::kOptimizationBarrier);
  return n;
}

TEST(OptimizationBarrierExpanderXla, RemovesOptimizationBarrier) {
  const ir::Module m = testing::run_golden(
      "cse_barrier_expander",
      "HloModule module\nENTRY main {\n param0 = f32[10] parameter(0)\n add0 = f32[10] add(param0, param0)\n"
      " add1 = f32[10] add(param0, add0)\n tuple = (f32[10], f32[10]) tuple(add0, add1)\n"
      " barrier = (f32[10], f32[10]) opt-barrier(tuple)\n gte = f32[10] get-tuple-element(barrier), index=0\n"
      " ROOT root = f32[10] add(gte, param0)\n}\n",
      true);
  EXPECT_EQ(barriers(m), 0);
}

// XLA runs this one with only_remove_singleton_opt_barriers=true; the barrier is a
// singleton (not a tuple), so the option's answer is the default's: removed.
TEST(OptimizationBarrierExpanderXla, RemovesOnlySingularOptBarrier) {
  const ir::Module m = testing::run_golden(
      "cse_barrier_expander",
      "HloModule module\nENTRY main {\n param0 = f32[10] parameter(0)\n param1 = f32[10] parameter(1)\n"
      " add0 = f32[10] add(param0, param1)\n barrier = f32[10] opt-barrier(add0)\n"
      " ROOT add1 = f32[10] add(barrier, param0)\n}\n",
      true);
  EXPECT_EQ(barriers(m), 0);
}

}  // namespace
}  // namespace hlsgym::passes
