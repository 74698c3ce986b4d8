// The lists of XLA test cases hlsgym answers differently on purpose
// (tests/passes/xla_cases/deliberate_differences.txt, tests/ir/xla_cases/evaluator_differences.txt)
// are well formed: every line names a registered pass (or the evaluator), an XLA test and a
// reason, and no case is listed twice.
#include <gtest/gtest.h>

#include <set>

#include "passes/registry.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {

TEST(XlaDeliberateDifferences, EveryLineNamesARegisteredPassOnce) {
  std::set<std::pair<std::string, std::string>> seen;
  for (const testing::DeliberateDifference& d : testing::deliberate_differences()) {
    if (d.pass != "evaluator") EXPECT_NO_THROW(Registry::global().create(d.pass)) << d.pass;
    EXPECT_TRUE(seen.emplace(d.pass, d.xla_test).second) << "listed twice: " << d.pass << " | " << d.xla_test;
  }
}

}  // namespace
}  // namespace hlsgym::passes
