// `hlsgym search`: the JSON contract, and the found order replays through `optimize`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
using nlohmann::json;

std::string design(const std::string& name) { return (source_dir() / "designs" / name).string(); }

std::string joined(const json& order) {
  std::string s;
  for (const auto& p : order) s += (s.empty() ? "" : ",") + p.get<std::string>();
  return s;
}

TEST(CliSearch, EveryAlgorithmPrintsTheContractAndReplays) {
  for (const char* algo : {"random", "greedy", "beam", "ga", "exhaustive"}) {
    CliResult r = run_cli(std::string("search ") + design("layernorm.yaml") + " --algo " + algo +
                          " --max-len 6 --budget-steps 2000 --json");
    ASSERT_EQ(r.exit_code, 0) << algo << ": " << r.err;
    const json j = json::parse(r.out);
    for (const char* k : {"order", "instructions", "cost", "default_cost", "evaluations", "seconds"})
      EXPECT_TRUE(j.contains(k)) << algo << " " << k;
    EXPECT_LE(j["cost"].get<double>(), j["initial_cost"].get<double>()) << algo;
    EXPECT_EQ(j["cost"].get<double>(), j["instructions"].get<double>()) << algo;  // opcount reward
    if (j["order"].empty()) continue;
    CliResult o = run_cli("optimize " + design("layernorm.yaml") + " --order " + joined(j["order"]) + " --json");
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_EQ(json::parse(o.out)["after"]["instructions"].get<double>(), j["instructions"].get<double>()) << algo;
  }
}

TEST(CliSearch, HardwareRewardNeedsAKnownTargetAndAlgorithm) {
  CliResult r = run_cli("search " + design("stencil_3pt.yaml") + " --algo exhaustive --reward cycles --max-len 6 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_TRUE(j["optimal"].get<bool>());
  EXPECT_EQ(j["target"], "fpga");
  EXPECT_LT(j["cost"].get<double>(), j["default_cost"].get<double>());  // HLS passes beat XLA's order on cycles
  CliResult bad = run_cli("search " + design("fir8.yaml") + " --reward cycles --target nosuchtarget");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("nosuchtarget"), std::string::npos) << bad.err;
  CliResult algo = run_cli("search " + design("fir8.yaml") + " --algo anneal");
  EXPECT_NE(algo.exit_code, 0);
  EXPECT_NE(algo.err.find("anneal"), std::string::npos) << algo.err;
}

}  // namespace
}  // namespace hlsgym::testing
