// `train` without tuning flags trains the recipe (issue 18): for op count the policy reads
// the opcode counts and the graph structure (opcount+graph-wl), for a hardware reward the
// opcode counts alone (what the shipped hardware policies were measured with); an explicit
// --observation wins over either. `collect --behavior POLICY` records what the policy
// observes unless told otherwise, and refuses an observation the policy cannot read.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
namespace fs = std::filesystem;

// The observation line of the policy `train ARGS` writes.
std::string trained_observation(const std::string& args, const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("hlsgym_train_defaults_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string policy = (dir / "p.policy").string();
  const CliResult r = run_cli("train --graphs " + (source_dir() / "designs" / "fir8.yaml").string() +
                              " --steps 64 --episode-len 4 --hidden 4 -o " + policy + " " + args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(policy);
  std::string line, observation;
  while (std::getline(in, line))
    if (line.rfind("observation ", 0) == 0) {
      observation = line.substr(12);
      break;
    }
  fs::remove_all(dir);
  return observation;
}

TEST(TrainDefaults, TheObservationIsTheRewardsRecipe) {
  EXPECT_EQ(trained_observation("", "opcount"), "opcount+graph-wl");
  EXPECT_EQ(trained_observation("--reward cycles --target fpga", "cycles"), "opcount");
  EXPECT_EQ(trained_observation("--observation opcount", "explicit"), "opcount");
}

TEST(TrainDefaults, CollectRecordsTheBehaviorPolicysObservation) {
  const fs::path dir = fs::temp_directory_path() / ("hlsgym_collect_defaults_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string data = (dir / "d.csv").string();
  const std::string base = "collect --graphs " + (source_dir() / "designs" / "fir8.yaml").string() +
                           " --behavior learned --episodes 1 --episode-len 2 -o " + data;
  const CliResult r = run_cli(base);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(data);
  std::string header;
  std::getline(in, header);
  EXPECT_NE(header.find("opcount+graph-wl"), std::string::npos) << header;
  const CliResult wrong = run_cli(base + " --observation opcount");
  EXPECT_EQ(wrong.exit_code, 1);
  EXPECT_NE(wrong.err.find("pass --observation opcount+graph-wl"), std::string::npos) << wrong.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hlsgym::testing
