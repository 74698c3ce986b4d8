// tests/passes/xla_cases/PORTED.md and tests/ir/xla_cases/PORTED.md (the HLO evaluator's
// cases, pass "evaluator") tell the truth: each row's passing / listed as different /
// total is recounted from its hlsgym test file (TESTs not under a "Not an XLA case"
// comment are XLA's cases) and from the lists of differences (a listed case is one of
// those TESTs, or a rule-level line "rule ...").
#include <gtest/gtest.h>

#include <fstream>
#include <map>
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
  std::vector<std::vector<std::string>> rows;
  for (const char* table : testing::kPortedTables)
    for (const std::string& line : lines_of(testing::source_dir() / table)) {
      if (line.rfind("| ", 0) != 0) continue;
      std::vector<std::string> c = cells(line);
      if (c.size() == 7 && c[0] != "pass") rows.push_back(std::move(c));
    }
  // A pass's cases over all its rows (the evaluator's are split by topic over several files).
  std::map<std::string, std::set<std::string>> all_cases;
  for (const auto& c : rows) all_cases[c[0]].merge(xla_cases(testing::source_dir() / c[3]));
  for (const auto& c : rows) {
    SCOPED_TRACE(c[0] + " " + c[3]);
    if (c[0] != "evaluator") EXPECT_NO_THROW(Registry::global().create(c[0]));
    const std::set<std::string> cases = xla_cases(testing::source_dir() / c[3]);
    int listed = 0;
    for (const testing::DeliberateDifference& d : differences) {
      if (d.pass != c[0]) continue;
      if (cases.count(d.xla_test)) ++listed;
      else if (!all_cases[c[0]].count(d.xla_test))
        EXPECT_EQ(d.xla_test.rfind("rule ", 0), 0u) << "listed, but no XLA case of " << c[0] << ": " << d.xla_test;
    }
    const int total = static_cast<int>(cases.size());
    EXPECT_EQ(c[6], std::to_string(total)) << "total";
    EXPECT_EQ(c[5], std::to_string(listed)) << "listed as different";
    EXPECT_EQ(c[4], std::to_string(total - listed)) << "passing";
  }
  EXPECT_GE(rows.size(), 7u);
}

}  // namespace
}  // namespace hlsgym::passes
