// The message-passing encoder (rl/gnn.h) on the RL hot path: building a state's graph,
// and the encoder's forward and forward+backward, per 1,000 instructions, on random
// graphs of 1k and 10k instructions and on the largest real graph. PPO runs the forward
// once per new state in its rollouts and forward+backward once per distinct state of each
// minibatch (4 epochs), so these numbers bound what the gnn observation adds per step.
#include <benchmark/benchmark.h>

#include <map>

#include "bench/bench_data.h"
#include "frontend/hlo_parser.h"
#include "frontend/source_text.h"
#include "ir/random_module.h"
#include "rl/gnn.h"

namespace {

using hlsgym::rl::GnnEncoder;
using hlsgym::rl::GnnGraph;

const hlsgym::ir::Module& random_graph(int64_t instructions) {
  static std::map<int64_t, hlsgym::ir::Module> cache;
  auto it = cache.find(instructions);
  if (it == cache.end()) {
    hlsgym::ir::RandomModuleOptions o;
    o.instructions = static_cast<int>(instructions);
    o.seed = 1;
    it = cache.emplace(instructions, hlsgym::ir::random_module(o)).first;
  }
  return it->second;
}

const hlsgym::ir::Module& largest_real() {
  static const hlsgym::ir::Module m = [] {
    const auto& best = hlsgym::bench::largest_hlo_file();
    return hlsgym::frontend::parse_hlo(hlsgym::frontend::read_file(best.string()), best.string());
  }();
  return m;
}

void per_1k(benchmark::State& state, int64_t instructions) {
  state.counters["instructions"] = static_cast<double>(instructions);
  state.counters["us_per_1k_instr"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(instructions) / 1000.0,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
}

// mode 0: build the graph; 1: forward (predict); 2: forward + backward
void run(benchmark::State& state, const hlsgym::ir::Module& m, int mode) {
  const auto g = hlsgym::rl::gnn_graph(m);
  GnnEncoder e(hlsgym::rl::kGnnDefaultHidden, 1);
  const std::vector<const GnnGraph*> batch = {g.get()};
  const Eigen::MatrixXd grad = Eigen::MatrixXd::Ones(1, e.output_size());
  for (auto _ : state) {
    if (mode == 0) {
      benchmark::DoNotOptimize(hlsgym::rl::gnn_graph(m).get());
    } else if (mode == 1) {
      benchmark::DoNotOptimize(e.predict(batch).data());
    } else {
      benchmark::DoNotOptimize(e.forward(batch).data());
      e.backward(grad);
      e.zero_grad();
    }
  }
  per_1k(state, static_cast<int64_t>(m.instruction_count()));
}

void BM_GnnGraphBuild(benchmark::State& state) { run(state, random_graph(state.range(0)), 0); }
void BM_GnnForward(benchmark::State& state) { run(state, random_graph(state.range(0)), 1); }
void BM_GnnForwardBackward(benchmark::State& state) { run(state, random_graph(state.range(0)), 2); }
void BM_GnnForwardBackwardLargestReal(benchmark::State& state) {
  run(state, largest_real(), 2);
  state.SetLabel(hlsgym::bench::largest_hlo_file().filename().string());
}
BENCHMARK(BM_GnnGraphBuild)->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GnnForward)->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GnnForwardBackward)->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GnnForwardBackwardLargestReal)->Unit(benchmark::kMillisecond);

}  // namespace
