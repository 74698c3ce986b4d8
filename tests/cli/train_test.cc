// `hlsgym train` end to end: a policy file, its learning curve, --resume continuing the
// run, and the policy driving `optimize --order POLICY` and `evaluate --policy POLICY`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
namespace fs = std::filesystem;

TEST(CliTrain, TrainsResumesAndDrivesOptimizeAndEvaluate) {
  const fs::path dir = hlsgym::testing::scratch("hlsgym_cli_train");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string policy = (dir / "p.policy").string();
  const std::string designs = (source_dir() / "designs").string();
  CliResult r = run_cli("train --graphs " + designs + " --reward cycles --steps 1024 --episode-len 8 --hidden 16 -o " + policy);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("steps/s"), std::string::npos);  // the progress line
  ASSERT_TRUE(fs::exists(policy));
  EXPECT_TRUE(fs::exists(policy + ".csv"));
  EXPECT_TRUE(fs::exists(policy + ".svg"));
  std::ifstream head(policy);
  std::string line;
  std::getline(head, line);
  EXPECT_EQ(line, "hlsgym-policy 1");

  CliResult resumed = run_cli("train --graphs " + designs + " --reward cycles --steps 2048 --episode-len 8 -o " + policy +
                              " --resume");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  EXPECT_NE(resumed.err.find("resuming"), std::string::npos);
  EXPECT_NE(resumed.out.find("(2048 steps)"), std::string::npos) << resumed.out;

  CliResult opt = run_cli("optimize " + designs + "/stencil_3pt.yaml --order " + policy + " --check --json");
  ASSERT_EQ(opt.exit_code, 0) << opt.err;
  EXPECT_EQ(nlohmann::json::parse(opt.out)["check"], "passed");
  CliResult ev = run_cli("evaluate --graphs " + designs + " --policy " + policy + " --reward cycles --no-baselines --json");
  ASSERT_EQ(ev.exit_code, 0) << ev.err;
  EXPECT_EQ(nlohmann::json::parse(ev.out)["graphs"].size(), all_designs().size());

  std::ofstream(dir / "bad.policy") << "hlsgym-policy 9\n";
  CliResult bad = run_cli("optimize " + designs + "/fir8.yaml --order " + (dir / "bad.policy").string());
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("not supported"), std::string::npos) << bad.err;
  CliResult algo = run_cli("train --graphs " + designs + " --algo sarsa -o " + (dir / "x").string());
  EXPECT_EQ(algo.exit_code, 1);
  EXPECT_NE(algo.err.find("ppo, a2c or dqn"), std::string::npos) << algo.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hlsgym::testing

namespace hlsgym::testing {
namespace {

TEST(CliTrain, ShippedLearnedPolicyOptimizesADesign) {
  CliResult r = run_cli("optimize " + (source_dir() / "designs" / "layernorm.yaml").string() + " --order learned --check --json");
  ASSERT_EQ(r.exit_code, 0) << r.err << "\n(if passes were added, retrain designs/policies/learned.policy: see its README)";
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["check"], "passed");
  EXPECT_EQ(j["order_spec"], "learned");
  ASSERT_FALSE(j["order"].empty());
  // The policy's order, replayed as a plain list, gives the same module size.
  std::string list;
  for (const auto& p : j["order"]) list += (list.empty() ? "" : ",") + p.get<std::string>();
  CliResult replay = run_cli("optimize " + (source_dir() / "designs" / "layernorm.yaml").string() + " --order " + list + " --json");
  ASSERT_EQ(replay.exit_code, 0) << replay.err;
  EXPECT_EQ(nlohmann::json::parse(replay.out)["after"]["instructions"], j["after"]["instructions"]);
}

// --workers only sets how many threads step the --envs environments: the same policy file
// byte for byte from one thread or two.
TEST(CliTrain, WorkersNeverChangeThePolicyEnvsDo) {
  const fs::path dir = hlsgym::testing::scratch("hlsgym_cli_train_workers");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string designs = (source_dir() / "designs").string();
  auto train = [&](const std::string& name, const std::string& flags) {
    const std::string policy = (dir / name).string();
    CliResult r = run_cli("train --graphs " + designs + " --steps 512 --episode-len 8 --hidden 16 " + flags + " -o " + policy);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::ifstream in(policy);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string one = train("one", "--workers 1 --envs 4"), two = train("two", "--workers 2 --envs 4");
  EXPECT_FALSE(one.empty());
  EXPECT_EQ(one, two);
  EXPECT_NE(one, train("other", "--workers 2"));  // 2 environments: another run
  CliResult dqn = run_cli("train --graphs " + designs + " --algo dqn --envs 2 -o " + (dir / "dqn").string());
  EXPECT_EQ(dqn.exit_code, 1);
  EXPECT_NE(dqn.err.find("ppo and a2c"), std::string::npos) << dqn.err;
  fs::remove_all(dir);
}

// A2C and DQN train and drive optimize; the offline pipeline: collect a dataset, train DQN
// on it without an environment, evaluate the result.
TEST(CliTrain, A2cDqnAndOfflineDqnFromACollectedDataset) {
  const fs::path dir = hlsgym::testing::scratch("hlsgym_cli_train_algos");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string designs = (source_dir() / "designs").string();
  for (const std::string algo : {"a2c", "dqn"}) {
    const std::string policy = (dir / (algo + ".policy")).string();
    CliResult r = run_cli("train --graphs " + designs + " --algo " + algo + " --steps 800 --episode-len 8 --hidden 16 -o " + policy +
                          (algo == "a2c" ? " --critic-features" : ""));
    ASSERT_EQ(r.exit_code, 0) << algo << r.err;
    std::ifstream in(policy);
    std::string header, line;
    std::getline(in, header), std::getline(in, line);
    EXPECT_EQ(line, "algo " + algo);
    CliResult resumed = run_cli("train --graphs " + designs + " --algo " + algo + " --steps 1200 --episode-len 8 -o " + policy + " --resume");
    ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
    EXPECT_NE(resumed.err.find("resuming"), std::string::npos);
    // DQN's checkpoint keeps its replay buffer beside the policy, so the run resumes exactly.
    EXPECT_EQ(fs::exists(policy + ".replay"), algo == "dqn");
    EXPECT_EQ(resumed.err.find("with the replay buffer") != std::string::npos, algo == "dqn") << resumed.err;
    CliResult opt = run_cli("optimize " + designs + "/bit_mix.yaml --order " + policy + " --check --json");
    ASSERT_EQ(opt.exit_code, 0) << opt.err;
    EXPECT_EQ(nlohmann::json::parse(opt.out)["check"], "passed");
  }
  const std::string data = (dir / "data.csv").string();
  CliResult c = run_cli("collect --graphs " + designs + " --episodes 2 --episode-len 6 -o " + data);
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const std::string transitions = std::to_string(all_designs().size() * 2 * 6) + " transitions";  // designs x 2 x 6
  EXPECT_NE(c.out.find(transitions), std::string::npos) << c.out;
  const std::string offline = (dir / "offline.policy").string();
  CliResult t = run_cli("train --dataset " + data + " --algo dqn --steps 300 --hidden 16 -o " + offline);
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("300 gradient steps"), std::string::npos) << t.out;
  EXPECT_FALSE(fs::exists(offline + ".replay"));  // offline runs replay their dataset
  CliResult ev = run_cli("evaluate --graphs " + designs + " --policy " + offline + " --no-baselines --json");
  ASSERT_EQ(ev.exit_code, 0) << ev.err;
  EXPECT_EQ(nlohmann::json::parse(ev.out)["graphs"].size(), all_designs().size());
  CliResult ppo = run_cli("train --dataset " + data + " --algo ppo -o " + offline);
  EXPECT_EQ(ppo.exit_code, 1);
  EXPECT_NE(ppo.err.find("--algo dqn"), std::string::npos) << ppo.err;
  CliResult both = run_cli("train --dataset " + data + " --graphs " + designs + " --algo dqn -o " + offline);
  EXPECT_EQ(both.exit_code, 1);
  CliResult beh = run_cli("collect --graphs " + designs + " --behavior learned --episodes 1 --episode-len 4 -o " + data);
  ASSERT_EQ(beh.exit_code, 0) << beh.err;
  EXPECT_NE(beh.out.find("behavior learned (epsilon 0.1)"), std::string::npos) << beh.out;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hlsgym::testing
