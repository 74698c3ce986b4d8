// Pass speed, the RL environment's hot path:
// - every pass on random graphs of 1k, 10k and 100k instructions (the copies it runs on
//   are made and freed with the timer paused; counters per_run and per_1k_instr);
// - every pass on a 300-instruction random graph it has already simplified (a no-op
//   action: what most RL steps cost late in an episode);
// - XLA's default order on the largest real HLO file, next to parsing it.
#include <benchmark/benchmark.h>

#include "bench/bench_data.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "frontend/hlo_parser.h"
#include "frontend/source_text.h"
#include "ir/random_module.h"
#include "passes/default_order.h"
#include "passes/registry.h"

namespace {
namespace fs = std::filesystem;
using hlsgym::ir::Module;
using hlsgym::passes::Registry;

const Module& random_graph(int instructions) {
  static std::map<int, Module> cache;
  auto it = cache.find(instructions);
  if (it == cache.end()) {
    hlsgym::ir::RandomModuleOptions o;
    o.instructions = instructions;
    o.seed = 7;
    o.max_dim = 8;
    it = cache.emplace(instructions, hlsgym::ir::random_module(o)).first;
  }
  return it->second;
}

// Only the pass is timed. Each timed batch runs the pass on `copies` fresh copies of the
// graph (about 100k instructions in all, so every size leaves the caches alike), made
// before the timer resumes and freed after it stops. Before, a copy was made per run
// with the timer paused but freed with it running, and a module's destruction costs as
// much as a pass that finds nothing: every pass seemed to grow more than 12x from 1k to
// 10k instructions.
void BM_PassOnRandomGraph(benchmark::State& state, std::string pass, int instructions) {
  const Module& original = random_graph(instructions);
  auto p = Registry::global().create(pass);
  const size_t copies = std::max<size_t>(1, 100'000 / original.instruction_count());
  int64_t changed = 0;
  std::vector<Module> pool;
  pool.reserve(copies);
  for (auto _ : state) {
    state.PauseTiming();
    pool.clear();
    for (size_t k = 0; k < copies; ++k) pool.push_back(original);
    state.ResumeTiming();
    for (Module& m : pool) {
      changed += p->run(m);
      benchmark::DoNotOptimize(m);
    }
  }
  pool.clear();  // after the timed loop
  const double runs = static_cast<double>(copies);
  // Seconds per run and per 1,000 instructions (printed with an SI prefix, 85u = 85 µs).
  state.counters["per_run"] = benchmark::Counter(runs, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["per_1k_instr"] =
      benchmark::Counter(runs * static_cast<double>(original.instruction_count()) / 1e3,
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["changed"] = static_cast<double>(changed) / (runs * static_cast<double>(state.iterations()));
}

// A pass that finds nothing must cost almost nothing: run it on a graph it has already
// rewritten until it reports no change.
void BM_NoOpPass(benchmark::State& state, std::string pass) {
  Module m = random_graph(300);
  auto p = Registry::global().create(pass);
  for (int k = 0; k < 8 && p->run(m); ++k) {
  }
  for (auto _ : state) benchmark::DoNotOptimize(p->run(m));
}

const fs::path& largest_file() { return hlsgym::bench::largest_hlo_file(); }

void BM_DefaultOrderLargest(benchmark::State& state) {
  const std::string text = hlsgym::frontend::read_file(largest_file().string());
  const Module original = hlsgym::frontend::parse_hlo(text, "largest");
  std::optional<Module> m;  // copied and freed with the timer paused (see BM_PassOnRandomGraph)
  for (auto _ : state) {
    state.PauseTiming();
    m.reset();
    m.emplace(original);
    state.ResumeTiming();
    hlsgym::passes::make_default_order()->run(*m);
    benchmark::DoNotOptimize(*m);
  }
  state.SetLabel(largest_file().filename().string());
  state.counters["instructions"] = static_cast<double>(original.instruction_count());
}
BENCHMARK(BM_DefaultOrderLargest)->Unit(benchmark::kMillisecond);

void BM_ParseLargestForComparison(benchmark::State& state) {
  const std::string text = hlsgym::frontend::read_file(largest_file().string());
  for (auto _ : state) benchmark::DoNotOptimize(hlsgym::frontend::parse_hlo(text, "largest"));
}
BENCHMARK(BM_ParseLargestForComparison)->Unit(benchmark::kMillisecond);

// One registration per pass and size, made at start-up so the list follows the catalog.
const bool registered = [] {
  for (const auto& info : Registry::global().all()) {
    for (int n : {1000, 10000, 100000})
      benchmark::RegisterBenchmark(("BM_Pass/" + info.name + "/" + std::to_string(n)).c_str(), BM_PassOnRandomGraph,
                                   info.name, n)
          ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("BM_NoOpPass/" + info.name).c_str(), BM_NoOpPass, info.name)
        ->Unit(benchmark::kMicrosecond);
  }
  return true;
}();

}  // namespace
