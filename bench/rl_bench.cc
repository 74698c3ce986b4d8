// The RL environment's step, the product's hot path:
// - per design: random-action steps (episodes of 30, resets excluded), with the
//   median and 90th percentile step time as counters (aim: median <= 0.1 ms on designs
//   of <= 300 instructions);
// - steps per second over both cores (one env per thread, the whole design suite);
// - steps per second on the largest real HLO file;
// - the same with the cycles reward on the FPGA target (hardware estimate per new state).
#include <benchmark/benchmark.h>

#include "bench/bench_data.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <random>

#include "frontend/hlo_parser.h"
#include "frontend/load.h"
#include "frontend/source_text.h"
#include "hwmodel/target.h"
#include "ir/random_module.h"
#include "rl/env.h"
#include "rl/graph_wl.h"

namespace {
namespace fs = std::filesystem;
using hlsgym::rl::Env;
using hlsgym::rl::EnvOptions;

const fs::path kSource = HLSGYM_SOURCE_DIR;

std::vector<std::pair<std::string, hlsgym::ir::Module>>& designs() {
  static std::vector<std::pair<std::string, hlsgym::ir::Module>> all = [] {
    std::vector<std::pair<std::string, hlsgym::ir::Module>> out;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(kSource / "designs"))
      if (e.path().extension() == ".yaml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) out.emplace_back(f.stem().string(), hlsgym::frontend::load_design(f.string()).module);
    return out;
  }();
  return all;
}

std::shared_ptr<const hlsgym::hwmodel::Target> fpga() {
  static auto t = std::make_shared<const hlsgym::hwmodel::Target>(
      hlsgym::hwmodel::load_target("fpga", {kSource / "designs" / "targets"}));
  return t;
}

// Runs random episodes on `m`, timing each step; resets are not timed.
void run_steps(benchmark::State& state, const hlsgym::ir::Module& m, EnvOptions o) {
  Env env(std::move(o));
  std::mt19937 rng(1);
  env.reset(m, "bench");
  std::vector<double> times;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = env.step(static_cast<int>(rng() % Env::action_count()));
    times.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    if (r.truncated) {
      state.PauseTiming();
      env.reset(m, "bench");
      state.ResumeTiming();
    }
  }
  std::sort(times.begin(), times.end());
  state.counters["p50_us"] = times[times.size() / 2];
  state.counters["p90_us"] = times[times.size() * 9 / 10];
  state.counters["instructions"] = static_cast<double>(m.instruction_count());
  state.counters["steps_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_EnvStepOpcount(benchmark::State& state, size_t design) { run_steps(state, designs()[design].second, EnvOptions{}); }

void BM_EnvStepCycles(benchmark::State& state, size_t design) {
  EnvOptions o;
  o.reward = "cycles";
  o.target = fpga();
  run_steps(state, designs()[design].second, o);
}

// Both cores: each thread its own env, cycling through the design suite.
void BM_EnvStepsBothCores(benchmark::State& state) {
  Env env{EnvOptions{}};
  std::mt19937 rng(static_cast<unsigned>(state.thread_index() + 1));
  size_t d = static_cast<size_t>(state.thread_index());
  env.reset(designs()[d].second, designs()[d].first);
  for (auto _ : state) {
    if (env.step(static_cast<int>(rng() % Env::action_count())).truncated) {
      d = (d + 1) % designs().size();
      env.reset(designs()[d].second, designs()[d].first);  // timed: part of the throughput
    }
  }
  state.counters["steps_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EnvStepsBothCores)->Threads(2)->UseRealTime()->Unit(benchmark::kMicrosecond);

void BM_EnvStepLargestReal(benchmark::State& state) {
  const fs::path& best = hlsgym::bench::largest_hlo_file();
  static const hlsgym::ir::Module m =
      hlsgym::frontend::parse_hlo(hlsgym::frontend::read_file(best.string()), best.string());
  run_steps(state, m, EnvOptions{});
  state.SetLabel(best.filename().string());
}
BENCHMARK(BM_EnvStepLargestReal)->Unit(benchmark::kMicrosecond);

// The graph-wl observation's feature extraction (rl/graph_wl.h) on the largest real
// graph; issue 18 item 6 asks for <= 20 us per 1,000 instructions.
void BM_GraphWlLargestReal(benchmark::State& state) {
  const fs::path& best = hlsgym::bench::largest_hlo_file();
  static const hlsgym::ir::Module m =
      hlsgym::frontend::parse_hlo(hlsgym::frontend::read_file(best.string()), best.string());
  std::vector<double> counts;
  for (auto _ : state) {
    hlsgym::rl::graph_wl_counts(m, counts);
    benchmark::DoNotOptimize(counts.data());
  }
  state.counters["instructions"] = static_cast<double>(m.instruction_count());
  state.counters["us_per_1k_instr"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(m.instruction_count()) / 1000.0,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
  state.SetLabel(best.filename().string());
}
BENCHMARK(BM_GraphWlLargestReal)->Unit(benchmark::kMicrosecond);

// A 300-instruction random graph (loops, calls, the patterns passes rewrite): the size
// the step-time aim is stated for.
void BM_EnvStepRandom300(benchmark::State& state) {
  hlsgym::ir::RandomModuleOptions g;
  g.instructions = 300;
  g.seed = static_cast<uint64_t>(state.range(0));
  static std::map<int64_t, hlsgym::ir::Module> cache;
  auto it = cache.try_emplace(state.range(0), hlsgym::ir::random_module(g)).first;
  run_steps(state, it->second, EnvOptions{});
}
BENCHMARK(BM_EnvStepRandom300)->Arg(1)->Arg(2)->Arg(3)->Unit(benchmark::kMicrosecond);

const bool registered = [] {
  for (size_t d = 0; d < designs().size(); ++d) {
    benchmark::RegisterBenchmark(("BM_EnvStepOpcount/" + designs()[d].first).c_str(), BM_EnvStepOpcount, d)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("BM_EnvStepCycles/" + designs()[d].first).c_str(), BM_EnvStepCycles, d)
        ->Unit(benchmark::kMicrosecond);
  }
  return true;
}();

}  // namespace
