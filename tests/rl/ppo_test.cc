// PPO learns small MDPs with known optimal returns, deterministically per seed; its saved
// state round-trips and a resumed run continues the same run exactly.
#include <gtest/gtest.h>

#include <sstream>

#include "ir/error.h"
#include "rl/ppo.h"

namespace hlsgym::rl {
namespace {

// A corridor of `n` cells: action 0 walks right (reward 1 at the end), action 1 takes a
// small immediate reward 0.1 and ends the episode. Optimal undiscounted return: 1.
class Corridor final : public TrainEnv {
 public:
  explicit Corridor(int n) : n_(n) {}
  int observation_size() const override { return n_; }
  int action_count() const override { return 2; }
  std::vector<double> reset(uint64_t) override {
    pos_ = 0;
    return obs();
  }
  Step step(int a) override {
    if (a == 1) return {obs(), 0.1, true};
    ++pos_;
    if (pos_ == n_ - 1) return {obs(), 1.0, true};
    return {obs(), 0.0, false};
  }

 private:
  std::vector<double> obs() const {
    std::vector<double> o(static_cast<size_t>(n_), 0.0);
    o[static_cast<size_t>(pos_)] = 1;
    return o;
  }
  int n_, pos_ = 0;
};

// A contextual bandit: one of 4 contexts, reward 1 for the action equal to it. Optimal: 1.
class Bandit final : public TrainEnv {
 public:
  int observation_size() const override { return 4; }
  int action_count() const override { return 4; }
  std::vector<double> reset(uint64_t seed) override {
    context_ = static_cast<int>(seed % 4);
    std::vector<double> o(4, 0.0);
    o[static_cast<size_t>(context_)] = 1;
    return o;
  }
  Step step(int a) override { return {std::vector<double>(4, 0.0), a == context_ ? 1.0 : 0.0, true}; }

 private:
  int context_ = 0;
};

// Greedy return of the trained policy from `episodes` resets.
double greedy_return(Ppo& agent, TrainEnv& env, int episodes) {
  double total = 0;
  for (int e = 0; e < episodes; ++e) {
    auto obs = env.reset(static_cast<uint64_t>(e));
    for (int t = 0; t < 50; ++t) {
      const auto s = env.step(agent.act(obs));
      total += s.reward;
      obs = s.observation;
      if (s.done) break;
    }
  }
  return total / episodes;
}

PpoOptions fast() {
  PpoOptions o;
  o.hidden = {32};
  o.lr = 3e-3;
  o.batch = 128;
  o.minibatch = 32;
  return o;
}

TEST(Ppo, LearnsTheCorridorAndTheBandit) {
  Corridor corridor(6);
  Ppo a(corridor.observation_size(), corridor.action_count(), fast());
  a.train(corridor, 20000);
  EXPECT_GE(greedy_return(a, corridor, 1), 0.95);
  Bandit bandit;
  Ppo b(bandit.observation_size(), bandit.action_count(), fast());
  b.train(bandit, 8000);
  EXPECT_GE(greedy_return(b, bandit, 40), 0.95);
}

TEST(Ppo, DeterministicPerSeedAndResumesExactly) {
  Corridor env1(5), env2(5);
  Ppo straight(5, 2, fast()), twin(5, 2, fast());
  straight.train(env1, 2048);
  twin.train(env2, 2048);
  EXPECT_TRUE(straight.same_state(twin));
  // Half, save, load, the other half: bit for bit the run trained straight through (the
  // bandit's episodes are one step long, so the checkpoint falls between episodes).
  Bandit b1, b2, b3;
  Ppo whole(4, 4, fast()), half(4, 4, fast());
  whole.train(b1, 2048);
  half.train(b2, 1024);
  std::stringstream file;
  half.save(file);
  Ppo resumed = Ppo::load(file);
  resumed.train(b3, 1024);
  EXPECT_EQ(resumed.steps_done(), 2048);
  EXPECT_TRUE(resumed.same_state(whole));
  Ppo other(4, 4, [] { auto o = fast(); o.seed = 2; return o; }());
  Bandit b4;
  other.train(b4, 2048);
  EXPECT_FALSE(other.same_state(whole));  // another seed, another run
}

TEST(Ppo, PolicyRoundTripsAndRejectsGarbage) {
  Bandit env;
  Ppo a(4, 4, fast());
  a.train(env, 512);
  std::stringstream file;
  a.save(file);
  Ppo b = Ppo::load(file);
  EXPECT_TRUE(a.same_state(b));
  for (int c = 0; c < 4; ++c) {
    std::vector<double> o(4, 0.0);
    o[static_cast<size_t>(c)] = 1;
    EXPECT_EQ(a.probabilities(o), b.probabilities(o));
  }
  std::stringstream bad("ppo 2\n");
  EXPECT_THROW(Ppo::load(bad), Error);
}

}  // namespace
}  // namespace hlsgym::rl
