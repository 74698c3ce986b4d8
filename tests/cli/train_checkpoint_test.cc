// Training checkpoints: bounded by steps as well as seconds, so a run killed early keeps
// its progress; --resume without a checkpoint is an error (it silently started from step
// 0), and --resume-or-start says that it starts a new run.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("hlsgym_ckpt_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string designs() { return (source_dir() / "designs").string(); }

TEST(TrainCheckpoint, ResumeWithoutACheckpointIsAnError) {
  const fs::path dir = fresh_dir("none");
  const std::string policy = (dir / "p.policy").string();
  const CliResult r = run_cli("train --graphs " + designs() + " --steps 256 --episode-len 8 --hidden 8 -o " + policy + " --resume");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("error: " + policy + ": no checkpoint to resume"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(policy));

  const CliResult s = run_cli("train --graphs " + designs() + " --steps 256 --episode-len 8 --hidden 8 -o " + policy +
                              " --resume-or-start");
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.err.find("no checkpoint at " + policy + ": starting a new run at step 0"), std::string::npos) << s.err;
  EXPECT_TRUE(fs::exists(policy));
  const CliResult again = run_cli("train --graphs " + designs() + " --steps 512 --episode-len 8 -o " + policy +
                                  " --resume-or-start");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_NE(again.err.find("resuming " + policy + " at step 256"), std::string::npos) << again.err;
  fs::remove_all(dir);
}

// A run killed (SIGKILL) long before the 120 s interval still leaves a checkpoint that
// --resume continues: with the default settings the interval is bounded by 10,000 steps
// too (about a second on the designs).
TEST(TrainCheckpoint, KillBeforeTheTimeIntervalKeepsTheStepsCheckpoint) {
  const fs::path dir = fresh_dir("kill");
  const std::string policy = (dir / "p.policy").string();
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const std::string cli = HLSGYM_CLI, graphs = designs();
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1), ::dup2(null, 2);
    ::execl(cli.c_str(), cli.c_str(), "train", "--graphs", graphs.c_str(), "--steps", "100000000", "--episode-len", "8",
            "--hidden", "8", "-o", policy.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
  while (!fs::exists(policy) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(fs::exists(policy)) << "no checkpoint within 90 s";
  const CliResult r = run_cli("train --graphs " + designs() + " --steps 10240 --episode-len 8 -o " + policy + " --resume");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, std::regex("resuming .* at step ([0-9]+)"))) << r.err;
  EXPECT_GE(std::stoll(m[1]), 10000);
  fs::remove_all(dir);
}

TEST(TrainCheckpoint, IntervalsMustBePositive) {
  const fs::path dir = fresh_dir("bad");
  for (const char* flag : {"--checkpoint-steps 0", "--checkpoint-s -1"}) {
    const CliResult r = run_cli("train --graphs " + designs() + " --steps 64 " + flag + " -o " + (dir / "p").string());
    EXPECT_EQ(r.exit_code, 1) << flag << ": " << r.err;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hlsgym::testing
