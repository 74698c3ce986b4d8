// tests/passes/xla_cases/PORTED.md tells the truth: each row's passing / listed as
// different / total is recounted from its hlsgym test file (TESTs not under a "Not an
// XLA case" comment are XLA's cases) and from deliberate_differences.txt (a listed case
// is one of those TESTs, or a rule-level line "rule ...").
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "passes/registry.h"
#include "tests/support/test_data.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {

std::vector<std::string> lines_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::stringstream in(row.substr(1));
  for (std::string cell; std::getline(in, cell, '|');) {
    const size_t b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
    out.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
  }
  return out;
}

// The names of the TESTs of a file that are XLA's cases.
std::set<std::string> xla_cases(const std::filesystem::path& file) {
  const std::vector<std::string> lines = lines_of(file);
  const std::regex test(R"(^TEST\(\w+, (\w+)\))");
  std::set<std::string> names;
  for (size_t k = 0; k < lines.size(); ++k) {
    std::smatch match;
    if (!std::regex_search(lines[k], match, test)) continue;
    bool extra = false;
    for (size_t j = k; j-- > 0 && lines[j].rfind("//", 0) == 0;) extra |= lines[j].find("Not an XLA case") != std::string::npos;
    if (!extra) names.insert(match[1]);
  }
  return names;
}

TEST(XlaPortedTable, EveryRowMatchesItsTestFileAndTheList) {
  const auto differences = testing::deliberate_differences();
  int rows = 0;
  for (const std::string& line : lines_of(testing::source_dir() / "tests/passes/xla_cases/PORTED.md")) {
    if (line.rfind("| ", 0) != 0) continue;
    const std::vector<std::string> c = cells(line);
    if (c.size() != 7 || c[0] == "pass") continue;
    ++rows;
    SCOPED_TRACE(c[0]);
    EXPECT_NO_THROW(Registry::global().create(c[0]));
    const std::set<std::string> cases = xla_cases(testing::source_dir() / c[3]);
    int listed = 0;
    for (const testing::DeliberateDifference& d : differences) {
      if (d.pass != c[0]) continue;
      if (cases.count(d.xla_test)) ++listed;
      else EXPECT_EQ(d.xla_test.rfind("rule ", 0), 0u) << "listed, but no XLA case of " << c[3] << ": " << d.xla_test;
    }
    const int total = static_cast<int>(cases.size());
    EXPECT_EQ(c[6], std::to_string(total)) << "total";
    EXPECT_EQ(c[5], std::to_string(listed)) << "listed as different";
    EXPECT_EQ(c[4], std::to_string(total - listed)) << "passing";
  }
  EXPECT_GE(rows, 6);
}

}  // namespace
}  // namespace hlsgym::passes
