// The pipelining bound of counted while loops (hwmodel/loop_pipelining.h): the body's
// tasks as a modulo problem whose schedule the verifier accepts, bounded below by the
// loop state's recurrences and above by running iterations one after another.
#include <gtest/gtest.h>

#include "hwmodel/control_flow.h"
#include "hwmodel/loop_pipelining.h"
#include "hwmodel/modulo_verifier.h"
#include "tests/hwmodel/hwmodel_test_util.h"

namespace hlsgym::testing {
namespace {

struct Loop {
  ir::Module m;
  ir::InstrId w = ir::kNoId;
  hwmodel::Estimate e;
  const hwmodel::EstimateDetails& body() const { return *e.details->subs.at(m.called(w)[1]); }
};

Loop load_loop(const std::string& file) {
  Loop l{frontend::load_design((source_dir() / "designs/loops" / file).string()).module, ir::kNoId, {}};
  for (ir::InstrId i : l.m.instructions(l.m.entry()))
    if (l.m.opcode(i) == ir::Opcode::kWhile) l.w = i;
  hwmodel::EstimateOptions o;
  o.keep_details = true;
  l.e = hwmodel::estimate(l.m, fpga_target(), o);
  return l;
}

TEST(LoopPipelining, EveryLoopDesignHasAVerifiedBoundBelowItsIteration) {
  for (const char* f : {"counted_sum.yaml", "cordic.yaml", "dot_loop.hlo", "swap_loop.hlo", "nested_loops.hlo",
                        "mixed_state.hlo", "dus_rows.hlo", "switch3.hlo"}) {
    SCOPED_TRACE(f);
    const Loop l = load_loop(f);
    ASSERT_NE(l.w, ir::kNoId);
    const hwmodel::ModuloProblem p = hwmodel::loop_body_problem(l.m, l.w, l.body());
    EXPECT_EQ(hwmodel::modulo_problem_error(p), "");
    const auto s = hwmodel::pipeline_bound(l.m, l.w, l.body());
    ASSERT_TRUE(s && s->found);
    EXPECT_EQ(hwmodel::verify_modulo_schedule(p, *s), "");
    EXPECT_GE(s->ii, std::max<int64_t>(1, s->rec.ii));
    // never slower than what is built: body and copy-back one after another
    EXPECT_LE(s->ii, l.body().schedule.length + 1);
  }
}

TEST(LoopPipelining, AnAccumulatorIsARecurrence) {
  // dot_loop: the running sum feeds the next iteration; its add cannot start before the
  // previous one's result, so the recurrence through it bounds the II.
  const Loop l = load_loop("dot_loop.hlo");
  const auto s = hwmodel::pipeline_bound(l.m, l.w, l.body());
  ASSERT_TRUE(s && s->found);
  EXPECT_GT(s->rec.ii, 1);
  EXPECT_NE(s->reason.find("recurrence"), std::string::npos) << s->reason;
}

TEST(LoopPipelining, ANestedLoopHoldsItsDatapath) {
  // nested_loops: the inner loop is the outer body's own datapath for its whole latency,
  // so outer iterations cannot overlap by more than that.
  const Loop l = load_loop("nested_loops.hlo");
  const auto s = hwmodel::pipeline_bound(l.m, l.w, l.body());
  ASSERT_TRUE(s && s->found);
  int64_t inner = 0;
  const hwmodel::EstimateDetails& b = l.body();
  for (uint32_t t = 0; t < b.graph.size(); ++t)
    if (b.graph.tasks[t].instr != ir::kNoId && l.m.opcode(b.graph.tasks[t].instr) == ir::Opcode::kWhile)
      inner = std::max(inner, b.problem.latency[t]);
  ASSERT_GT(inner, 0);
  EXPECT_GE(s->ii, inner);
  EXPECT_NE(s->reason.find("datapath of"), std::string::npos) << s->reason;
}

}  // namespace
}  // namespace hlsgym::testing
