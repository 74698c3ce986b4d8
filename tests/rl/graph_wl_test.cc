// The graph-wl observation (rl/graph_wl.h): named patterns counted on a graph worked out
// by hand, bucket totals equal to the edge and 2-hop path counts of any graph (dead
// instructions left out), the environment's normalization, and a policy whose network
// does not read the recorded observation's size is refused on load.
#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>

#include "frontend/hlo_parser.h"
#include "ir/error.h"
#include "ir/random_module.h"
#include "passes/default_order.h"
#include "rl/env.h"
#include "rl/action_names.h"
#include "rl/graph_wl.h"
#include "rl/policy_file.h"
#include "tests/rl/rl_test_util.h"

namespace hlsgym::rl {
namespace {

const char* const kLoop = testutil::kLoopHlo;

double pattern(const std::vector<double>& counts, const std::string& name) {
  const auto& names = graph_wl_pattern_names();
  const auto it = std::find(names.begin(), names.end(), name);
  EXPECT_NE(it, names.end()) << name;
  return counts[static_cast<size_t>(kWlEdgeBuckets + kWlPathBuckets + (it - names.begin()))];
}

TEST(GraphWl, NamedPatternsOfAGraphWorkedOutByHand) {
  ASSERT_EQ(static_cast<int>(graph_wl_pattern_names().size()), kWlPatterns);
  const ir::Module m = frontend::parse_hlo(kLoop);
  std::vector<double> v;
  graph_wl_counts(m, v);
  ASSERT_EQ(static_cast<int>(v.size()), kGraphWlSize);
  EXPECT_EQ(pattern(v, "reshape->elementwise"), 2);   // multiply(r, b), add(g, mr)
  EXPECT_EQ(pattern(v, "elementwise->reshape"), 1);   // mr = reshape(m)
  EXPECT_EQ(pattern(v, "transpose->dot"), 1);         // dot(xt, x)
  EXPECT_EQ(pattern(v, "broadcast->multiply"), 1);    // multiply(r, b)
  EXPECT_EQ(pattern(v, "broadcast->elementwise"), 0);
  EXPECT_EQ(pattern(v, "constant->elementwise"), 2);  // add(i, one), compare(ci, n)
  EXPECT_EQ(pattern(v, "all-constant-operands"), 1);  // broadcast(c)
  EXPECT_EQ(pattern(v, "fan-out"), 3);                // p, bp, x
  EXPECT_EQ(pattern(v, "in-loop"), 12);               // body 8 + cond 4
  EXPECT_EQ(pattern(v, "in-conditional"), 0);
  EXPECT_EQ(pattern(v, "nesting-depth"), 1);
}

// Totals any graph must have: one edge per operand position, one path per operand of an
// operand, over live instructions only.
void expect_totals(const ir::Module& m, const std::string& what) {
  double edges = 0, paths = 0;
  for (ir::CompId c : m.live_computations())
    for (ir::InstrId i : m.instructions(c))
      for (ir::InstrId o : m.operands(i)) {
        edges += 1;
        paths += static_cast<double>(m.operands(o).size());
      }
  std::vector<double> v;
  graph_wl_counts(m, v);
  EXPECT_EQ(std::accumulate(v.begin(), v.begin() + kWlEdgeBuckets, 0.0), edges) << what;
  EXPECT_EQ(std::accumulate(v.begin() + kWlEdgeBuckets, v.begin() + kWlEdgeBuckets + kWlPathBuckets, 0.0), paths)
      << what;
}

TEST(GraphWl, BucketTotalsAreTheEdgeAndPathCountsBeforeAndAfterPasses) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    ir::RandomModuleOptions o;
    o.seed = seed;
    ir::Module m = ir::random_module(o);
    expect_totals(m, "random " + std::to_string(seed));
    passes::make_default_order()->run(m);  // leaves dead slots behind
    expect_totals(m, "random " + std::to_string(seed) + " after the default order");
  }
  for (const char* d : {"fir8", "softmax", "conv2d"}) expect_totals(testutil::design(d), d);
}

TEST(GraphWl, TheEnvironmentDividesByTheInitialInstructionCount) {
  EnvOptions o;
  o.observation = "opcount+graph-wl";
  Env env(o);
  const ir::Module m = frontend::parse_hlo(kLoop);
  const std::vector<double> obs = env.reset(m, "loop");
  ASSERT_EQ(static_cast<int>(obs.size()), ir::kOpcodeCount + kGraphWlSize);
  EXPECT_EQ(env.observation_size(), observation_space_size(o.observation, Env::action_count()));
  std::vector<double> v;
  graph_wl_counts(m, v);
  const double n0 = static_cast<double>(m.instruction_count());
  for (int i = 0; i < kGraphWlSize; ++i)
    EXPECT_DOUBLE_EQ(obs[static_cast<size_t>(ir::kOpcodeCount + i)], v[static_cast<size_t>(i)] / (i == kWlDepthIndex ? kWlDepthScale : n0))
        << i;
}

TEST(GraphWl, APolicyWhoseNetworkDoesNotReadItsObservationIsRefused) {
  PolicyFile p;
  AgentOptions o;
  p.agent = make_agent(o, ir::kOpcodeCount, Env::action_count());
  p.actions = action_names();
  const std::string path = (std::filesystem::temp_directory_path() / "graph_wl_mismatch.policy").string();
  save_policy(p, path);
  EXPECT_NO_THROW(load_policy(path));
  // The same network under a header naming a bigger space (an opcount policy read as if
  // it had been trained on graph-wl too): refused, with both sizes.
  p.observation = "opcount+graph-wl";
  save_policy(p, path);
  try {
    load_policy(path);
    ADD_FAILURE() << "loaded";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(std::to_string(ir::kOpcodeCount) + " observation values"), std::string::npos) << msg;
    EXPECT_NE(msg.find(std::to_string(ir::kOpcodeCount + kGraphWlSize)), std::string::npos) << msg;
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace hlsgym::rl
