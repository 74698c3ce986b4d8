// The lists of XLA test cases hlsgym deliberately answers differently: the passes'
// (tests/passes/xla_cases/deliberate_differences.txt) and the HLO evaluator's
// (tests/ir/xla_cases/evaluator_differences.txt, "pass" = evaluator). A ported case that
// differs from XLA asks for its line here, so every difference is written down with its
// reason.
#pragma once
#include <string>
#include <vector>

namespace hlsgym::testing {

inline constexpr const char* kDifferenceLists[] = {"tests/passes/xla_cases/deliberate_differences.txt",
                                                    "tests/ir/xla_cases/evaluator_differences.txt"};

// The tables of ported cases, each row recounted by tests/passes/xla_ported_table_test.cc.
inline constexpr const char* kPortedTables[] = {"tests/passes/xla_cases/PORTED.md", "tests/ir/xla_cases/PORTED.md"};

struct DeliberateDifference {
  std::string pass;       // hlsgym's (= XLA's) pass name, or "evaluator"
  std::string xla_test;   // the XLA test's name, e.g. "StabilizeSortR1"
  std::string reason;
};

// Every line of both lists; fails the test on a malformed line (not three non-empty
// fields separated by '|').
std::vector<DeliberateDifference> deliberate_differences();

// The reason listed for (pass, xla_test); fails the test and returns "" if the case is
// not listed.
std::string deliberate_difference(const std::string& pass, const std::string& xla_test);

}  // namespace hlsgym::testing
