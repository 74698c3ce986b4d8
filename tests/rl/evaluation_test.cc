// evaluate_policy: the table's arithmetic (ratios only where the default order gains,
// geomean, share at least as good as the default) and the CLI's JSON contract.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "rl/evaluation.h"
#include "tests/rl/rl_test_util.h"
#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::rl {
namespace {
using testutil::design;

TEST(Evaluation, RatiosGeomeanAndShareFollowTheirDefinitions) {
  std::vector<std::pair<std::string, ir::Module>> graphs;
  for (const char* n : {"stencil_3pt", "layernorm", "gelu", "fir8", "softmax"}) graphs.emplace_back(n, design(n));
  EnvOptions eo;
  eo.reward = "cycles";
  eo.target = testutil::fpga();
  const EvalReport r = evaluate_policy(graphs, eo, search_policy("greedy", eo, 8, 1000));
  ASSERT_EQ(r.graphs.size(), graphs.size());
  double log_sum = 0;
  int defined = 0, at_least = 0;
  for (const GraphEval& g : r.graphs) {
    EXPECT_EQ(g.ratio.has_value(), g.initial - g.default_cost > 0) << g.graph;
    if (g.ratio) {
      EXPECT_DOUBLE_EQ(*g.ratio, (g.initial - g.policy_cost) / (g.initial - g.default_cost));
      log_sum += std::log(std::max(*g.ratio, 1e-3)), ++defined;
    }
    at_least += g.policy_cost <= g.default_cost;
    EXPECT_LE(g.policy_cost, g.initial);
    ASSERT_TRUE(g.random_cost && g.greedy_cost);
  }
  EXPECT_EQ(r.undefined_ratio, static_cast<int>(graphs.size()) - defined);
  ASSERT_GT(defined, 0);
  EXPECT_NEAR(r.geomean_ratio, std::exp(log_sum / defined), 1e-12);
  EXPECT_DOUBLE_EQ(r.at_least_default, static_cast<double>(at_least) / graphs.size());
  EXPECT_EQ(r.at_least_default, 1.0);  // greedy on cycles beats XLA's order on these designs
}

TEST(Evaluation, CliJsonContract) {
  const auto r = testing::run_cli("evaluate --graphs " + (testing::source_dir() / "designs").string() +
                                  " --policy beam --budget-steps 500 --max-len 6 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* k : {"geomean", "at_least_default", "graphs"}) EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_EQ(j["graphs"].size(), testing::all_designs().size());  // one row per design file
  const auto bad = testing::run_cli("evaluate --graphs /nonexistent --policy greedy");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("/nonexistent"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace hlsgym::rl
