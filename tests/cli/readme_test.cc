// The README's promise, command (a): after install and build, its main job runs. The
// test takes the command line from README.md itself (so the two cannot drift apart), drops
// the install and build steps, and runs the rest in a scratch folder whose build/cli/hlsgym
// and designs/ point at this build and this source tree.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> split_and(const std::string& line) {
  std::vector<std::string> parts;
  size_t from = 0;
  for (size_t at; (at = line.find(" && ", from)) != std::string::npos; from = at + 4) parts.push_back(line.substr(from, at - from));
  parts.push_back(line.substr(from));
  return parts;
}

// The "after" column of every table line of `optimize` that starts with `name`, in order.
std::vector<int64_t> after_values(const std::string& text, const std::string& name) {
  std::vector<int64_t> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream cells(line);
    std::string first;
    int64_t before = 0, after = 0;
    if (cells >> first && first == name && cells >> before >> after) out.push_back(after);
  }
  return out;
}

TEST(Readme, MainJobRuns) {
  std::ifstream in(source_dir() / "README.md");
  ASSERT_TRUE(in) << "README.md not found";
  std::string line, main_job;
  bool next = false;
  while (std::getline(in, line)) {
    if (next) {
      main_job = line;
      break;
    }
    next = line.rfind("# (a)", 0) == 0;
  }
  const auto steps = split_and(main_job);
  ASSERT_GE(steps.size(), 4u) << main_job;
  ASSERT_EQ(steps[0], "scripts/install-deps.sh");
  ASSERT_EQ(steps[1].rfind("cmake -S . -B build", 0), 0u) << steps[1];
  ASSERT_EQ(steps[2].rfind("cmake --build build", 0), 0u) << steps[2];
  std::string job;
  for (size_t i = 3; i < steps.size(); ++i) {
    EXPECT_EQ(steps[i].rfind("build/cli/hlsgym ", 0), 0u) << "the main job runs hlsgym only: " << steps[i];
    job += (job.empty() ? "" : " && ") + steps[i];
  }

  const fs::path dir = hlsgym::testing::scratch("hlsgym_readme_main_job");
  fs::remove_all(dir);
  fs::create_directories(dir / "build" / "cli");
  fs::create_symlink(HLSGYM_CLI, dir / "build" / "cli" / "hlsgym");
  fs::create_directory_symlink(source_dir() / "designs", dir / "designs");
  const std::string log = (dir / "log.txt").string();
  const int rc = std::system(("cd '" + dir.string() + "' && ( " + job + " ) > '" + log + "' 2>&1").c_str());
  std::ifstream out(log);
  std::stringstream text;
  text << out.rdbuf();
  EXPECT_EQ(rc, 0) << job << "\n" << text.str();
  EXPECT_NE(text.str().find("check             passed"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("0 mismatching output elements"), std::string::npos) << text.str();
  // The point of the main job, as the README states it: the learned order does something
  // (issue 18: it used to pick 0 passes), reaches XLA's default order's instruction count
  // (a tie since dot_decomposer follows XLA's canonical-dot rule and leaves the draft's
  // matrix-vector dot alone), and beats it on the FPGA's cycles.
  EXPECT_EQ(text.str().find("learned (0 passes)"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("geomean (I-R)/(I-D) 1.0000"), std::string::npos) << text.str();
  const std::vector<int64_t> cycles_after = after_values(text.str(), "cycles");
  ASSERT_GE(cycles_after.size(), 2u) << text.str();
  EXPECT_LT(cycles_after[0], cycles_after[1]) << "learned (first optimize) against default (second)\n" << text.str();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hlsgym::testing
