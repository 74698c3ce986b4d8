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

// The graph of `seed` and its design (a refusal fails the test).
std::optional<std::pair<ir::Module, rtl::EmittedDesign>> emitted(uint64_t seed, std::vector<std::string>& order) {
  ir::Module m = random_rtl_graph(seed, 6, order);
  try {
    rtl::EmittedDesign d = rtl::emit(m, rtl_fpga(), lanes_for(seed));
    return std::make_pair(std::move(m), std::move(d));
  } catch (const Error& e) {
    ADD_FAILURE() << "seed " << seed << ": " << e.what();
    return std::nullopt;
  }
}

TEST(RandomGraphs, EmitAndLintClean) {
  const uint64_t first = env_or("RTL_SEED0", 1), count = env_or("RTL_SEEDS", 40);
  int accepted = 0;
  for (uint64_t seed = first; seed < first + count; ++seed) {
    std::vector<std::string> order;
    const auto g = emitted(seed, order);
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
    const auto g = emitted(seed, order);
    if (!g) continue;
    ++done;
    rtl::SimOptions o;
    o.vectors = 8;
    o.seed = seed;
    const rtl::SimResult r = rtl::cosimulate(g->first, g->second, rtl_work_dir("cosim_random_" + std::to_string(seed)), o);
    EXPECT_EQ(r.mismatches, 0) << "seed " << seed << " order " << order_text(order) << ": "
                               << (r.first ? rtl::describe(*r.first) : "") << "\n" << ir::print_module(g->first);
    EXPECT_TRUE(r.passed()) << "seed " << seed << ": measured " << r.measured_cycles << " (min "
                            << r.min_measured_cycles << "), estimated " << r.estimated_cycles;
    std::printf("seed %llu (%d lanes, %s): %lld cycles, build %.2f s\n", static_cast<unsigned long long>(seed),
                lanes_for(seed).estimate.lanes, order_text(order).c_str(), static_cast<long long>(r.measured_cycles),
                r.build_seconds);
  }
}

}  // namespace
}  // namespace hlsgym::testing
