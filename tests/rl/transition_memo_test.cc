// The transition memo (rl/transition_memo.h) changes the speed of the environment, never
// what it does: episodes with and without it, or with a budget so small that it keeps
// dropping what it stored, give the same observations, rewards and states, and training
// on them gives a byte-identical policy, also with two workers sharing one memo and with
// a hardware reward (whose refused steps the memo must not remember as changes).
#include <gtest/gtest.h>

#include <iterator>
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

// A memo configuration: the budget for next states, and whether the passes that changed
// nothing are remembered (false with budget 0: no memo at all, the reference).
struct Memo {
  int64_t instructions;
  bool unchanged = true;
};

EnvOptions options(Memo memo) {
  EnvOptions o;
  o.max_steps = 12;
  o.observation = "opcount+graph-wl+features";
  o.normalize_by_default = true;
  o.memo_instructions = memo.instructions;
  o.memo_unchanged = memo.unchanged;
  return o;
}

// No memo at all (the reference), then budgets: a large one (the default before stop 32),
// none (the default: only the passes that changed nothing), and one that holds about one
// small state (evicts all the time).
const Memo kOff{0, false};
const Memo kBudgets[] = {kOff, {4'000'000}, {0}, {60}};

TEST(TransitionMemo, RandomWalksAreTheSameWithAndWithoutIt) {
  const auto g = graphs();
  std::vector<Env> envs;
  for (Memo b : kBudgets) envs.emplace_back(options(b));
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
        ASSERT_EQ(want.observation, got.observation) << id << " step " << step << " budget " << kBudgets[k].instructions;
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
  EXPECT_EQ(envs[0].memo().hits(), 0);  // off
  EXPECT_GT(envs[1].memo().hits(), 0);
  EXPECT_EQ(envs[2].memo().stored_instructions(), 0);  // no next states stored,
  EXPECT_GT(envs[2].memo().hits(), 0);                 // but the passes that changed nothing are known
  EXPECT_GT(envs[3].memo().evictions(), 0);
}

std::string trained(Memo memo, int workers, const std::string& reward) {
  EnvOptions o = options(memo);
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
      const std::string without = trained(kOff, workers, reward);
      for (size_t k = 1; k < std::size(kBudgets); ++k)
        EXPECT_EQ(without, trained(kBudgets[k], workers, reward))
            << reward << ", " << workers << " workers, budget " << kBudgets[k].instructions;
    }
  }
}

}  // namespace
}  // namespace hlsgym::rl
