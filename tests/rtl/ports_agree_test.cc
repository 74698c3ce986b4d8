// One structure, two views: the memory read ports the Verilog builds on each track of the
// entry are the ones the binding prices (hwmodel/binding.cc, size_tracks: a port per lane
// and address a reader reads, a gather's start-index reads included; block RAM readers in
// disjoint windows share a port). Every integer design, the loop and indexing designs and
// random graphs (a quarter with counted loops), on 1 to 3 lanes. Emission only: no
// Verilator. RTL_PORT_SEEDS widens the random sweep.
#include <fmt/core.h>

#include <functional>
#include <cstdlib>
#include <set>

#include "frontend/load.h"
#include "ir/printer.h"
#include "passes/registry.h"
#include "tests/rtl/rtl_test_util.h"

namespace hlsgym::testing {
namespace {

// The entry's tracks read by a while loop whose state names one value in two leaves (a
// copy each), or on more than one lane by a conditional (a branch's reader takes a port
// per lane): ports of the caller's tracks the binding does not count yet (known gaps, left
// out of the comparison; a while loop's copy-in of distinct values and, on one lane, a
// conditional's branch reads, a port per reader, are counted).
std::set<uint32_t> uncounted_tracks(const ir::Module& m, const hwmodel::EstimateDetails& d, int lanes) {
  std::set<uint32_t> out;
  std::function<void(uint32_t)> reach = [&](uint32_t t) {
    if (const uint32_t track = d.binding.track_of_task[t]; track != hwmodel::kNoInstance) out.insert(track);
    if (d.graph.tasks[t].alias)
      for (uint32_t e : d.graph.deps_of(t)) reach(e);
  };
  for (uint32_t t = 0; t < d.graph.size(); ++t) {
    const ir::InstrId i = d.graph.tasks[t].instr;
    const ir::Opcode op = m.opcode(i);
    bool repeated = false;
    if (op == ir::Opcode::kWhile && m.opcode(m.operand(i, 0)) == ir::Opcode::kTuple) {
      const auto leaves = m.operands(m.operand(i, 0));
      const std::set<ir::InstrId> distinct(leaves.begin(), leaves.end());
      repeated = distinct.size() < leaves.size();
    }
    if (repeated || (op == ir::Opcode::kConditional && lanes > 1))
      for (uint32_t dep : d.graph.deps_of(t)) reach(dep);
  }
  return out;
}

// Compares the entry's tracks (the plan numbers them first, as the binding does).
void expect_ports_agree(const ir::Module& m, int lanes, const std::string& what) {
  rtl::EmitOptions o;
  o.estimate.lanes = lanes;
  o.estimate.lenient = true;  // ports are compared whether or not the part holds the design
  const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga(), o);
  ASSERT_TRUE(e.estimate.details) << what;
  const auto& tracks = e.estimate.details->binding.tracks;
  ASSERT_LE(tracks.size(), e.inventory.track_read_ports.size()) << what;
  const std::set<uint32_t> skip = uncounted_tracks(m, *e.estimate.details, lanes);
  for (size_t k = 0; k < tracks.size(); ++k) {
    const int built = e.inventory.track_read_ports[k];
    if (built == 0) continue;  // only constants there: ROMs, priced apart (rom_area)
    if (skip.count(static_cast<uint32_t>(k))) continue;
    EXPECT_EQ(built, tracks[k].read_ports) << what << ": track " << k << " (" << (tracks[k].registers ? "registers" : "BRAM")
                                           << ", " << tracks[k].words << " words)";
  }
}

TEST(PortsAgree, EveryDesignOnOneToThreeLanes) {
  for (const std::string& f : integer_and_control_design_files()) {
    const ir::Module m = frontend::load_design(f).module;
    for (int lanes : {1, 2, 3}) expect_ports_agree(m, lanes, fmt::format("{} on {} lane(s)", f, lanes));
  }
}

// After `fusion` a fused loop reads an operand once per distinct address: through each
// slice, transpose or broadcast of it (fir16_sym: x through 16 slices is 16 ports).
TEST(PortsAgree, EveryDesignFused) {
  for (const std::string& f : integer_and_control_design_files()) {
    ir::Module m = frontend::load_design(f).module;
    if (!passes::Registry::global().create("fusion")->run(m)) continue;
    for (int lanes : {1, 2}) expect_ports_agree(m, lanes, fmt::format("{} fused on {} lane(s)", f, lanes));
  }
}

TEST(PortsAgree, RandomGraphsAfterRandomOrders) {
  const char* env = std::getenv("RTL_PORT_SEEDS");
  const uint64_t seeds = env ? std::stoull(env) : 200;
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    std::vector<std::string> order;
    const ir::Module m = random_rtl_graph(seed, 6, order, seed % 4 == 0);
    expect_ports_agree(m, 1 + static_cast<int>(seed % 3),
                       fmt::format("seed {} ({})\n{}", seed, order_text(order), ir::print_module(m)));
  }
}

}  // namespace
}  // namespace hlsgym::testing
