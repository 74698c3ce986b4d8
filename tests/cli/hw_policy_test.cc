// The shipped hardware-cost policies (designs/policies/README.md): `--order learned` picks
// the one matching --reward and --target, they load and act on held-out designs, a
// combination without one is an error naming those that exist, and training one is
// deterministic byte for byte.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
namespace fs = std::filesystem;

std::string heldout(const std::string& name) { return (source_dir() / "designs" / "heldout" / (name + ".yaml")).string(); }

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

nlohmann::json optimize_json(const std::string& args) {
  const CliResult r = run_cli("optimize " + args + " --json");
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err << "\n(if passes were added, retrain the shipped policies: "
                            << "designs/policies/README.md)";
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json{};
}

TEST(HwPolicy, LearnedPicksThePolicyOfTheRewardAndTarget) {
  const std::string d = heldout("conv1d");
  EXPECT_TRUE(ends_with(optimize_json(d + " --order learned")["policy_file"], "/learned.policy"));
  EXPECT_TRUE(ends_with(optimize_json(d + " --order learned --target fpga")["policy_file"], "/learned.policy"));
  EXPECT_TRUE(ends_with(optimize_json(d + " --order learned --reward cycles --target fpga")["policy_file"],
                        "/fpga-cycles.policy"));
  EXPECT_TRUE(ends_with(optimize_json(d + " --order learned --reward cycles")["policy_file"], "/fpga-cycles.policy"));
  EXPECT_TRUE(ends_with(optimize_json(d + " --order learned --reward cycles --target cpu")["policy_file"],
                        "/cpu-cycles.policy"));
  const CliResult text = run_cli("optimize " + d + " --order learned --reward cycles --target fpga");
  EXPECT_NE(text.out.find("fpga-cycles.policy"), std::string::npos) << text.out;  // the table says which
}

TEST(HwPolicy, ACombinationWithoutAShippedPolicyNamesTheShippedOnes) {
  const CliResult r = run_cli("optimize " + heldout("conv1d") + " --order learned --reward energy --target fpga");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no shipped policy for --reward energy --target fpga"), std::string::npos) << r.err;
  for (const char* name : {"learned (--reward opcount)", "fpga-cycles (--reward cycles --target fpga)",
                           "cpu-cycles (--reward cycles --target cpu)"})
    EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
  const CliResult e = run_cli("evaluate --graphs " + heldout("conv1d") + " --policy learned --reward area --target cpu");
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_NE(e.err.find("no shipped policy for --reward area --target cpu"), std::string::npos) << e.err;
}

// Each shipped policy, on a held-out design, against XLA's default order on the same
// target: the FPGA policy unrolls (the default order has no directive, so it cannot), and
// both keep the outputs (--check).
TEST(HwPolicy, ShippedPoliciesBeatTheDefaultOrderOnAHeldOutDesign) {
  for (const char* target : {"fpga", "cpu"}) {
    const std::string d = heldout("conv1d") + " --target " + target;
    const auto def = optimize_json(d + " --order default");
    const auto pol = optimize_json(d + " --order learned --reward cycles --check");
    ASSERT_FALSE(pol.is_null());
    EXPECT_EQ(pol["check"], "passed") << target;
    EXPECT_LT(pol["hardware"]["after"]["cycles"].get<double>(), def["hardware"]["after"]["cycles"].get<double>())
        << target << ": " << pol["order"];
  }
  const auto fpga = optimize_json(heldout("conv1d") + " --target fpga --order learned --reward cycles");
  const auto& order = fpga["order"];
  EXPECT_NE(std::find(order.begin(), order.end(), "unroll-x2"), order.end()) << order;
}

// Every held-out kernel loads, is costed on both targets, and keeps its outputs under the
// shipped FPGA policy's order (unrolled as the policy chose).
TEST(HwPolicy, TheHeldOutKernelsAreCheckedUnderThePolicy) {
  int designs = 0;
  for (const auto& e : fs::directory_iterator(source_dir() / "designs" / "heldout")) {
    ++designs;
    const auto j = optimize_json(e.path().string() + " --order learned --reward cycles --target fpga --check");
    ASSERT_FALSE(j.is_null()) << e.path();
    EXPECT_EQ(j["check"], "passed") << e.path();
    EXPECT_TRUE(j["hardware"]["after"]["fits"].get<bool>()) << e.path();
  }
  EXPECT_EQ(designs, 5);
}

TEST(HwPolicy, EvaluatePicksTheShippedPolicyToo) {
  const CliResult r = run_cli("evaluate --graphs " + heldout("conv1d") + " " + heldout("box_blur3x3") +
                              " --policy learned --reward cycles --target fpga --no-baselines --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("trained on reward"), std::string::npos) << r.err;  // no mismatch note: the cycles one
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["graphs"].size(), 2u);
}

// A short run of the shipped policies' command: twice the same bytes; the file records its
// reward and target, which `optimize` acts on.
TEST(HwPolicy, TrainingOnTheSplitIsDeterministicByteForByte) {
  const fs::path dir = scratch("hlsgym_hw_policy_train");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string split = (source_dir() / "designs" / "splits" / "hw-train.txt").string();
  auto train = [&](const std::string& name) {
    const std::string policy = (dir / name).string();
    const CliResult r = run_cli("train --graphs " + split + " --reward cycles --target cpu --steps 1024 -o " + policy);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return slurp(policy);
  };
  const std::string a = train("a.policy"), b = train("b.policy");
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_NE(a.find("\nreward cycles\ntarget cpu\n"), std::string::npos) << a.substr(0, 200);
  const CliResult bad = run_cli("train --graphs " + split + " --reward cycles --normalize --reward-scale log-ratio -o " +
                                (dir / "c.policy").string());
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("--normalize is --reward-scale default-gain"), std::string::npos) << bad.err;
  fs::remove_all(dir);
}

TEST(HwPolicy, SplitsListOnlyExistingGraphsAndKeepHeldOutDesignsOut) {
  const fs::path dir = scratch("hlsgym_hw_policy_split");
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "bad.txt") << "# a comment\nno_such_design.yaml\n";
  const CliResult r = run_cli("evaluate --graphs " + (dir / "bad.txt").string() + " --policy default");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("lists no_such_design.yaml, which does not exist"), std::string::npos) << r.err;
  // No held-out design is in the training split, by name (comment lines aside).
  std::istringstream train(slurp(source_dir() / "designs" / "splits" / "hw-train.txt"));
  int entries = 0;
  for (std::string line; std::getline(train, line);) {
    if (line.empty() || line[0] == '#') continue;
    ++entries;
    for (const char* held : {"conv2d", "mlp_layer", "softmax", "stencil_3pt", "heldout"})
      EXPECT_EQ(line.find(held), std::string::npos) << line;
  }
  EXPECT_GT(entries, 0);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hlsgym::testing
