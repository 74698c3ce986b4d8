// Hardware-model speed: list scheduling + binding of large task graphs, full estimates of
// real HLO files, and the list-vs-exact gap on small graphs (reported as counters).
#include <benchmark/benchmark.h>

#include "bench/bench_data.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>

#include "frontend/load.h"
#include "hwmodel/binding.h"
#include "hwmodel/estimate.h"
#include "hwmodel/microarch_control.h"
#include "hwmodel/random_graph.h"
#include "hwmodel/schedulers/schedulers.h"

namespace {
namespace fs = std::filesystem;
using namespace hlsgym::hwmodel;

const Target& fpga() {
  static const Target t = load_target("fpga", {fs::path(HLSGYM_SOURCE_DIR) / "designs" / "targets"});
  return t;
}
const Target& cpu() {
  static const Target t = load_target("cpu", {fs::path(HLSGYM_SOURCE_DIR) / "designs" / "targets"});
  return t;
}

// Every real HLO module, parsed once; the largest by instruction count first.
const std::vector<std::pair<std::string, hlsgym::ir::Module>>& real_modules() {
  static const auto modules = [] {
    std::vector<std::pair<std::string, hlsgym::ir::Module>> v;
    for (const auto& f : hlsgym::bench::hlo_files())
      v.emplace_back(f.filename().string(), hlsgym::frontend::load_design(f.string()).module);
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
      return a.second.instruction_count() > b.second.instruction_count();
    });
    return v;
  }();
  return modules;
}

// List scheduling + binding of a random graph of state.range(0) tasks (problem built once).
void BM_ListScheduleAndBind(benchmark::State& state) {
  RandomGraphOptions o;
  o.tasks = static_cast<size_t>(state.range(0));
  o.window = 64;
  const TaskGraph g = random_task_graph(fpga(), o);
  const ScheduleProblem p = make_target_problem(g, fpga(), {});
  int64_t length = 0;
  for (auto _ : state) {
    const Schedule s = schedule_list(p);
    const Binding b = bind(g, p, s, fpga());
    length = s.length;
    benchmark::DoNotOptimize(b.unit_area);
  }
  state.counters["tasks"] = static_cast<double>(g.size());
  state.counters["cycles"] = static_cast<double>(length);
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ListScheduleAndBind)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

// Lowering + problem + list + bind, the whole estimate() path, for 100k random tasks.
void BM_ListScheduleAndBindIncludingProblem(benchmark::State& state) {
  RandomGraphOptions o;
  o.tasks = static_cast<size_t>(state.range(0));
  o.window = 64;
  const TaskGraph g = random_task_graph(fpga(), o);
  for (auto _ : state) {
    const ScheduleProblem p = make_target_problem(g, fpga(), {});
    const Schedule s = schedule_list(p);
    benchmark::DoNotOptimize(bind(g, p, s, fpga()).unit_area);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ListScheduleAndBindIncludingProblem)->Arg(100'000)->Unit(benchmark::kMillisecond);

// A full lenient estimate of the largest real HLO file (by instruction count).
void BM_EstimateLargestRealHlo(benchmark::State& state) {
  const auto& [name, m] = real_modules().front();
  const Target& t = state.range(0) == 0 ? fpga() : cpu();
  EstimateOptions o;
  o.lenient = true;
  size_t tasks = 0;
  for (auto _ : state) tasks = estimate(m, t, o).tasks;
  state.SetLabel(name + " on " + t.name);
  state.counters["instructions"] = static_cast<double>(m.instruction_count());
  state.counters["tasks"] = static_cast<double>(tasks);
}
BENCHMARK(BM_EstimateLargestRealHlo)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The control-flow designs (designs/loops/: loops, nested loops, conditionals) and a
// gather (designs/indexing/): a whole FPGA estimate, with and without the details rtl/
// plans from (every loop body's and branch's own schedule and binding kept).
void BM_EstimateControlFlowDesign(benchmark::State& state) {
  static const char* kDesigns[] = {"loops/cordic.yaml", "loops/nested_loops.hlo", "loops/switch3.hlo",
                                   "indexing/gather_windows.hlo"};
  const char* file = kDesigns[state.range(0)];
  const hlsgym::ir::Module m = hlsgym::frontend::load_design((fs::path(HLSGYM_SOURCE_DIR) / "designs" / file).string()).module;
  EstimateOptions o;
  o.keep_details = state.range(1) != 0;
  int64_t cycles = 0;
  for (auto _ : state) cycles = estimate(m, fpga(), o).cycles;
  state.SetLabel(std::string(file) + (o.keep_details ? " (details)" : ""));
  state.counters["cycles"] = static_cast<double>(cycles);
}
BENCHMARK(BM_EstimateControlFlowDesign)->ArgsProduct({{0, 1, 2, 3}, {0, 1}})->Unit(benchmark::kMicrosecond);

// What counting the control logic from the microarchitecture costs on top of an estimate
// with details (make_plan + control_inventory + control_area, hwmodel/microarch_control.h):
// the price of putting it on the hot path. Arg 4: designs/scale/conv3x3_64x64.yaml.
void BM_MicroarchControl(benchmark::State& state) {
  static const char* kDesigns[] = {"loops/cordic.yaml", "loops/nested_loops.hlo", "loops/switch3.hlo",
                                   "indexing/gather_windows.hlo", "scale/conv3x3_64x64.yaml"};
  const char* file = kDesigns[state.range(0)];
  const hlsgym::ir::Module m = hlsgym::frontend::load_design((fs::path(HLSGYM_SOURCE_DIR) / "designs" / file).string()).module;
  EstimateOptions o;
  o.keep_details = true;
  const Estimate e = estimate(m, fpga(), o);
  double lut = 0;
  for (auto _ : state) lut = control_area(control_inventory(make_plan(m, fpga(), e, "bench")), fpga().control).lut;
  state.SetLabel(file);
  state.counters["control_lut"] = lut;
}
BENCHMARK(BM_MicroarchControl)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

// Every real HLO file once per iteration (lenient, fpga): total, mean and slowest file.
void BM_EstimateEveryRealHlo(benchmark::State& state) {
  const auto& modules = real_modules();
  EstimateOptions o;
  o.lenient = true;
  double slowest = 0, total = 0;
  for (auto _ : state) {
    slowest = total = 0;
    for (const auto& [name, m] : modules) {
      const auto t0 = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(estimate(m, fpga(), o).cycles);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      slowest = std::max(slowest, ms);
      total += ms;
    }
  }
  state.counters["files"] = static_cast<double>(modules.size());
  state.counters["mean_ms"] = total / static_cast<double>(modules.size());
  state.counters["slowest_ms"] = slowest;
}
BENCHMARK(BM_EstimateEveryRealHlo)->Unit(benchmark::kMillisecond)->Iterations(3);

// list vs exact on small random graphs with tight limits: mean and max gap in percent
// ((list - exact) / exact), how many exact proved optimal, time per exact solve.
void BM_ListVsExactGap(benchmark::State& state) {
  const int graphs = 200;
  double mean_gap = 0, max_gap = 0, proven = 0, exact_ms = 0;
  for (auto _ : state) {
    mean_gap = max_gap = proven = exact_ms = 0;
    for (int k = 1; k <= graphs; ++k) {
      RandomGraphOptions o;
      o.seed = static_cast<uint64_t>(k);
      o.tasks = static_cast<size_t>(state.range(0));
      o.window = 3 + k % 6;
      o.max_items = 6;
      o.classes = 1 + k % 3;
      const TaskGraph g = random_task_graph(fpga(), o);
      EstimateOptions lim;
      for (int c = 0; c < kUnitClassCount; ++c) lim.unit_limits[std::string(unit_class_name(static_cast<UnitClass>(c)))] = 1 + k % 2;
      const ScheduleProblem p = make_target_problem(g, fpga(), lim);
      const int64_t list = schedule_list(p).length;
      const auto t0 = std::chrono::steady_clock::now();
      const Schedule ex = schedule_exact(p);
      exact_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      const double gap = ex.length > 0 ? 100.0 * static_cast<double>(list - ex.length) / static_cast<double>(ex.length) : 0;
      mean_gap += gap / graphs;
      max_gap = std::max(max_gap, gap);
      proven += ex.optimal;
    }
  }
  state.counters["graphs"] = graphs;
  state.counters["mean_gap_pct"] = mean_gap;
  state.counters["max_gap_pct"] = max_gap;
  state.counters["proven_optimal"] = proven;
  state.counters["exact_ms_mean"] = exact_ms / graphs;
}
BENCHMARK(BM_ListVsExactGap)->Arg(15)->Arg(25)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
