// Training on real graphs (rl::GraphTrainEnv) rather than toy MDPs: two workers stepping
// two environments in two threads are still one deterministic run per seed, whether the
// envs share their state caches (worker copies) or not, and however many threads step
// them; the critic's cost features
// describe the graph, and every learner's policy file drives policy_order.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <memory>

#include "ir/random_module.h"
#include "rl/action_names.h"
#include "rl/actor_critic.h"
#include "rl/graph_train_env.h"
#include "rl/policy_file.h"
#include "tests/rl/rl_test_util.h"
#include "tests/support/test_data.h"

namespace hlsgym::rl {
namespace {

using testutil::design;

std::vector<std::pair<std::string, ir::Module>> graphs() {
  std::vector<std::pair<std::string, ir::Module>> g;
  for (const char* name : {"fir8", "softmax", "layernorm", "bit_mix"}) g.emplace_back(name, design(name));
  return g;
}

EnvOptions short_episodes() {
  EnvOptions o;
  o.max_steps = 8;
  o.normalize_by_default = true;  // the default order's costs are a cache the workers share
  return o;
}

// `n` environments over the same graphs: worker copies of the first, as `hlsgym train
// --workers` makes them, or (shared = false) independent ones.
struct Workers {
  explicit Workers(int n, bool shared = true) {
    owned.push_back(std::make_unique<GraphTrainEnv>(graphs(), short_episodes()));
    for (int w = 1; w < n; ++w)
      owned.push_back(shared ? owned[0]->worker_copy() : std::make_unique<GraphTrainEnv>(graphs(), short_episodes()));
    for (auto& e : owned) envs.push_back(e.get());
  }
  std::vector<std::unique_ptr<GraphTrainEnv>> owned;
  std::vector<TrainEnv*> envs;
};

std::unique_ptr<Agent> small_agent(const std::string& algo, int observation_size, bool critic_features) {
  AgentOptions o;
  o.algo = algo, o.hidden = {16}, o.seed = 7;
  if (critic_features) o.critic_features = GraphTrainEnv::kCriticFeatures;
  return make_agent(o, observation_size, Env::action_count());
}

TEST(GraphTraining, TwoWorkersOnDesignsAreOneDeterministicRun) {
  for (const std::string algo : {"ppo", "a2c"}) {
    Workers first(2), second(2, false), one(1);
    const int obs = first.owned[0]->observation_size();
    auto a = small_agent(algo, obs, true), b = small_agent(algo, obs, true), c = small_agent(algo, obs, true);
    a->train(first.envs, 768);
    b->train(second.envs, 768);
    c->train(one.envs, 768);
    EXPECT_EQ(a->steps_done(), 768) << algo;
    EXPECT_TRUE(a->same_state(*b)) << algo;  // sharing caches changes nothing but speed
    EXPECT_FALSE(a->same_state(*c)) << algo;  // two streams are another run than one
  }
}

TEST(GraphTraining, ThreadsNeverChangeTheRunOnlyEnvironmentsDo) {
  Workers four_on_one(4), four_on_two(4), four_on_four(4);
  const int obs = four_on_one.owned[0]->observation_size();
  auto a = small_agent("ppo", obs, false), b = small_agent("ppo", obs, false), c = small_agent("ppo", obs, false);
  a->set_threads(1), b->set_threads(2), c->set_threads(4);
  a->train(four_on_one.envs, 512);
  b->train(four_on_two.envs, 512);
  c->train(four_on_four.envs, 512);
  EXPECT_TRUE(a->same_state(*b));
  EXPECT_TRUE(a->same_state(*c));
}

TEST(GraphTraining, CriticFeaturesDescribeTheCurrentGraph) {
  GraphTrainEnv env(graphs(), short_episodes());
  env.reset(0);  // fir8
  const std::vector<double> start = env.critic_features();
  ASSERT_EQ(static_cast<int>(start.size()), GraphTrainEnv::kCriticFeatures);
  for (int i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(start[static_cast<size_t>(i)], 1.0) << i;  // relative to the start
  EXPECT_GT(start[5], 0.0);                                                                // the graph's size
  env.reset(2);  // layernorm: a larger graph than fir8
  EXPECT_GT(env.critic_features()[5], start[5]);
  // The designs are clean already; a random graph has what passes remove, and a pass that
  // removes instructions lowers the relative instruction count.
  ir::RandomModuleOptions g;
  g.instructions = 120;
  GraphTrainEnv random_graph({{"random", ir::random_module(g)}}, short_episodes());
  bool shrank = false;
  for (int a = 0; a < random_graph.action_count() && !shrank; ++a) {
    random_graph.reset(0);
    shrank = random_graph.step(a).reward > 0 && random_graph.critic_features()[3] < 1.0;
  }
  EXPECT_TRUE(shrank);
}

TEST(GraphTraining, EveryLearnersPolicyFileDrivesPolicyOrder) {
  const std::string path = (hlsgym::testing::scratch("hlsgym_graph_training.policy")).string();
  for (const std::string algo : {"ppo", "a2c", "dqn"}) {
    Workers w(1);
    PolicyFile p;
    p.algo = algo, p.max_steps = 8, p.actions = action_names();
    p.agent = small_agent(algo, w.owned[0]->observation_size(), algo != "dqn");
    p.agent->train(w.envs, 300);
    save_policy(p, path);
    PolicyFile back = load_policy(path);
    EXPECT_EQ(back.algo, algo);
    EXPECT_TRUE(back.agent->same_state(*p.agent)) << algo;
    EXPECT_EQ(policy_order(back, design("fir8"), EnvOptions{}), policy_order(p, design("fir8"), EnvOptions{})) << algo;
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace hlsgym::rl
