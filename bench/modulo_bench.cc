// Modulo scheduling speed (issue 15's bar: a 200-op loop body in <= 10 ms): the whole
// schedule_modulo (graph, ResMII, RecMII, iterative modulo scheduling from the MII up)
// on random loop bodies of state.range(0) ops with loop-carried dependences (one per 25
// ops) and 4 resource classes of 1..3 instances (BM_ModuloSchedule: the resources set
// the II) or of up to ops / 8 instances (BM_ModuloScheduleWide: mostly the recurrences
// do). Eight bodies, scheduled in turn; the counters say how hard they are (mean II and
// MII) and how often the MII was reached.
#include <benchmark/benchmark.h>

#include <vector>

#include "hwmodel/random_graph.h"
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

}  // namespace
