#include "tests/support/xla_cases.h"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {

std::string trimmed(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

std::vector<DeliberateDifference> deliberate_differences() {
  std::vector<DeliberateDifference> list;
  for (const char* file : kDifferenceLists) {
    const auto path = source_dir() / file;
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << "cannot read " << path;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      if (trimmed(line).empty() || trimmed(line)[0] == '#') continue;
      const size_t a = line.find('|');
      const size_t b = a == std::string::npos ? a : line.find('|', a + 1);
      DeliberateDifference d;
      if (b != std::string::npos) d = {trimmed(line.substr(0, a)), trimmed(line.substr(a + 1, b - a - 1)),
                                       trimmed(line.substr(b + 1))};
      EXPECT_FALSE(d.pass.empty() || d.xla_test.empty() || d.reason.empty())
          << path.string() << ":" << number << ": want 'pass | XLA test name | reason': " << line;
      list.push_back(d);
    }
  }
  return list;
}

std::string deliberate_difference(const std::string& pass, const std::string& xla_test) {
  for (const DeliberateDifference& d : deliberate_differences())
    if (d.pass == pass && d.xla_test == xla_test) return d.reason;
  ADD_FAILURE() << pass << " / " << xla_test
                << " differs from XLA but is not in " << kDifferenceLists[0] << " or " << kDifferenceLists[1];
  return "";
}

}  // namespace hlsgym::testing
