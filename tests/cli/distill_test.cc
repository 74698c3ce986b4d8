// `hlsgym distill` end to end: the shipped policy distilled with one cluster per design
// gives `optimize --order MAPPING.yaml` exactly the policy's order on every design, and
// `evaluate --policy MAPPING.yaml` scores the table like a policy.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
namespace fs = std::filesystem;

TEST(CliDistill, MappingReproducesThePolicyOrders) {
  const fs::path dir = hlsgym::testing::scratch("hlsgym_cli_distill");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string mapping = (dir / "m.yaml").string();
  const auto designs = all_designs();
  const std::string folder = (source_dir() / "designs").string();
  CliResult d = run_cli("distill --policy learned --graphs " + folder + " --clusters " +
                        std::to_string(designs.size()) + " -o " + mapping + " --json");
  ASSERT_EQ(d.exit_code, 0) << d.err;
  const auto dj = nlohmann::json::parse(d.out);
  EXPECT_EQ(dj["same_order"], designs.size());
  EXPECT_EQ(dj["clusters"].size(), designs.size());

  for (const auto& design : designs) {
    CliResult policy = run_cli("optimize " + design.string() + " --order learned --json");
    CliResult table = run_cli("optimize " + design.string() + " --order " + mapping + " --check --json");
    ASSERT_EQ(policy.exit_code, 0) << policy.err;
    ASSERT_EQ(table.exit_code, 0) << table.err;
    const auto pj = nlohmann::json::parse(policy.out), tj = nlohmann::json::parse(table.out);
    EXPECT_EQ(tj["order"], pj["order"]) << design;
    EXPECT_EQ(tj["after"], pj["after"]) << design;
    EXPECT_EQ(tj["check"], "passed") << design;
    EXPECT_NEAR(tj["mapping"]["distance"].get<double>(), 0.0, 1e-9) << design;
  }

  CliResult ev = run_cli("evaluate --graphs " + folder + " --policy " + mapping + " --no-baselines --json");
  ASSERT_EQ(ev.exit_code, 0) << ev.err;
  EXPECT_EQ(nlohmann::json::parse(ev.out)["graphs"].size(), designs.size());

  CliResult bad = run_cli("distill --policy " + folder + "/fir8.yaml --graphs " + folder + " -o " + mapping);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("not a policy file"), std::string::npos) << bad.err;
  CliResult zero = run_cli("distill --policy learned --graphs " + folder + " --clusters 0 -o " + mapping);
  EXPECT_EQ(zero.exit_code, 1);
  EXPECT_NE(zero.err.find("--clusters"), std::string::npos) << zero.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hlsgym::testing
