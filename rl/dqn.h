// Deep Q-learning (Mnih et al. 2015) with the double-DQN target (van Hasselt et al. 2016):
// a Q-network MLP, a replay buffer, a target network synced every `target_update`
// gradient steps, epsilon-greedy exploration decaying linearly, Huber loss, Adam.
// Deterministic per seed.
//
// Offline mode (the proposal's offline pipeline): train_offline() learns from a fixed
// dataset of transitions (rl/dataset.h) by gradient steps alone, never touching an
// environment.
//
// Resuming: save() holds the networks, the optimizer, the counters, the RNG and the
// exploration schedule; the replay buffer (50k transitions of 100+ doubles) is the separate
// resume state (Agent::save_resume_state), stored sparsely in binary since opcount
// observations are mostly zeros. With both, a resumed run is the straight run exactly;
// without the buffer, it refills it before it learns again.
#pragma once
#include <iosfwd>
#include <random>
#include <vector>

#include "rl/agent.h"
#include "rl/mlp.h"
#include "rl/transition.h"

namespace hlsgym::rl {

struct DqnOptions {
  std::vector<int> hidden = {64, 64};
  double lr = 5e-4, gamma = 0.99, max_grad_norm = 10;
  int buffer = 50000, batch = 64, learning_starts = 1000, train_every = 4, target_update = 500;
  // Epsilon falls linearly from eps_start to eps_end over the first `exploration_steps`.
  double eps_start = 1.0, eps_end = 0.05;
  int64_t exploration_steps = 20000;
  uint64_t seed = 1;
};

class Dqn final : public Agent {
 public:
  Dqn(int observation_size, int action_count, DqnOptions o);

  std::string algo() const override { return "dqn"; }
  using Agent::train;  // the one-environment list form
  void train(TrainEnv& env, int64_t steps, const ProgressFn& progress = {}) override;
  // Fills the replay buffer with `data` (all of it, whatever `buffer` says) and takes
  // `gradient_steps` steps; progress reports count gradient steps.
  void train_offline(std::vector<Transition> data, int64_t gradient_steps, const ProgressFn& progress = {});
  std::vector<double> action_scores(const std::vector<double>& observation) override;  // Q-values
  int observation_size() const override { return q_.input_size(); }
  int64_t steps_done() const override { return steps_; }
  double epsilon() const;
  const DqnOptions& options() const { return o_; }

  void save(std::ostream& out) const override;
  static Dqn load_body(std::istream& in, int version);  // after the "dqn <version>" line
  bool same_state(const Agent& other) const override;
  bool has_resume_state() const override { return true; }
  void save_resume_state(std::ostream& out) const override;
  void load_resume_state(std::istream& in) override;

 private:
  void remember(Transition t);
  void learn();  // one gradient step on a sampled minibatch

  DqnOptions o_;
  Mlp q_, target_;
  std::mt19937_64 rng_;
  std::vector<Transition> replay_;
  size_t replay_next_ = 0;  // ring position once the buffer is full
  int64_t steps_ = 0, updates_ = 0;
  std::vector<double> obs_;
  double episode_return_ = 0;
  bool need_reset_ = true;
};

}  // namespace hlsgym::rl
