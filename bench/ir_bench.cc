// Foundation speed: parse + verify throughput on the largest real HLO file, module
// clone and feature extraction per 1,000 instructions.
#include <benchmark/benchmark.h>

#include "bench/bench_data.h"

#include <filesystem>
#include <string>

#include "frontend/hlo_parser.h"
#include "frontend/source_text.h"
#include "ir/features.h"
#include "ir/module_hash.h"
#include "ir/module.h"
#include "ir/verifier.h"

namespace {
namespace fs = std::filesystem;

// The largest .hlo under the data folder (by bytes).
const std::string& largest_file_text() {
  static const std::string text = hlsgym::frontend::read_file(hlsgym::bench::largest_hlo_file().string());
  return text;
}

const hlsgym::ir::Module& largest_module() {
  static const hlsgym::ir::Module m = hlsgym::frontend::parse_hlo(largest_file_text(), "largest");
  return m;
}

void BM_ParseLargest(benchmark::State& state) {
  const std::string& text = largest_file_text();
  for (auto _ : state) benchmark::DoNotOptimize(hlsgym::frontend::parse_hlo(text, "largest"));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ParseLargest)->Unit(benchmark::kMillisecond);

void BM_ParseAndVerifyLargest(benchmark::State& state) {
  const std::string& text = largest_file_text();
  for (auto _ : state) {
    auto m = hlsgym::frontend::parse_hlo(text, "largest");
    hlsgym::ir::verify(m);
    benchmark::DoNotOptimize(m);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ParseAndVerifyLargest)->Unit(benchmark::kMillisecond);

// Time per 1,000 instructions is reported as the counter us_per_1k_instr.
void BM_CloneLargest(benchmark::State& state) {
  const auto& m = largest_module();
  for (auto _ : state) {
    hlsgym::ir::Module copy = m;  // the RL environment's reset
    benchmark::DoNotOptimize(copy);
  }
  state.counters["instructions"] = static_cast<double>(m.instruction_count());
  state.counters["us_per_1k_instr"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(m.instruction_count()) / 1000.0,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_CloneLargest)->Unit(benchmark::kMicrosecond);

void BM_FeaturesLargest(benchmark::State& state) {
  const auto& m = largest_module();
  for (auto _ : state) benchmark::DoNotOptimize(hlsgym::ir::extract_features(m));
  state.counters["us_per_1k_instr"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(m.instruction_count()) / 1000.0,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_FeaturesLargest)->Unit(benchmark::kMicrosecond);

// The same on payloads whose sizes are not known yet (InstrPayload::sizes, dropped here by
// copying each payload): the first state of an RL episode on a graph, where
// BM_FeaturesLargest is every later one (a pass leaves most payloads shared).
void BM_FeaturesLargestFirstSight(benchmark::State& state) {
  const auto& m = largest_module();
  for (auto _ : state) {
    state.PauseTiming();
    hlsgym::ir::Module fresh = m;
    for (hlsgym::ir::InstrId i = 0; i < fresh.instruction_slots(); ++i)
      if (fresh.is_live(i)) fresh.mutable_payload(i);
    state.ResumeTiming();
    benchmark::DoNotOptimize(hlsgym::ir::extract_features(fresh));
    state.PauseTiming();
    fresh = hlsgym::ir::Module();
    state.ResumeTiming();
  }
  state.counters["us_per_1k_instr"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(m.instruction_count()) / 1000.0,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_FeaturesLargestFirstSight)->Unit(benchmark::kMicrosecond);

// The structural hash: every new state of an RL episode is hashed (the key of its metrics
// and of the transition memo).
void BM_HashLargest(benchmark::State& state) {
  const auto& m = largest_module();
  for (auto _ : state) benchmark::DoNotOptimize(hlsgym::ir::structural_hash(m));
  state.counters["us_per_1k_instr"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * static_cast<double>(m.instruction_count()) / 1000.0,
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_HashLargest)->Unit(benchmark::kMicrosecond);

}  // namespace

namespace {
// Issue 17: N instructions sharing one constant (a hub). Linking, replacing uses and
// removing users are O(operands) per instruction, so time per user stays flat as N
// grows (before: a search of the hub's user list, quadratic; 10^6 took 100 s to load).
void BM_HubUsers(benchmark::State& state) {
  using namespace hlsgym::ir;
  const int64_t n = state.range(0);
  for (auto _ : state) {
    Module m("hub");
    const CompId c = m.add_computation("e");
    const InstrId p = m.add_parameter(c, 0, Shape::scalar(ElementType::kF32), "p");
    std::vector<InstrId> users;
    users.reserve(static_cast<size_t>(n));
    for (int64_t u = 0; u < n; ++u)
      users.push_back(m.add_instruction(c, Opcode::kAdd, Shape::scalar(ElementType::kF32), std::vector<InstrId>{p, p}, {}, ""));
    m.set_root(c, users[0]);
    for (int64_t u = n - 1; u >= 1; --u) m.remove_instruction(users[static_cast<size_t>(u)]);
    benchmark::DoNotOptimize(m.users(p).size());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_HubUsers)->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
}  // namespace
