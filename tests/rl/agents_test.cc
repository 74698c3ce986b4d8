// PPO, A2C and DQN each learn small MDPs with known optimal returns to >= 95 % of them,
// deterministically per seed; saved states round-trip through load_agent; a resumed run
// continues the same run exactly (DQN with its replay buffer); DQN learns offline from a random
// policy's transitions; the critic-features variant learns and round-trips.
#include <gtest/gtest.h>

#include <functional>
#include <sstream>

#include "ir/error.h"
#include "rl/actor_critic.h"
#include "rl/dqn.h"

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

// Corridor whose critic also sees the distance still to walk (a cost feature).
class CorridorWithCritic final : public TrainEnv {
 public:
  explicit CorridorWithCritic(int n) : c_(n), n_(n) {}
  int observation_size() const override { return c_.observation_size(); }
  int action_count() const override { return 2; }
  std::vector<double> reset(uint64_t seed) override { return pos_ = 0, c_.reset(seed); }
  Step step(int a) override { return ++pos_, c_.step(a); }
  std::vector<double> critic_features() const override { return {static_cast<double>(n_ - 1 - pos_) / n_}; }

 private:
  Corridor c_;
  int n_, pos_ = 0;
};

// Greedy return of the trained policy from `episodes` resets.
double greedy_return(Agent& agent, TrainEnv& env, int episodes) {
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

ActorCriticOptions fast_ppo() {
  ActorCriticOptions o;
  o.hidden = {32};
  o.lr = 3e-3;
  o.batch = 128;
  o.minibatch = 32;
  return o;
}

ActorCriticOptions fast_a2c() {
  ActorCriticOptions o = ActorCriticOptions::a2c();
  o.hidden = {32};
  o.lr = 3e-3;
  return o;
}

DqnOptions fast_dqn() {
  DqnOptions o;
  o.hidden = {32};
  o.lr = 1e-3;
  o.learning_starts = 200;
  o.target_update = 100;
  o.exploration_steps = 2000;
  o.train_every = 1;
  o.batch = 32;
  return o;
}

// Through a policy file and, where the agent has one, its resume state (DQN's replay buffer).
std::unique_ptr<Agent> reload(const Agent& a) {
  std::stringstream file, resume;
  a.save(file);
  auto b = load_agent(file);
  if (a.has_resume_state()) a.save_resume_state(resume), b->load_resume_state(resume);
  return b;
}

// Trains a fresh agent on the corridor and on the bandit and checks >= 95 % of the optimal
// return (1 in both) from greedy play.
void expect_learns(const std::function<std::unique_ptr<Agent>(int, int)>& make, int64_t corridor_steps,
                   int64_t bandit_steps) {
  Corridor corridor(6);
  auto a = make(corridor.observation_size(), corridor.action_count());
  a->train(corridor, corridor_steps);
  EXPECT_GE(greedy_return(*a, corridor, 1), 0.95) << a->algo() << " on the corridor";
  Bandit bandit;
  auto b = make(bandit.observation_size(), bandit.action_count());
  b->train(bandit, bandit_steps);
  EXPECT_GE(greedy_return(*b, bandit, 40), 0.95) << b->algo() << " on the bandit";
}

TEST(Ppo, LearnsTheCorridorAndTheBandit) {
  expect_learns([](int o, int a) { return std::make_unique<ActorCritic>(o, a, fast_ppo()); }, 20000, 8000);
}

TEST(A2c, LearnsTheCorridorAndTheBandit) {
  expect_learns([](int o, int a) { return std::make_unique<ActorCritic>(o, a, fast_a2c()); }, 20000, 8000);
}

TEST(Dqn, LearnsTheCorridorAndTheBandit) {
  expect_learns([](int o, int a) { return std::make_unique<Dqn>(o, a, fast_dqn()); }, 6000, 4000);
}

TEST(Dqn, LearnsOfflineFromARandomPolicysTransitions) {
  // A random policy almost never walks the corridor to its end (0.5^5), yet Q-learning
  // from its transitions finds that walking is optimal: the offline pipeline's point.
  Corridor corridor(6);
  std::mt19937_64 rng(3);
  std::vector<Transition> data;
  for (int e = 0; e < 400; ++e) {
    std::vector<double> obs = corridor.reset(0);
    for (bool done = false; !done;) {
      const int a = static_cast<int>(rng() % 2);
      const auto s = corridor.step(a);
      data.push_back({obs, a, s.reward, s.observation, s.done});
      obs = s.observation, done = s.done;
    }
  }
  Dqn offline(corridor.observation_size(), 2, fast_dqn());
  EXPECT_LT(greedy_return(offline, corridor, 1), 0.95);  // untrained
  offline.train_offline(data, 3000);
  EXPECT_EQ(offline.steps_done(), 3000);
  EXPECT_GE(greedy_return(offline, corridor, 1), 0.95);
  EXPECT_THROW(offline.train_offline({}, 10), Error);
  EXPECT_THROW(offline.train_offline({{{1.0}, 0, 0.0, {1.0}, true}}, 10), Error);  // wrong observation size
}

TEST(ActorCritic, CriticFeaturesLearnAndRoundTrip) {
  CorridorWithCritic env(6);
  ActorCriticOptions o = fast_ppo();
  o.critic_features = 1;
  ActorCritic a(env.observation_size(), env.action_count(), o);
  a.train(env, 20000);
  EXPECT_GE(greedy_return(a, env, 1), 0.95);
  const auto b = reload(a);
  EXPECT_TRUE(a.same_state(*b));
  Corridor plain(6);  // a critic that expects features from an env that has none
  EXPECT_THROW(a.train(plain, 128), Error);
}

TEST(Agents, DeterministicPerSeedAndResumeExactly) {
  for (const std::string algo : {"ppo", "a2c", "dqn"}) {
    auto make = [&](uint64_t seed) -> std::unique_ptr<Agent> {
      if (algo == "dqn") {
        DqnOptions o = fast_dqn();
        o.seed = seed;
        o.buffer = 300;  // the ring wraps before the checkpoint
        return std::make_unique<Dqn>(4, 4, o);
      }
      ActorCriticOptions o = algo == "ppo" ? fast_ppo() : fast_a2c();
      o.seed = seed;
      return std::make_unique<ActorCritic>(4, 4, o);
    };
    Bandit b1, b2, b3, b4;
    auto straight = make(1), twin = make(1), other = make(2);
    straight->train(b1, 2048);
    twin->train(b2, 2048);
    EXPECT_TRUE(straight->same_state(*twin)) << algo;
    other->train(b3, 2048);
    EXPECT_FALSE(other->same_state(*straight)) << algo;  // another seed, another run
    // Half, save, load, the other half: bit for bit the run trained straight through (the
    // bandit's episodes are one step long, so the checkpoint falls between episodes).
    auto half = make(1);
    half->train(b4, 1024);
    auto resumed = reload(*half);
    Bandit b5;
    resumed->train(b5, 1024);
    EXPECT_EQ(resumed->steps_done(), 2048) << algo;
    EXPECT_TRUE(resumed->same_state(*straight)) << algo;
  }
}

TEST(Agents, DqnResumesWithoutItsReplayBufferAndRefusesAStaleOne) {
  Bandit b1, b2;
  Dqn a(4, 4, fast_dqn());
  a.train(b1, 1500);
  std::stringstream file, stale;
  a.save_resume_state(stale);
  a.train(b1, 256);
  a.save(file);
  auto back = load_agent(file);  // the policy file alone
  EXPECT_TRUE(a.same_state(*back));
  EXPECT_EQ(dynamic_cast<Dqn&>(*back).epsilon(), a.epsilon());
  EXPECT_THROW(back->load_resume_state(stale), Error);  // another step's buffer
  std::stringstream garbage("hlsgym-replay 1 1756 5 4 0\n");
  EXPECT_THROW(back->load_resume_state(garbage), Error);  // truncated
  back->train(b2, 500);  // refills its buffer, then learns on
  EXPECT_EQ(back->steps_done(), 2256);
}

TEST(Agents, MakeAgentBuildsEachAlgorithmAndRefusesWhatItCannotDo) {
  for (const std::string algo : {"ppo", "a2c", "dqn"}) {
    AgentOptions o;
    o.algo = algo, o.hidden = {8};
    const auto a = make_agent(o, 4, 4);
    EXPECT_EQ(a->algo(), algo);
    EXPECT_EQ(a->observation_size(), 4);
    Bandit b1, b2;
    if (algo == "dqn") {
      EXPECT_THROW(a->train(std::vector<TrainEnv*>{&b1, &b2}, 64), Error);  // one stream only
    }
  }
  AgentOptions dqn_critic;
  dqn_critic.algo = "dqn", dqn_critic.critic_features = 1;
  EXPECT_THROW(make_agent(dqn_critic, 4, 4), Error);
  AgentOptions sarsa;
  sarsa.algo = "sarsa";
  EXPECT_THROW(make_agent(sarsa, 4, 4), Error);
  AgentOptions short_run;
  short_run.algo = "dqn", short_run.planned_steps = 1000;  // explores over its first fifth
  EXPECT_EQ(dynamic_cast<Dqn&>(*make_agent(short_run, 4, 4)).options().exploration_steps, 200);
}

TEST(Agents, SavedStatesRoundTripAndGarbageIsRefused) {
  Bandit env;
  std::vector<std::unique_ptr<Agent>> agents;
  agents.push_back(std::make_unique<ActorCritic>(4, 4, fast_ppo()));
  agents.push_back(std::make_unique<ActorCritic>(4, 4, fast_a2c()));
  agents.push_back(std::make_unique<Dqn>(4, 4, fast_dqn()));
  for (auto& a : agents) {
    a->train(env, 512);
    auto b = reload(*a);
    EXPECT_EQ(b->algo(), a->algo());
    EXPECT_TRUE(a->same_state(*b)) << a->algo();
    for (int c = 0; c < 4; ++c) {
      std::vector<double> o(4, 0.0);
      o[static_cast<size_t>(c)] = 1;
      EXPECT_EQ(a->action_scores(o), b->action_scores(o)) << a->algo();
    }
  }
  EXPECT_FALSE(agents[0]->same_state(*agents[1]));  // ppo vs a2c
  for (const char* bad : {"ppo 9\n", "a2c 1\n", "dqn 2\n", "sarsa 1\n", "ppo 2\n0.1 x\n", ""}) {
    std::stringstream in(bad);
    EXPECT_THROW(load_agent(in), Error) << bad;
  }
}

}  // namespace
}  // namespace hlsgym::rl

namespace hlsgym::rl {
namespace {

TEST(ActorCritic, TwoWorkersAreDeterministicLearnAndResume) {
  for (const std::string algo : {"ppo", "a2c"}) {
    ActorCriticOptions o = algo == "ppo" ? fast_ppo() : fast_a2c();
    auto run = [&](int64_t steps, ActorCritic& agent) {
      Corridor a(6), b(6);
      agent.train(std::vector<TrainEnv*>{&a, &b}, steps);
    };
    ActorCritic x(6, 2, o), y(6, 2, o), one(6, 2, o);
    run(20000, x);
    run(20000, y);
    EXPECT_TRUE(x.same_state(y)) << algo;
    Corridor c(6);
    one.train(c, 20000);
    EXPECT_FALSE(one.same_state(x)) << algo;  // two streams are another run than one
    EXPECT_GE(greedy_return(x, c, 1), 0.95) << algo;
    // Half, save, load, half (bandit episodes are one step: checkpoints fall between them).
    ActorCritic whole(4, 4, o), half(4, 4, o);
    Bandit b1, b2, b3, b4, b5, b6;
    whole.train(std::vector<TrainEnv*>{&b1, &b2}, 2048);
    half.train(std::vector<TrainEnv*>{&b3, &b4}, 1024);
    auto resumed = reload(half);
    dynamic_cast<ActorCritic&>(*resumed).train(std::vector<TrainEnv*>{&b5, &b6}, 1024);
    EXPECT_TRUE(resumed->same_state(whole)) << algo;
  }
}

}  // namespace
}  // namespace hlsgym::rl
