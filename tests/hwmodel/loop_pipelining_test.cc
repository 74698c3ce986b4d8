// Loop pipelining of counted while loops (hwmodel/loop_pipelining.h): which loops of
// designs/loops are built pipelined and why the others are not; a built one's modulo
// schedule passes the verifier, its latency is copy-in + (trips - 1) II + one iteration
// and beats running iterations one after another; the directive and the option turn it
// off; the state's read/write orders that one copy cannot serve are refused by name.
#include <fmt/core.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "frontend/hlo_parser.h"
#include "frontend/yaml_design.h"
#include "hwmodel/control_flow.h"
#include "hwmodel/loop_pipelining.h"
#include "hwmodel/modulo_verifier.h"
#include "ir/frontend_attributes.h"
#include "ir/printer.h"
#include "passes/registry.h"
#include "tests/hwmodel/hwmodel_test_util.h"

namespace hlsgym::testing {
namespace {

struct Loop {
  ir::Module m;
  ir::InstrId w = ir::kNoId;
  hwmodel::Estimate e;
  const hwmodel::EstimateDetails& body() const { return *e.details->subs.at(m.called(w)[1]); }
  const hwmodel::LoopPipeline& pipeline() const { return *body().pipeline; }
};

Loop estimate_loop(ir::Module m, bool pipeline = true) {
  Loop l{std::move(m), ir::kNoId, {}};
  for (ir::InstrId i : l.m.instructions(l.m.entry()))
    if (l.m.opcode(i) == ir::Opcode::kWhile) l.w = i;
  hwmodel::EstimateOptions o;
  o.keep_details = true;
  o.pipeline_loops = pipeline;
  l.e = hwmodel::estimate(l.m, fpga_target(), o);
  return l;
}

ir::Module loop_design(const std::string& file) {
  return frontend::load_design((source_dir() / "designs/loops" / file).string()).module;
}

// designs/loops/counted_sum.yaml with `directives: <d>` on its while op.
std::string yaml_with_loop_directive(const std::string& d) {
  std::ifstream in(source_dir() / "designs/loops/counted_sum.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string op = "condition: cond, body: body";
  text.replace(text.find(op), op.size(), op + ", directives: " + d);
  return text;
}

// The loop's task latency in the entry's schedule.
int64_t loop_latency(const Loop& l) {
  const auto& d = *l.e.details;
  for (uint32_t t = 0; t < d.graph.size(); ++t)
    if (d.graph.tasks[t].instr == l.w) return d.problem.latency[t];
  return -1;
}

TEST(LoopPipelining, TheLoopsThatCanOverlapAreBuiltAtAVerifiedScheduleAndAreFaster) {
  for (const char* f : {"counted_sum.yaml", "cordic.yaml", "dot_loop.hlo", "mixed_state.hlo", "dus_rows.hlo"}) {
    SCOPED_TRACE(f);
    const Loop l = estimate_loop(loop_design(f));
    ASSERT_NE(l.w, ir::kNoId);
    const hwmodel::LoopPipeline& p = l.pipeline();
    ASSERT_TRUE(p.built) << p.why_not;
    const hwmodel::PipelineProblem pp = hwmodel::pipeline_problem(l.m, l.w, l.body().graph, l.body().problem);
    EXPECT_EQ(pp.why_not, "");
    EXPECT_EQ(hwmodel::verify_modulo_schedule(pp.problem, p.schedule), "");
    EXPECT_GE(p.schedule.ii, std::max<int64_t>(1, p.schedule.rec.ii));
    EXPECT_EQ(l.body().schedule.length, p.schedule.length);
    const int64_t trips = *hwmodel::while_trip_count(l.m, l.w);
    const hwmodel::WhileLoop w = hwmodel::while_loop(l.m, l.w, fpga_target(), trips, 0, p.schedule.length, p.schedule.ii);
    EXPECT_EQ(loop_latency(l), w.copy_in + (trips - 1) * p.schedule.ii + p.schedule.length);
    const Loop sequential = estimate_loop(loop_design(f), false);
    EXPECT_EQ(sequential.body().pipeline->why_not, "pipelining turned off (directive pipeline: off)");
    EXPECT_LT(loop_latency(l), loop_latency(sequential));
    EXPECT_LT(l.e.cycles, sequential.e.cycles);
  }
}

TEST(LoopPipelining, TheOthersSayWhyNot) {
  const std::pair<const char*, const char*> cases[] = {
      {"nested_loops.hlo", "the body holds a nested loop"},
      {"switch3.hlo", "the body holds a conditional"},
      {"swap_loop.hlo", "is not computed by a task of its own in the body"},
      {"zero_trip.hlo", "it runs no iteration"},
  };
  for (const auto& [f, why] : cases) {
    SCOPED_TRACE(f);
    const Loop l = estimate_loop(loop_design(f));
    EXPECT_FALSE(l.pipeline().built);
    EXPECT_NE(l.pipeline().why_not.find(why), std::string::npos) << l.pipeline().why_not;
    // and the loop costs what it did without pipelining (nested_loops: its inner loop is)
    if (std::string(f) != "nested_loops.hlo") EXPECT_EQ(l.e.cycles, estimate_loop(loop_design(f), false).e.cycles);
  }
}

TEST(LoopPipelining, AnAccumulatorIsARecurrence) {
  // dot_loop: the vector feeds the next iteration's dot; the dot cannot start before the
  // previous iteration's shift has written it, so the recurrence through both bounds the II.
  const Loop l = estimate_loop(loop_design("dot_loop.hlo"));
  ASSERT_TRUE(l.pipeline().built);
  EXPECT_EQ(l.pipeline().schedule.limit, hwmodel::IiLimit::kRecurrence);
  EXPECT_NE(l.pipeline().schedule.reason.find("recurrence mv -> v1 -> mv"), std::string::npos)
      << l.pipeline().schedule.reason;
}

TEST(LoopPipelining, TheDirectiveTurnsItOffAndATargetIiIsAimedAt) {
  ir::Module off = loop_design("counted_sum.yaml");
  for (ir::InstrId i : off.instructions(off.entry()))
    if (off.opcode(i) == ir::Opcode::kWhile) ir::set_frontend_attribute(off.mutable_payload(i).attrs, "pipeline", "off");
  const Loop l = estimate_loop(std::move(off));
  EXPECT_FALSE(l.pipeline().built);
  EXPECT_EQ(l.e.cycles, estimate_loop(loop_design("counted_sum.yaml"), false).e.cycles);

  ir::Module slow = loop_design("counted_sum.yaml");
  const int64_t best = estimate_loop(loop_design("counted_sum.yaml")).pipeline().schedule.ii;
  for (ir::InstrId i : slow.instructions(slow.entry()))
    if (slow.opcode(i) == ir::Opcode::kWhile)
      ir::set_frontend_attribute(slow.mutable_payload(i).attrs, "pipeline", std::to_string(best + 3));
  const Loop t = estimate_loop(std::move(slow));
  ASSERT_TRUE(t.pipeline().built);
  EXPECT_EQ(t.pipeline().schedule.ii, best + 3);
  EXPECT_EQ(t.pipeline().schedule.limit, hwmodel::IiLimit::kRequested);

  // a target below the bounds: built at the II reached, and the reason says what holds it
  const Loop low = estimate_loop(frontend::load_yaml_design(yaml_with_loop_directive("{pipeline: 1}"), "c.yaml").module);
  ASSERT_TRUE(low.pipeline().built);
  EXPECT_EQ(low.pipeline().schedule.ii, best);
  // (counted_sum's accumulator: its recurrence and, since its broadcast is read in place
  // (hwmodel/chaining.h), its int_alu instance bound the II alike; the reason names both)
  EXPECT_EQ(low.pipeline().schedule.reason.rfind(fmt::format("target II 1 not met, II {} reached: ", best), 0), 0u)
      << low.pipeline().schedule.reason;
  EXPECT_NE(low.pipeline().schedule.reason.find(fmt::format("RecMII {}", best)), std::string::npos)
      << low.pipeline().schedule.reason;
  // the YAML directive off
  const Loop yoff = estimate_loop(frontend::load_yaml_design(yaml_with_loop_directive("{pipeline: off}"), "c.yaml").module);
  EXPECT_FALSE(yoff.pipeline().built);
  EXPECT_EQ(yoff.e.cycles, estimate_loop(loop_design("counted_sum.yaml"), false).e.cycles);
}

TEST(LoopPipelining, TheEnvironmentsDirectivePassesTurnItOffAndBack) {
  ir::Module m = loop_design("counted_sum.yaml");
  const std::string original = ir::print_module(m);
  const auto& registry = passes::Registry::global();
  ASSERT_TRUE(registry.create("loop-pipeline-off")->run(m));
  EXPECT_FALSE(registry.create("loop-pipeline-off")->run(m));  // nothing left to change
  EXPECT_EQ(estimate_loop(m).e.cycles, estimate_loop(loop_design("counted_sum.yaml"), false).e.cycles);
  ASSERT_TRUE(registry.create("loop-pipeline-on")->run(m));
  EXPECT_EQ(ir::print_module(m), original);  // undone exactly
  EXPECT_FALSE(registry.create("loop-pipeline-on")->run(m));
}

// A body as HLO text around `ops`, over state (s32[] i, s32[8] v); it returns (i1, `v1`).
ir::Module body_with(const std::string& ops, const std::string& v1) {
  const std::string text = R"(HloModule t
cond {
  s = (s32[], s32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(6)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], s32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = s32[8] get-tuple-element(s), index=1
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
)" + ops + "\n  ROOT t = (s32[], s32[8]) tuple(i1, " + v1 + R"()
}
ENTRY main {
  v = s32[8] parameter(0)
  z = s32[] constant(0)
  init = (s32[], s32[8]) tuple(z, v)
  w = (s32[], s32[8]) while(init), condition=cond, body=body
  ROOT r = s32[8] get-tuple-element(w), index=1
})";
  return frontend::parse_hlo(text, "t.hlo");
}

TEST(LoopPipelining, OneCopyOfTheStateMustServeEveryReader) {
  // reverse reads v at other addresses than it writes: in place it would read new values
  const Loop rev = estimate_loop(body_with("  v1 = s32[8] reverse(v), dimensions={0}", "v1"));
  EXPECT_FALSE(rev.pipeline().built);
  EXPECT_NE(rev.pipeline().why_not.find("v1 rewrites state leaf 1 while reading it at other addresses"),
            std::string::npos) << rev.pipeline().why_not;
  // v2 needs the old v after v1, the new one, exists (one memory holds one of them)
  const Loop late = estimate_loop(body_with("  v1 = s32[8] negate(v)\n  v2 = s32[8] add(v1, v)", "v1"));
  EXPECT_FALSE(late.pipeline().built);
  EXPECT_NE(late.pipeline().why_not.find("reads the old value of state leaf 1 after"), std::string::npos)
      << late.pipeline().why_not;
  // an elementwise update in place overlaps: II = its pipeline depth, not its 8 issue cycles
  const Loop acc = estimate_loop(body_with("  b = s32[8] broadcast(i), dimensions={}\n  v1 = s32[8] add(v, b)", "v1"));
  EXPECT_TRUE(acc.pipeline().built) << acc.pipeline().why_not;
}

// rtl reads a design output through a port of its own after the schedule; when the output
// is a loop's state leaf that port is on the loop's memory, so the leaf counts it as a
// reader (dus_rows: the body's dynamic-update-slice and the output r; was 1, and the
// 24 x 32 port Yosys builds, 409 LUT, went unpriced). Through a consumer the output is
// the consumer's buffer, and the leaf has only that reader.
TEST(LoopPipelining, AStateLeafThatIsAnOutputIsReadThroughAPortOfItsOwn) {
  const std::string file = (source_dir() / "designs/loops/dus_rows.hlo").string();
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const bool through_negate : {false, true}) {
    std::string t = text;
    if (through_negate) {
      const std::string root = "ROOT r = s32[6,4] get-tuple-element(w), index=1";
      ASSERT_NE(t.find(root), std::string::npos);
      t.replace(t.find(root), root.size(), "r = s32[6,4] get-tuple-element(w), index=1\n  ROOT n = s32[6,4] negate(r)");
    }
    const ir::Module m = frontend::parse_hlo(t, "dus_rows.hlo");
    ir::InstrId w = ir::kNoId;
    for (ir::InstrId i : m.instructions(m.entry()))
      if (m.opcode(i) == ir::Opcode::kWhile) w = i;
    ASSERT_NE(w, ir::kNoId);
    for (const int64_t ii : {int64_t{0}, int64_t{30}}) {
      const hwmodel::WhileLoop l = hwmodel::while_loop(m, w, fpga_target(), 7, 2, 30, ii);
      ASSERT_EQ(l.leaves.size(), 2u);
      EXPECT_EQ(l.leaves[1].readers, 2) << "negate " << through_negate << " ii " << ii;  // the body's DUS + (output | negate)
    }
  }
}

}  // namespace
}  // namespace hlsgym::testing
