// Random small integer graphs after random pass orders, on 1 to 4 lanes: the emitter
// accepts every one (the generator's ops are all in its set) and it lints clean; a handful
// go through Verilator against the interpreter.
// RTL_SEED0, RTL_SEEDS and RTL_COSIMS widen the sweep by hand.
#include <cstdlib>

#include "ir/error.h"
#include "ir/printer.h"
#include "tests/rtl/rtl_test_util.h"

namespace hlsgym::testing {
namespace {

uint64_t env_or(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v ? std::stoull(v) : fallback;
}

rtl::EmitOptions lanes_for(uint64_t seed) {
  rtl::EmitOptions o;
  o.estimate.lanes = 1 + static_cast<int>(seed % 4);
  return o;
}

// The design of graph `m` of `seed` (a refusal fails the test).
std::optional<std::pair<ir::Module, rtl::EmittedDesign>> emitted(ir::Module m, uint64_t seed) {
  try {
    rtl::EmittedDesign d = rtl::emit(m, rtl_fpga(), lanes_for(seed));
    return std::make_pair(std::move(m), std::move(d));
  } catch (const Error& e) {
    ADD_FAILURE() << "seed " << seed << ": " << e.what();
    return std::nullopt;
  }
}

// Verilator against the interpreter on 8 vectors: no mismatch, cycles as estimated.
rtl::SimResult expect_cosim_exact(const std::pair<ir::Module, rtl::EmittedDesign>& g, uint64_t seed,
                                  const std::vector<std::string>& order, const std::string& dir) {
  rtl::SimOptions o;
  o.vectors = 8;
  o.seed = seed;
  const rtl::SimResult r = rtl::cosimulate(g.first, g.second, rtl_work_dir(dir + std::to_string(seed)), o);
  EXPECT_EQ(r.mismatches, 0) << "seed " << seed << " order " << order_text(order) << ": "
                             << (r.first ? rtl::describe(*r.first) : "") << "\n" << ir::print_module(g.first);
  EXPECT_TRUE(r.passed()) << "seed " << seed << ": measured " << r.measured_cycles << " (min " << r.min_measured_cycles
                          << "), estimated " << r.estimated_cycles;
  return r;
}

TEST(RandomGraphs, EmitAndLintClean) {
  const uint64_t first = env_or("RTL_SEED0", 1), count = env_or("RTL_SEEDS", 40);
  int accepted = 0;
  for (uint64_t seed = first; seed < first + count; ++seed) {
    std::vector<std::string> order;
    const auto g = emitted(random_rtl_graph(seed, 6, order), seed);
    if (!g) continue;
    ++accepted;
    const rtl::Files f = rtl::write_files(g->second, rtl_work_dir("lint_random_" + std::to_string(seed)));
    const rtl::LintResult r = rtl::lint(f, g->second.module_name);
    EXPECT_TRUE(r.clean) << "seed " << seed << " order " << order_text(order) << "\n" << r.output << "\n"
                         << ir::print_module(g->first);
  }
  EXPECT_EQ(accepted, static_cast<int>(count));
  std::printf("emitted and linted %d of %llu graphs\n", accepted, static_cast<unsigned long long>(count));
}

TEST(RandomGraphs, CosimAfterRandomPassOrders) {
  const int want = static_cast<int>(env_or("RTL_COSIMS", 4));
  int done = 0;
  for (uint64_t seed = env_or("RTL_SEED0", 1); done < want; ++seed) {
    std::vector<std::string> order;
    const auto g = emitted(random_rtl_graph(seed, 6, order), seed);
    if (!g) continue;
    ++done;
    const rtl::SimResult r = expect_cosim_exact(*g, seed, order, "cosim_random_");
    std::printf("seed %llu (%d lanes, %s): %lld cycles, build %.2f s\n", static_cast<unsigned long long>(seed),
                lanes_for(seed).estimate.lanes, order_text(order).c_str(), static_cast<long long>(r.measured_cycles),
                r.build_seconds);
  }
}

// Random graphs that still hold a gather after their pass order (start indices from random
// s32 values: most windows clamp to an edge), on 1 to 4 lanes. RTL_GATHER_COSIMS widens it.
TEST(RandomGraphs, GathersCosimulateExactly) {
  const int want = static_cast<int>(env_or("RTL_GATHER_COSIMS", 3));
  int done = 0;
  for (uint64_t seed = 1; seed < 5000 && done < want; ++seed) {
    std::vector<std::string> order;
    ir::Module m = random_rtl_graph(seed, 6, order);
    bool gather = false;
    for (ir::InstrId i : m.instructions(m.entry())) gather |= m.opcode(i) == ir::Opcode::kGather;
    if (!gather) continue;
    const auto g = emitted(std::move(m), seed);
    if (!g) continue;
    ++done;
    expect_cosim_exact(*g, seed, order, "cosim_gather_");
  }
  EXPECT_EQ(done, want);
}

}  // namespace
}  // namespace hlsgym::testing
