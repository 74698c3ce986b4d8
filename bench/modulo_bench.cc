// Modulo scheduling speed (issue 15's bar: a 200-op loop body in <= 10 ms): the whole
// schedule_modulo (graph, ResMII, RecMII, iterative modulo scheduling from the MII up)
// on random loop bodies of state.range(0) ops with loop-carried dependences (one per 25
// ops) and 4 resource classes of 1..3 instances (BM_ModuloSchedule: the resources set
// the II) or of up to ops / 8 instances (BM_ModuloScheduleWide: mostly the recurrences
// do). Eight bodies, scheduled in turn; the counters say how hard they are (mean II and
// MII) and how often the MII was reached.
#include <benchmark/benchmark.h>

#include <fmt/core.h>

#include <algorithm>
#include <string>
#include <vector>

#include "frontend/hlo_parser.h"
#include "hwmodel/estimate.h"
#include "hwmodel/loop_pipelining.h"
#include "hwmodel/random_graph.h"
#include "hwmodel/target.h"
#include "hwmodel/schedulers/modulo.h"

namespace {
using namespace hlsgym::hwmodel;

std::vector<ModuloProblem> loop_bodies(size_t ops, int max_limit) {
  std::vector<ModuloProblem> bodies;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    RandomLoopBodyOptions o;
    o.seed = seed;
    o.ops = ops;
    o.window = 16;
    o.resources = 4;
    o.max_limit = max_limit;
    o.max_busy = 2;
    o.loop_carried = static_cast<int>(ops / 25);
    o.max_distance = 2;
    bodies.push_back(random_loop_body(o));
  }
  return bodies;
}

void schedule_in_turn(benchmark::State& state, const std::vector<ModuloProblem>& bodies) {
  std::vector<ModuloSchedule> last(bodies.size());
  size_t next = 0;
  for (auto _ : state) {
    last[next] = schedule_modulo(bodies[next]);
    benchmark::DoNotOptimize(last[next].ii);
    next = (next + 1) % bodies.size();
  }
  double ii = 0, mii = 0, at_mii = 0, placements = 0;
  for (size_t k = 0; k < bodies.size(); ++k) {
    const ModuloSchedule s = last[k].found ? last[k] : schedule_modulo(bodies[k]);
    ii += static_cast<double>(s.ii), mii += static_cast<double>(s.mii), at_mii += s.ii == s.mii;
    placements += static_cast<double>(s.placements) / static_cast<double>(bodies[k].size());
  }
  const auto n = static_cast<double>(bodies.size());
  state.counters["ii"] = ii / n;
  state.counters["mii"] = mii / n;
  state.counters["at_mii"] = at_mii / n;
  state.counters["placements_per_op"] = placements / n;
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
void BM_ModuloSchedule(benchmark::State& state) {
  schedule_in_turn(state, loop_bodies(static_cast<size_t>(state.range(0)), 3));
}
BENCHMARK(BM_ModuloSchedule)->Arg(50)->Arg(200)->Arg(1000)->Unit(benchmark::kMicrosecond);

void BM_ModuloScheduleWide(benchmark::State& state) {
  schedule_in_turn(state, loop_bodies(static_cast<size_t>(state.range(0)), static_cast<int>(state.range(0) / 8)));
}
BENCHMARK(BM_ModuloScheduleWide)->Arg(50)->Arg(200)->Arg(1000)->Unit(benchmark::kMicrosecond);


// A counted while loop whose body is `ops` elementwise ops on s32[8] vectors (each reads
// two of the 16 values before it, the state's vector among them) and writes the vector
// back: the whole pipelining decision of hwmodel/loop_pipelining.h (the body's modulo
// problem with its state and buffer constraints, the schedule, the verifier) on the body
// as the estimate lowered it.
struct LoopModule {
  hlsgym::ir::Module m;
  hlsgym::ir::InstrId w = hlsgym::ir::kNoId;
  hlsgym::hwmodel::Estimate e;
};

LoopModule loop_with_body(int ops) {
  std::string body = "body {\n  s = (s32[], s32[8]) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n"
                     "  x0 = s32[8] get-tuple-element(s), index=1\n  one = s32[] constant(1)\n  i1 = s32[] add(i, one)\n";
  const char* kinds[] = {"add", "multiply", "subtract", "xor", "maximum"};
  uint64_t r = 12345;
  for (int k = 1; k <= ops; ++k) {
    r = r * 6364136223846793005ULL + 1442695040888963407ULL;
    const int a = std::max(0, k - 1 - static_cast<int>((r >> 33) % 16)), b = k - 1;
    body += fmt::format("  x{} = s32[8] {}(x{}, x{})\n", k, kinds[(r >> 20) % 5], a, b);
  }
  body += fmt::format("  ROOT t = (s32[], s32[8]) tuple(i1, x{})\n}}\n", ops);
  const std::string text = "HloModule loop\ncond {\n  s = (s32[], s32[8]) parameter(0)\n  i = s32[] get-tuple-element(s), "
                           "index=0\n  n = s32[] constant(100)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}\n" +
                           body +
                           "ENTRY main {\n  v = s32[8] parameter(0)\n  z = s32[] constant(0)\n  init = (s32[], s32[8]) "
                           "tuple(z, v)\n  w = (s32[], s32[8]) while(init), condition=cond, body=body\n  ROOT r = s32[8] "
                           "get-tuple-element(w), index=1\n}\n";
  LoopModule l{hlsgym::frontend::parse_hlo(text, "loop.hlo"), hlsgym::ir::kNoId, {}};
  for (hlsgym::ir::InstrId i : l.m.instructions(l.m.entry()))
    if (l.m.opcode(i) == hlsgym::ir::Opcode::kWhile) l.w = i;
  EstimateOptions o;
  o.keep_details = true;
  o.lenient = true;  // a wide body may not fit the part; the decision is timed, not the fit
  const Target fpga = load_target("fpga", {std::string(HLSGYM_SOURCE_DIR) + "/designs/targets"});
  l.e = estimate(l.m, fpga, o);
  return l;
}

void BM_PipelineLoopBody(benchmark::State& state) {
  const LoopModule l = loop_with_body(static_cast<int>(state.range(0)));
  const EstimateDetails& body = *l.e.details->subs.at(l.m.called(l.w)[1]);
  LoopPipeline p;
  for (auto _ : state) {
    p = pipeline_loop(l.m, l.w, body.graph, body.problem);
    benchmark::DoNotOptimize(p.schedule.ii);
  }
  state.counters["ii"] = static_cast<double>(p.schedule.ii);
  state.counters["tasks"] = static_cast<double>(body.graph.size());
  state.counters["built"] = p.built;
}
BENCHMARK(BM_PipelineLoopBody)->Arg(50)->Arg(200)->Unit(benchmark::kMicrosecond);

}  // namespace
