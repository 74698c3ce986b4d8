// The transition memo (rl/transition_memo.h) changes the speed of the environment, never
// what it does: episodes with and without it, or with a budget so small that it keeps
// dropping what it stored, give the same observations, rewards and states, and training
// on them gives a byte-identical policy, also with two workers sharing one memo and with
// a hardware reward (whose refused steps the memo must not remember as changes).
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <sstream>

#include "ir/random_module.h"
#include "rl/actor_critic.h"
#include "rl/graph_train_env.h"
#include "tests/rl/rl_test_util.h"

namespace hlsgym::rl {
namespace {

using testutil::design;

std::vector<std::pair<std::string, ir::Module>> graphs() {
  std::vector<std::pair<std::string, ir::Module>> g;
  for (const char* name : {"fir8", "softmax", "layernorm", "bit_mix", "matmul_4x4", "conv2d"}) g.emplace_back(name, design(name));
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    ir::RandomModuleOptions o;
    o.seed = seed;
    o.instructions = 120;
    g.emplace_back("random" + std::to_string(seed), ir::random_module(o));
  }
  return g;
}

EnvOptions options(int64_t memo_instructions) {
  EnvOptions o;
  o.max_steps = 12;
  o.observation = "opcount+graph-wl+features";
  o.normalize_by_default = true;
  o.memo_instructions = memo_instructions;
  return o;
}

// Budgets: a large one (the default before it was turned off), off, and one that holds
// about one small state (evicts all the time).
const int64_t kBudgets[] = {4'000'000, 0, 60};

TEST(TransitionMemo, RandomWalksAreTheSameWithAndWithoutIt) {
  const auto g = graphs();
  std::vector<Env> envs;
  for (int64_t b : kBudgets) envs.emplace_back(options(b));
  std::mt19937 rng(3);
  for (int episode = 0; episode < 60; ++episode) {
    const auto& [id, m] = g[static_cast<size_t>(episode) % g.size()];
    std::vector<std::vector<double>> first;
    for (Env& e : envs) first.push_back(e.reset(m, id));
    for (size_t k = 1; k < envs.size(); ++k) ASSERT_EQ(first[0], first[k]) << id;
    // Few actions, so that episodes revisit states and the memo answers.
    for (int step = 0; step < 12; ++step) {
      const int action = static_cast<int>(rng() % 12) * 4 % Env::action_count();
      const StepResult want = envs[0].step(action);
      for (size_t k = 1; k < envs.size(); ++k) {
        const StepResult got = envs[k].step(action);
        ASSERT_EQ(want.observation, got.observation) << id << " step " << step << " budget " << kBudgets[k];
        ASSERT_EQ(want.reward, got.reward);
        ASSERT_EQ(want.info.changed, got.info.changed);
        ASSERT_EQ(envs[0].state_hash(), envs[k].state_hash());
        ASSERT_EQ(envs[0].state().to_text(), envs[k].state().to_text());
      }
    }
    // The state reached through the memo is a real one: it replays, and validates.
    Env replayed = envs[0].fork();
    replayed.replay(envs[0].state());
    EXPECT_EQ(replayed.state_hash(), envs[0].state_hash()) << id;
  }
  EXPECT_GT(envs[0].memo().hits(), 0);
  EXPECT_EQ(envs[1].memo().hits(), 0);  // off
  EXPECT_GT(envs[2].memo().evictions(), 0);
}

std::string trained(int64_t memo_instructions, int workers, const std::string& reward) {
  EnvOptions o = options(memo_instructions);
  if (reward != "opcount") {
    o.reward = reward;
    o.target = testutil::fpga();
    o.normalize_by_default = false;
    o.log_ratio = true;
  }
  std::vector<std::unique_ptr<GraphTrainEnv>> owned;
  owned.push_back(std::make_unique<GraphTrainEnv>(split_costable(graphs(), o).kept, o));
  for (int w = 1; w < workers; ++w) owned.push_back(owned[0]->worker_copy());
  std::vector<TrainEnv*> envs;
  for (auto& e : owned) envs.push_back(e.get());
  ActorCriticOptions ao;
  ao.hidden = {16};
  ao.seed = 5;
  ActorCritic agent(envs[0]->observation_size(), envs[0]->action_count(), ao);
  agent.set_threads(workers);
  agent.train(envs, 1536);
  std::ostringstream out;
  agent.save(out);
  return out.str();
}

TEST(TransitionMemo, TrainingGivesTheSamePolicyByteForByte) {
  for (const std::string reward : {"opcount", "cycles"}) {
    for (int workers : {1, 2}) {
      const std::string with = trained(kBudgets[0], workers, reward);
      EXPECT_EQ(with, trained(0, workers, reward)) << reward << ", " << workers << " workers";
      EXPECT_EQ(with, trained(kBudgets[2], workers, reward)) << reward << ", " << workers << " workers";
    }
  }
}

}  // namespace
}  // namespace hlsgym::rl
