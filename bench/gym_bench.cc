// What the Python module adds on the C++ side (rl/gym_env.h, rl/vector_env.h,
// rl/graph_observation.h); bench/python_bench.py measures the binding itself.
// - graph observation of the largest real HLO file (aim: <= 2 ms for 10k instructions;
//   the counter s_per_10k_instructions scales the time to that size);
// - VectorEnv steps per second on the design suite with 2 threads (aim: >= 300k),
//   as items_per_second; batches of 64 environments, episodes of 30, autoreset included.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <random>

#include "bench/bench_data.h"
#include "frontend/load.h"
#include "rl/graph_observation.h"
#include "rl/vector_env.h"

namespace {
namespace fs = std::filesystem;
using namespace hlsgym;

std::shared_ptr<const rl::GraphSet> design_set() {
  static auto set = [] {
    auto out = std::make_shared<rl::GraphSet>();
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(fs::path(HLSGYM_SOURCE_DIR) / "designs"))
      if (e.path().extension() == ".yaml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) out->emplace_back(f.stem().string(), frontend::load_design(f.string()).module);
    return std::shared_ptr<const rl::GraphSet>(out);
  }();
  return set;
}

void BM_GraphObservationLargestHlo(benchmark::State& state) {
  const ir::Module m = frontend::load_design(bench::largest_hlo_file().string()).module;
  int64_t nodes = 0;
  for (auto _ : state) {
    const rl::GraphObservation g = rl::graph_observation(m);
    nodes = g.nodes();
    benchmark::DoNotOptimize(g.col.data());
  }
  state.counters["instructions"] = static_cast<double>(nodes);
  // CPU seconds per 10k instructions (printed with an SI prefix: 1.5m is 1.5 ms).
  state.counters["s_per_10k_instructions"] = benchmark::Counter(
      static_cast<double>(nodes) / 1e4, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_GraphObservationLargestHlo)->Unit(benchmark::kMillisecond);

void BM_VectorEnvDesigns(benchmark::State& state) {
  const int envs = 64, threads = static_cast<int>(state.range(0));
  rl::EnvOptions o;
  o.max_steps = 30;
  rl::VectorEnv v(design_set(), o, envs, threads);
  const int d = v.observation_size(), a = rl::Env::action_count();
  std::vector<float> obs(static_cast<size_t>(envs * d));
  std::vector<double> rewards(envs);
  std::vector<uint8_t> term(envs), trunc(envs), changed(envs), refused(envs), failed(envs), masks(envs * a);
  rl::VectorStepBuffers b{obs.data(), rewards.data(), term.data(), trunc.data(), changed.data(), refused.data(),
                          failed.data(), masks.data()};
  v.reset(1, b);
  std::mt19937 rng(1);
  std::vector<int64_t> actions(envs);
  for (auto _ : state) {
    for (auto& x : actions) x = static_cast<int64_t>(rng() % static_cast<unsigned>(a));
    v.step(actions.data(), b);
  }
  state.SetItemsProcessed(state.iterations() * envs);
}
BENCHMARK(BM_VectorEnvDesigns)->Arg(1)->Arg(2)->UseRealTime()->MinTime(2.0);

}  // namespace
