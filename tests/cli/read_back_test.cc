// Issue 17: files hlsgym reads back are refused when cut short, and a resumed training run
// continues its learning-curve CSV cleanly (no glued rows, no rows logged twice).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
namespace fs = std::filesystem;

TEST(ReadBack, TruncatedOrEditedPoliciesAreRefused) {
  const fs::path dir = fs::temp_directory_path() / ("hlsgym_read_back_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string policy = (dir / "p.policy").string();
  const std::string designs = (source_dir() / "designs").string();
  const std::string fir = designs + "/fir8.yaml";
  const CliResult r = run_cli("train --graphs " + designs + " --steps 256 --episode-len 4 --hidden 8 -o " + policy);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(run_cli("optimize " + fir + " --order " + policy).exit_code, 0);
  const std::string whole = slurp(policy);
  const size_t end_line = whole.rfind("# end-of-file");
  ASSERT_NE(end_line, std::string::npos);
  // Cut inside the last number (before: accepted as complete), and cut at a line end.
  for (size_t keep : {end_line - 3, end_line, whole.size() - 4}) {
    std::ofstream(dir / "cut.policy", std::ios::binary) << whole.substr(0, keep);
    const CliResult cut = run_cli("optimize " + fir + " --order " + (dir / "cut.policy").string());
    EXPECT_EQ(cut.exit_code, 1);
    EXPECT_NE(cut.err.find("truncated"), std::string::npos) << cut.err;
  }
  std::string edited = whole;
  edited[end_line - 3] = edited[end_line - 3] == '1' ? '2' : '1';
  std::ofstream(dir / "edited.policy", std::ios::binary) << edited;
  const CliResult e = run_cli("optimize " + fir + " --order " + (dir / "edited.policy").string());
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_NE(e.err.find("checksum does not match"), std::string::npos) << e.err;

  // The learning curve: a row cut by a kill, and a row logged after the checkpoint.
  const std::string csv = policy + ".csv";
  ASSERT_EQ(slurp(csv).rfind("steps,mean_return,episodes,seconds\n", 0), 0u);
  std::ofstream(csv, std::ios::app) << "999999,0.5,3,1.0\n1000000,0.2";
  const CliResult resumed = run_cli("train --graphs " + designs + " --steps 512 --episode-len 4 -o " + policy + " --resume");
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  std::istringstream lines(slurp(csv));
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "steps,mean_return,episodes,seconds");
  long long last = -1;
  int rows = 0;
  const std::regex row("([0-9]+),[^,]+,[0-9]+,[^,]+");
  while (std::getline(lines, line)) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(line, m, row)) << "glued or cut row: " << line;
    const long long steps = std::stoll(m[1]);
    EXPECT_GT(steps, last) << line;
    EXPECT_LE(steps, 512) << line;
    last = steps, ++rows;
  }
  EXPECT_GT(rows, 1);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hlsgym::testing
