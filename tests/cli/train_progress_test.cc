// `train`'s progress (issue 18): into a file or pipe, plain lines every few seconds and
// never a carriage return; on a terminal (a pseudo-terminal from util-linux `script`),
// the bar redrawn in place.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
namespace fs = std::filesystem;

std::string train_args(const fs::path& dir) {
  return "train --graphs " + (source_dir() / "designs").string() +
         " --steps 4096 --episode-len 8 --hidden 16 -o " + (dir / "p.policy").string();
}

TEST(CliTrainProgress, PlainLinesWhenStderrIsNotATerminal) {
  const fs::path dir = hlsgym::testing::scratch("hlsgym_cli_train_progress_plain");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto t0 = std::chrono::steady_clock::now();
  const CliResult r = run_cli(train_args(dir));  // stderr is a file here
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << r.err;
  std::istringstream lines(r.err);
  int progress_lines = 0;
  std::string line, last;
  while (std::getline(lines, line))
    if (line.find("steps/s") != std::string::npos) ++progress_lines, last = line;
  // 16 rollouts of 256 steps report 16 times; a line is due every 5 s, plus the first and
  // the final count.
  EXPECT_GE(progress_lines, 1) << r.err;
  EXPECT_LE(progress_lines, 2 + static_cast<int>(seconds / 5)) << r.err;
  EXPECT_EQ(last.rfind("4096/4096 steps", 0), 0u) << r.err;
  fs::remove_all(dir);
}

TEST(CliTrainProgress, BarOnATerminal) {
  const fs::path dir = hlsgym::testing::scratch("hlsgym_cli_train_progress_tty");
  fs::remove_all(dir);
  fs::create_directories(dir);
  // `script` runs the command on a pseudo-terminal and copies what it printed to the log.
  const std::string log = (dir / "tty.log").string();
  const std::string cmd = "script -qec '" + std::string(HLSGYM_CLI) + " " + train_args(dir) + "' " + log + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd << " (util-linux `script` is needed for this test)";
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("\r["), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("4096/4096 steps"), std::string::npos) << text.str();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hlsgym::testing
