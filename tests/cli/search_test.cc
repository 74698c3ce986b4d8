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
  // The optimization passes only: six steps of the unroll directives reach more states than
  // the exhaustive search closes (DirectivesTradeAreaForCycles covers them).
  CliResult r = run_cli("search " + design("stencil_3pt.yaml") +
                        " --algo exhaustive --reward cycles --max-len 6 --no-directives --json");
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

// With the unroll directives a cycles search on the dot product unrolls its MAC chain: fewer
// cycles than the optimization passes alone reach, never a design beyond the part.
TEST(CliSearch, DirectivesTradeAreaForCycles) {
  const std::string search = "search " + design("dot_product.yaml") + " --algo greedy --reward cycles --json";
  CliResult with = run_cli(search), without = run_cli(search + " --no-directives");
  ASSERT_EQ(with.exit_code, 0) << with.err;
  ASSERT_EQ(without.exit_code, 0) << without.err;
  const json w = json::parse(with.out), wo = json::parse(without.out);
  EXPECT_LT(w["cost"].get<double>(), wo["cost"].get<double>());
  for (const auto& pass : wo["order"]) EXPECT_EQ(pass.get<std::string>().rfind("unroll-", 0), std::string::npos);
  CliResult report = run_cli("optimize " + design("dot_product.yaml") + " --order " + joined(w["order"]) +
                             " --target fpga --json");
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const json after = json::parse(report.out)["hardware"]["after"];
  EXPECT_EQ(after["cycles"].get<double>(), w["cost"].get<double>()) << report.out;
  EXPECT_TRUE(after["fits"].get<bool>()) << report.out;
}

}  // namespace
}  // namespace hlsgym::testing
