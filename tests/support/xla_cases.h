// The list of XLA pass-test cases hlsgym deliberately answers differently
// (tests/passes/xla_cases/deliberate_differences.txt). A ported case that differs from
// XLA asks for its line here, so every difference is written down with its reason.
#pragma once
#include <string>
#include <vector>

namespace hlsgym::testing {

struct DeliberateDifference {
  std::string pass;       // hlsgym's (= XLA's) pass name
  std::string xla_test;   // the XLA test's name, e.g. "StabilizeSortR1"
  std::string reason;
};

// Every line of the list; fails the test on a malformed line (not three non-empty
// fields separated by '|').
std::vector<DeliberateDifference> deliberate_differences();

// The reason listed for (pass, xla_test); fails the test and returns "" if the case is
// not listed.
std::string deliberate_difference(const std::string& pass, const std::string& xla_test);

}  // namespace hlsgym::testing
