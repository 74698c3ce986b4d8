// The list of XLA pass-test cases hlsgym answers differently on purpose
// (tests/passes/xla_cases/deliberate_differences.txt) is well formed: every line names a
// registered pass, an XLA test and a reason, and no case is listed twice.
#include <gtest/gtest.h>

#include <set>

#include "passes/registry.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {

TEST(XlaDeliberateDifferences, EveryLineNamesARegisteredPassOnce) {
  std::set<std::pair<std::string, std::string>> seen;
  for (const testing::DeliberateDifference& d : testing::deliberate_differences()) {
    EXPECT_NO_THROW(Registry::global().create(d.pass)) << d.pass;
    EXPECT_TRUE(seen.emplace(d.pass, d.xla_test).second) << "listed twice: " << d.pass << " | " << d.xla_test;
  }
}

}  // namespace
}  // namespace hlsgym::passes
