// `optimize --refine-budget` and `evaluate --refine-budget` (policy-guided search,
// rl/guided_search.h) from the command line: the JSON contract and the user errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {

std::string design(const std::string& name) { return (source_dir() / "designs" / (name + ".yaml")).string(); }
std::string draft() { return (source_dir() / "designs" / "drafts" / "matvec_draft.yaml").string(); }

TEST(CliRefine, OptimizeRefinesTheLearnedOrderWithinItsBudget) {
  const CliResult r = run_cli("optimize " + draft() + " --order learned --refine-budget 200 --check --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["check"], "passed");
  ASSERT_TRUE(j.contains("refined")) << r.out;
  EXPECT_LE(j["refined"]["pass_runs"].get<int64_t>(), 200);
  EXPECT_LE(j["after"]["instructions"].get<int>(), 7);  // the policy's own order reaches 7
  const CliResult text = run_cli("optimize " + draft() + " --order learned --refine-budget 200");
  EXPECT_NE(text.out.find("refined           from the policy's order"), std::string::npos) << text.out;
}

TEST(CliRefine, EvaluateNamesTheGuidedPolicy) {
  const CliResult r = run_cli("evaluate --graphs " + draft() + " " + design("layernorm") +
                              " --policy learned --refine-budget 100 --no-baselines --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["policy"], "learned + guided beam (top 2, 100 pass runs)");
  EXPECT_EQ(j["graphs"].size(), 2u);
}

TEST(CliRefine, RefiningSomethingOtherThanAPolicyIsAnError) {
  const CliResult o = run_cli("optimize " + design("fir8") + " --order default --refine-budget 50");
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.err.find("--refine-budget refines a policy's order"), std::string::npos) << o.err;
  const CliResult e = run_cli("evaluate --graphs " + design("fir8") + " --policy beam --refine-budget 50");
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_NE(e.err.find("--refine-budget refines a policy's order"), std::string::npos) << e.err;
}

}  // namespace
}  // namespace hlsgym::testing
