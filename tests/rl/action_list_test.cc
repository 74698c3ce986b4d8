// The action list grows only at its end (passes/registry.h): the shipped policy's actions
// are this build's, a policy written for a prefix (the first action list, before the
// directives) loads and never takes a later action, and a list that is not a prefix is
// refused with its first difference.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ir/error.h"
#include "passes/registry.h"
#include "rl/env.h"
#include "rl/policy_file.h"
#include "tests/rl/rl_test_util.h"
#include "tests/support/test_data.h"

namespace hlsgym::rl {
namespace {

using testutil::design;

std::string learned_path() { return (testing::source_dir() / "designs" / "policies" / "learned.policy").string(); }

// A policy of a build that had only the first action group (untrained weights: what it
// may take is the point, not how well it chooses), written and read back as a file.
PolicyFile prefix_policy() {
  const int first = passes::Registry::global().count_through(passes::kFirstActions);
  PolicyFile p;
  AgentOptions o;
  o.hidden = {16};
  p.agent = make_agent(o, static_cast<int>(Env(EnvOptions{}).reset(design("fir8"), "fir8").size()), first);
  for (int a = 0; a < first; ++a) p.actions.push_back(Env::action_name(a));
  const std::string path = testing::scratch("prefix.policy").string();
  save_policy(p, path);
  return load_policy(path);
}

// A copy of the shipped policy whose header lists `actions`; the error loading it ("" if none).
std::string load_error_with_actions(std::vector<std::string> actions) {
  PolicyFile p = load_policy(learned_path());
  p.actions = std::move(actions);
  const std::string path = testing::scratch("action_list.policy").string();
  save_policy(p, path);
  try {
    load_policy(path);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ActionList, TheShippedPolicysActionsAreThisBuildsAndTheDirectivesComeLast) {
  const PolicyFile p = load_policy(learned_path());
  const int first = passes::Registry::global().count_through(passes::kFirstActions);
  ASSERT_EQ(static_cast<int>(p.actions.size()), Env::action_count());
  for (int a = 0; a < Env::action_count(); ++a) EXPECT_EQ(Env::action_name(a), p.actions[static_cast<size_t>(a)]) << a;
  ASSERT_EQ(Env::action_count(), first + 4);
  EXPECT_EQ(Env::action_name(first), "unroll-halve");
  EXPECT_EQ(Env::action_name(first + 1), "unroll-x2");
  EXPECT_EQ(Env::action_name(first + 2), "loop-pipeline-off");
  EXPECT_EQ(Env::action_name(first + 3), "loop-pipeline-on");
}

TEST(ActionList, APolicyForAPrefixSeesOnlyItsActions) {
  PolicyFile p = prefix_policy();
  EnvOptions eo = policy_env_options(p, EnvOptions{});
  EXPECT_EQ(eo.actions, static_cast<int>(p.actions.size()));
  Env env(eo);
  env.reset(design("dot_product"), "dot_product");
  EXPECT_EQ(env.available_actions(), static_cast<int>(p.actions.size()));
  EXPECT_THROW(env.step(static_cast<int>(p.actions.size())), Error);
  EXPECT_THROW(env.step("unroll-x2"), Error);
  // Its orders on every design (unroll-x2 changes each of them) hold none of the new passes.
  for (const auto& path : testing::all_designs()) {
    const std::vector<std::string> order = policy_order(p, design(path.stem().string()), EnvOptions{});
    for (const auto& pass : order) {
      EXPECT_EQ(pass.rfind("unroll-", 0), std::string::npos) << path << ": " << pass;
      EXPECT_EQ(pass.rfind("loop-pipeline-", 0), std::string::npos) << path << ": " << pass;
    }
  }
}

TEST(ActionList, AListThatIsNotAPrefixIsRefused) {
  std::vector<std::string> names;
  for (int a = 0; a < Env::action_count(); ++a) names.push_back(Env::action_name(a));
  EXPECT_EQ(load_error_with_actions(names), "");  // this build's own list
  std::vector<std::string> swapped(names.begin(), names.begin() + 5);
  std::swap(swapped[0], swapped[1]);
  EXPECT_NE(load_error_with_actions(swapped).find("action 0 was '" + names[1] + "' when written but is '" + names[0] +
                                                  "' in this build"),
            std::string::npos);
  std::vector<std::string> skipped = names;
  const size_t halve = names.size() - 4;
  skipped.erase(skipped.begin() + static_cast<std::ptrdiff_t>(halve));  // unroll-x2 where this build has unroll-halve
  EXPECT_NE(load_error_with_actions(skipped).find("action " + std::to_string(halve) +
                                                  " was 'unroll-x2' when written but is 'unroll-halve'"),
            std::string::npos)
      << load_error_with_actions(skipped);
  std::vector<std::string> longer = names;
  longer.push_back("pipeline-ii");
  EXPECT_NE(load_error_with_actions(longer).find("written for " + std::to_string(names.size() + 1) +
                                                " passes, this build has " + std::to_string(names.size())),
            std::string::npos);
}

}  // namespace
}  // namespace hlsgym::rl
