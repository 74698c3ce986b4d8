// Proximal policy optimization (Schulman et al. 2017) as Ganai et al. used it for XLA pass
// ordering: a categorical policy MLP and a value MLP, rollouts of `batch` steps, GAE
// advantages (lambda 0.95, gamma 0.99), the clipped surrogate (clip 0.2) with an entropy
// bonus, Adam (lr 3e-4), several epochs of shuffled minibatches per rollout.
// Deterministic per seed (one std::mt19937_64 drives sampling, shuffling and resets).
#pragma once
#include <functional>
#include <iosfwd>
#include <random>
#include <string>
#include <vector>

#include "rl/mlp.h"
#include "rl/train_env.h"

namespace hlsgym::rl {

struct PpoOptions {
  std::vector<int> hidden = {64, 64};
  double lr = 3e-4, gamma = 0.99, lambda = 0.95, clip = 0.2, entropy = 0.01, max_grad_norm = 0.5;
  int batch = 256, epochs = 4, minibatch = 64;
  uint64_t seed = 1;
};

struct TrainProgress {
  int64_t steps = 0;
  double mean_return = 0;  // over the episodes finished in the last rollout
  int episodes = 0;
};

class Ppo {
 public:
  Ppo(int observation_size, int action_count, PpoOptions o);

  // Trains for `steps` environment steps (rounded up to whole rollouts); `progress` is
  // called after every rollout.
  void train(TrainEnv& env, int64_t steps, const std::function<void(const TrainProgress&)>& progress = {});
  // The most probable action (evaluation), or a sample from the policy.
  int act(const std::vector<double>& observation, bool greedy = true);
  std::vector<double> probabilities(const std::vector<double>& observation);

  int64_t steps_done() const { return steps_; }
  void save(std::ostream& out) const;          // networks, optimizer state, rng, counters
  static Ppo load(std::istream& in);           // throws hlsgym::Error
  bool same_state(const Ppo& o) const;

 private:
  struct Rollout;
  void collect(TrainEnv& env, Rollout& r, TrainProgress& p);
  void update(const Rollout& r);

  PpoOptions o_;
  Mlp policy_, value_;
  std::mt19937_64 rng_;
  int64_t steps_ = 0;
  std::vector<double> obs_;  // the current observation between rollouts
  double episode_return_ = 0;
  bool need_reset_ = true;
  uint64_t episodes_ = 0;
};

}  // namespace hlsgym::rl
