// ActorCritic::train_shards without MPI: "processes" are threads of this test, joined by an
// in-memory gather and broadcast (std::barrier). Whatever the number of processes, the
// learner's saved state is byte for byte the single-process run's with the same number of
// environments, and every process ends with the learner's policy.
#include <gtest/gtest.h>

#include <barrier>
#include <functional>
#include <memory>
#include <sstream>
#include <thread>

#include "ir/error.h"
#include "rl/actor_critic.h"

namespace hlsgym::rl {
namespace {

// A contextual bandit over a short corridor: the reset seed picks one of 3 contexts; the
// action equal to it walks on (reward 1 at the end), any other ends the episode with 0.1.
class SeededCorridor final : public TrainEnv {
 public:
  int observation_size() const override { return 8; }
  int action_count() const override { return 3; }
  std::vector<double> reset(uint64_t seed) override {
    context_ = static_cast<int>(seed % 3), pos_ = 0;
    return obs();
  }
  Step step(int a) override {
    if (a != context_) return {obs(), 0.1, true};
    return ++pos_ == 4 ? Step{obs(), 1.0, true} : Step{obs(), 0.0, false};
  }
  std::string position() const override { return "context " + std::to_string(context_); }

 private:
  std::vector<double> obs() const {
    std::vector<double> o(8, 0.0);
    o[static_cast<size_t>(context_)] = 1, o[static_cast<size_t>(3 + pos_)] = 1;
    return o;
  }
  int context_ = 0, pos_ = 0;
};

ActorCriticOptions small(const std::string& algo) {
  ActorCriticOptions o = algo == "ppo" ? ActorCriticOptions::ppo() : ActorCriticOptions::a2c();
  o.hidden = {16};
  o.seed = 7;
  if (algo == "ppo") o.batch = 128, o.minibatch = 32;
  return o;
}

std::string saved(const Agent& a) {
  std::ostringstream s;
  a.save(s);
  return s.str();
}

// The same run over `processes` threads; returns the learner's save() and checks that every
// process ends with its policy.
using Plan = std::function<std::vector<int>(const std::vector<double>&, const std::vector<int>&, int)>;

std::string sharded_run(const std::string& algo, int total, int processes, int64_t steps, const Plan& plan = {},
                        int64_t* moves = nullptr) {
  std::vector<std::string> slots(static_cast<size_t>(processes)), gathered;
  std::string broadcast_slot;
  std::barrier sync(processes);
  std::vector<std::unique_ptr<ActorCritic>> agents;
  for (int p = 0; p < processes; ++p) agents.push_back(std::make_unique<ActorCritic>(8, 3, small(algo)));
  std::vector<std::string> failures(static_cast<size_t>(processes));
  auto process = [&](int p) {
    const int first = p * total / processes, count = (p + 1) * total / processes - first;
    std::vector<SeededCorridor> envs(static_cast<size_t>(count));
    std::vector<TrainEnv*> mine;
    for (auto& e : envs) mine.push_back(&e);
    RolloutShards s;
    s.total = total, s.process = p, s.processes = processes;
    if (plan) s.make_env = [] { return std::make_unique<SeededCorridor>(); }, s.plan = plan;
    RolloutShards::Times times;
    if (p == 0) s.times = &times;
    s.gather = [&, p](const std::string& bytes) {
      slots[static_cast<size_t>(p)] = bytes;
      sync.arrive_and_wait();
      std::vector<std::string> all;
      if (p == 0) all = slots;
      sync.arrive_and_wait();
      return all;
    };
    s.broadcast = [&, p](const std::string& bytes) {
      if (p == 0) broadcast_slot = bytes;
      sync.arrive_and_wait();
      std::string b = broadcast_slot;
      sync.arrive_and_wait();
      return b;
    };
    agents[static_cast<size_t>(p)]->set_threads(2);
    agents[static_cast<size_t>(p)]->train_shards(mine, s, steps);
    if (p == 0 && moves) *moves = times.moves;
  };
  std::vector<std::thread> threads;
  for (int p = 0; p < processes; ++p) threads.emplace_back(process, p);
  for (auto& t : threads) t.join();
  const std::vector<double> probe = {0, 1, 0, 0, 1, 0, 0, 0};
  for (int p = 1; p < processes; ++p)
    EXPECT_EQ(agents[static_cast<size_t>(p)]->probabilities(probe), agents[0]->probabilities(probe)) << "process " << p;
  return saved(*agents[0]);
}

TEST(ActorLearner, OneTwoOrThreeProcessesSaveTheSingleProcessRun) {
  for (const std::string algo : {"ppo", "a2c"}) {
    const int total = 5;
    ActorCritic single(8, 3, small(algo));
    std::vector<SeededCorridor> envs(total);
    std::vector<TrainEnv*> streams;
    for (auto& e : envs) streams.push_back(&e);
    single.train(streams, 1024);
    const std::string want = saved(single);
    for (int processes : {1, 2, 3, 5}) EXPECT_EQ(sharded_run(algo, total, processes, 1024), want) << algo << " " << processes;
  }
}

// Environments move between processes mid-episode (every update, each but environment 0
// goes to the next process: the receiver replays its episode) and the run stays the same.
TEST(ActorLearner, MovingEnvironmentsBetweenProcessesChangesNothing) {
  const Plan rotate = [](const std::vector<double>&, const std::vector<int>& owner, int processes) {
    std::vector<int> next = owner;
    for (size_t e = 1; e < next.size(); ++e) next[e] = (owner[e] + 1) % processes;
    return next;
  };
  for (const std::string algo : {"ppo", "a2c"}) {
    ActorCritic single(8, 3, small(algo));
    std::vector<SeededCorridor> envs(5);
    std::vector<TrainEnv*> streams;
    for (auto& e : envs) streams.push_back(&e);
    single.train(streams, 1024);
    int64_t moves = 0;
    EXPECT_EQ(sharded_run(algo, 5, 3, 1024, rotate, &moves), saved(single)) << algo;
    EXPECT_GT(moves, 20) << algo;
  }
}

TEST(ActorLearner, RefusesMoreEnvironmentsThanARolloutHasSteps) {
  ActorCritic a(8, 3, small("a2c"));  // 32 steps per rollout
  SeededCorridor e;
  RolloutShards s;
  s.total = 33;
  s.gather = [](const std::string& b) { return std::vector<std::string>{b}; };
  s.broadcast = [](const std::string& b) { return b; };
  EXPECT_THROW(a.train_shards({&e}, s, 64), Error);
}

}  // namespace
}  // namespace hlsgym::rl
