#include "rl/agent.h"

#include <algorithm>
#include <istream>

#include "ir/error.h"
#include "rl/actor_critic.h"
#include "rl/dqn.h"

namespace hlsgym::rl {

int Agent::act(const std::vector<double>& observation) {
  const std::vector<double> s = action_scores(observation);
  return static_cast<int>(std::max_element(s.begin(), s.end()) - s.begin());
}

void Agent::train(const std::vector<TrainEnv*>& envs, int64_t steps, const ProgressFn& progress) {
  if (envs.size() != 1) throw Error(algo() + " trains on one environment (several workers are for ppo and a2c)");
  train(*envs[0], steps, progress);
}

int Agent::act(const std::vector<double>& observation, const ir::Module& state) {
  const std::vector<double> s = state_scores(observation, state);
  return static_cast<int>(std::max_element(s.begin(), s.end()) - s.begin());
}

std::unique_ptr<Agent> make_agent(const AgentOptions& o, int observation_size, int action_count) {
  if (o.algo == "dqn") {
    if (o.critic_features) throw Error("critic features are for the actor-critic algorithms (ppo, a2c), not dqn");
    if (o.gnn_hidden) throw Error("the gnn observation (a graph encoder) is for the actor-critic algorithms (ppo, a2c), not dqn");
    DqnOptions d;
    d.hidden = o.hidden, d.seed = o.seed;
    // A short run explores over its first fifth; a long one keeps the default's 20k steps.
    if (o.planned_steps > 0) d.exploration_steps = std::max<int64_t>(1, std::min(d.exploration_steps, o.planned_steps / 5));
    return std::make_unique<Dqn>(observation_size, action_count, d);
  }
  if (o.algo != "ppo" && o.algo != "a2c") throw Error("unknown algorithm '" + o.algo + "' (expected ppo, a2c or dqn)");
  ActorCriticOptions a = o.algo == "a2c" ? ActorCriticOptions::a2c() : ActorCriticOptions::ppo();
  a.hidden = o.hidden, a.seed = o.seed, a.critic_features = o.critic_features, a.gnn_hidden = o.gnn_hidden;
  return std::make_unique<ActorCritic>(observation_size, action_count, a);
}

std::unique_ptr<Agent> load_agent(std::istream& in) {
  std::string algo;
  int version = 0;
  if (!(in >> algo >> version)) throw Error("policy file: missing the agent's '<algo> <version>' line");
  if (algo == "ppo" || algo == "a2c") return std::make_unique<ActorCritic>(ActorCritic::load_body(in, algo, version));
  if (algo == "dqn") return std::make_unique<Dqn>(Dqn::load_body(in, version));
  throw Error("policy file: unknown agent '" + algo + "' (this build knows ppo, a2c, dqn)");
}

}  // namespace hlsgym::rl
