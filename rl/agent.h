// What every learner offers: train on a TrainEnv, score actions in a state (the greedy
// action is the best score), and save its whole state so a run resumes and a policy file
// reloads. Implemented by rl/actor_critic.h (PPO, A2C) and rl/dqn.h (DQN).
#pragma once
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "ir/module.h"
#include "rl/train_env.h"

namespace hlsgym::rl {

struct TrainProgress {
  int64_t steps = 0;
  double mean_return = 0;  // over the episodes finished since the last report
  int episodes = 0;
};
using ProgressFn = std::function<void(const TrainProgress&)>;

class Agent {
 public:
  virtual ~Agent() = default;
  virtual std::string algo() const = 0;  // "ppo", "a2c", "dqn"
  // Trains for `steps` environment steps (rounded up to whole rollouts or reports);
  // `progress` is called every rollout (actor-critic) or every 256 steps (DQN).
  virtual void train(TrainEnv& env, int64_t steps, const ProgressFn& progress = {}) = 0;
  // Rollouts over several environments at once (actor-critic: each a share of every
  // rollout, stepped by set_threads() threads); an agent that learns from a single stream
  // (DQN) takes exactly one.
  virtual void train(const std::vector<TrainEnv*>& envs, int64_t steps, const ProgressFn& progress = {});
  // How many threads step those environments (0: one per environment). A speed setting
  // only: which thread steps an environment never changes the run.
  virtual void set_threads(int /*threads*/) {}
  // Higher is better: action probabilities (actor-critic) or Q-values (DQN).
  virtual std::vector<double> action_scores(const std::vector<double>& observation) = 0;
  int act(const std::vector<double>& observation);  // the best-scoring action
  // The scores in a state of a real graph: an agent whose network reads the graph itself
  // (the gnn observation, rl/gnn.h) needs `state`; the others read the observation alone.
  virtual std::vector<double> state_scores(const std::vector<double>& observation, const ir::Module& state) {
    (void)state;
    return action_scores(observation);
  }
  int act(const std::vector<double>& observation, const ir::Module& state);
  virtual int observation_size() const = 0;
  virtual int64_t steps_done() const = 0;
  // Text: a tag line "<algo> <version>", then settings, counters, RNG and networks.
  virtual void save(std::ostream& out) const = 0;
  virtual bool same_state(const Agent& other) const = 0;
  // State a resumed run needs beyond save() and a policy does not: DQN's replay buffer,
  // too large for a policy file, so checkpoints write it beside it. Agents without any
  // say false and ignore the calls.
  virtual bool has_resume_state() const { return false; }
  virtual void save_resume_state(std::ostream&) const {}
  virtual void load_resume_state(std::istream&) {}  // throws hlsgym::Error
};

// A new agent with each algorithm's defaults (rl/actor_critic.h, rl/dqn.h) but for these.
struct AgentOptions {
  std::string algo = "ppo";  // ppo, a2c or dqn
  std::vector<int> hidden = {64, 64};
  uint64_t seed = 1;
  int critic_features = 0;    // ppo/a2c: TrainEnv::critic_features() entries the critic sees
  int gnn_hidden = 0;         // ppo/a2c: > 0 puts a graph encoder of this width in front (rl/gnn.h)
  int64_t planned_steps = 0;  // dqn: explore over the first fifth of the run (0: the default)
};
std::unique_ptr<Agent> make_agent(const AgentOptions& o, int observation_size, int action_count);

// Reads any agent save() wrote (dispatching on the tag); throws hlsgym::Error.
std::unique_ptr<Agent> load_agent(std::istream& in);

}  // namespace hlsgym::rl
