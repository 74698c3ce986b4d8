// Control flow and run-time indexing in the RTL: every design of designs/loops (HLO and
// YAML: while loops, nested loops, conditionals on a pred and on an index;
// hwmodel/control_flow.h) and of designs/indexing (gather) and random graphs with counted
// loops after random pass orders lint clean and cosimulate exactly (0 mismatching
// elements, measured cycles == the estimate), on 1 and 2 lanes.
#include <fmt/core.h>

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "frontend/load.h"
#include "ir/error.h"
#include "ir/printer.h"
#include "tests/rtl/rtl_test_util.h"

namespace hlsgym::testing {
namespace {

// The designs of designs/loops and designs/indexing, as paths below designs/.
std::vector<std::string> loop_modules() {
  std::vector<std::string> names;
  for (const char* folder : {"loops", "indexing"})
    for (const auto& e : std::filesystem::directory_iterator(source_dir() / "designs" / folder))
      if (e.path().extension() == ".hlo" || e.path().extension() == ".yaml")
        names.push_back(std::string(folder) + "/" + e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

void expect_exact(const ir::Module& m, const rtl::EmittedDesign& e, const std::string& dir, uint64_t seed,
                  const std::string& what) {
  const rtl::Files f = rtl::write_files(e, rtl_work_dir(dir + "_lint"));
  const rtl::LintResult lint = rtl::lint(f, e.module_name);
  EXPECT_TRUE(lint.clean) << what << "\n" << lint.output;
  rtl::SimOptions o;
  o.vectors = 8;
  o.seed = seed;
  const rtl::SimResult r = rtl::cosimulate(m, e, rtl_work_dir(dir), o);
  EXPECT_EQ(r.mismatches, 0) << what << ": " << (r.first ? rtl::describe(*r.first) : "") << "\n"
                             << (r.mismatches ? ir::print_module(m) : "");
  EXPECT_EQ(r.timeouts, 0) << what;
  EXPECT_EQ(r.measured_cycles, r.estimated_cycles) << what;
  EXPECT_EQ(r.min_measured_cycles, r.estimated_cycles) << what;
  fmt::print("{}: {} cycles estimated, {} measured; {} lines\n", what, r.estimated_cycles, r.measured_cycles,
             e.inventory.lines);
}

class LoopModule : public ::testing::TestWithParam<std::string> {};

TEST_P(LoopModule, CosimulatesExactlyOnOneAndTwoLanes) {
  const ir::Module m = frontend::load_design((source_dir() / "designs" / GetParam()).string()).module;
  std::string dir = GetParam();
  std::replace(dir.begin(), dir.end(), '/', '_');
  for (int lanes : {1, 2}) {
    rtl::EmitOptions o;
    o.estimate.lanes = lanes;
    const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga(), o);
    expect_exact(m, e, fmt::format("while_{}_{}", dir, lanes), 5, fmt::format("{} on {} lane(s)", GetParam(), lanes));
  }
}

INSTANTIATE_TEST_SUITE_P(Loops, LoopModule, ::testing::ValuesIn(loop_modules()),
                         [](const auto& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '.', '_');
                           std::replace(n.begin(), n.end(), '/', '_');
                           return n;
                         });

// Random integer graph `seed` with counted while loops after a random order of 6 passes
// (its names in `order`), when a loop is left after them.
std::optional<ir::Module> random_loop_graph(uint64_t seed, std::vector<std::string>& order) {
  ir::Module m = random_rtl_graph(seed, 6, order, true);
  for (ir::InstrId i : m.instructions(m.entry()))
    if (m.opcode(i) == ir::Opcode::kWhile) return m;
  return std::nullopt;
}

// Random integer graphs whose control flow is counted while loops, after random orders
// of 6 passes: the ones with a loop left after the passes cosimulate exactly.
// RTL_LOOP_COSIMS widens the sweep by hand.
TEST(WhileLoops, RandomGraphsWithLoopsAfterRandomPassOrders) {
  const char* env = std::getenv("RTL_LOOP_COSIMS");
  const int want = env ? std::atoi(env) : 3;
  int cosimulated = 0;
  for (uint64_t seed = 1; seed < 4000 && cosimulated < want; ++seed) {
    std::vector<std::string> order;
    const std::optional<ir::Module> looped = random_loop_graph(seed, order);
    if (!looped) continue;
    const ir::Module& m = *looped;
    rtl::EmitOptions o;
    o.estimate.lanes = 1 + static_cast<int>(seed % 3);
    rtl::EmittedDesign e;
    try {
      e = rtl::emit(m, rtl_fpga(), o);
    } catch (const Error& err) {  // every op the generator emits is in the emitter's set
      ADD_FAILURE() << "seed " << seed << " order " << order_text(order) << ": " << err.what() << "\n"
                    << ir::print_module(m);
      continue;
    }
    ++cosimulated;
    expect_exact(m, e, "while_random_" + std::to_string(seed), seed,
                 fmt::format("seed {} ({} lanes, {})", seed, o.estimate.lanes, order_text(order)));
  }
  EXPECT_EQ(cosimulated, want);
}

// Whether the emitted design pipelines one of its while loops (hwmodel/loop_pipelining.h).
bool pipelines_a_loop(const rtl::EmittedDesign& e) {
  for (const auto& [comp, d] : e.estimate.details->subs)
    if (d->pipeline && d->pipeline->built) return true;
  return false;
}

// The same random graphs, those whose loops are built pipelined (overlapping iterations,
// the state written in place): exact, and the loop designs above cover the hand-written
// cases. RTL_PIPELINED_COSIMS widens the sweep by hand, RTL_PIPELINED_FIRST_SEED moves it.
TEST(WhileLoops, RandomGraphsWithPipelinedLoops) {
  const char* env = std::getenv("RTL_PIPELINED_COSIMS");
  const char* first = std::getenv("RTL_PIPELINED_FIRST_SEED");
  const int want = env ? std::atoi(env) : 3;
  int cosimulated = 0, looped = 0;
  for (uint64_t seed = first ? std::stoull(first) : 1; seed < 100000 && cosimulated < want; ++seed) {
    std::vector<std::string> order;
    const std::optional<ir::Module> graph = random_loop_graph(seed, order);
    if (!graph) continue;
    const ir::Module& m = *graph;
    ++looped;
    rtl::EmitOptions o;
    o.estimate.lanes = 1 + static_cast<int>(seed % 3);
    const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga(), o);
    if (!pipelines_a_loop(e)) continue;
    ++cosimulated;
    expect_exact(m, e, "pipelined_random_" + std::to_string(seed), seed,
                 fmt::format("seed {} ({} lanes, {}), pipelined", seed, o.estimate.lanes, order_text(order)));
  }
  fmt::print("{} of {} random graphs with loops pipeline one\n", cosimulated, looped);
  EXPECT_EQ(cosimulated, want);
}

}  // namespace
}  // namespace hlsgym::testing
