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

std::unique_ptr<Agent> load_agent(std::istream& in) {
  std::string algo;
  int version = 0;
  if (!(in >> algo >> version)) throw Error("policy file: missing the agent's '<algo> <version>' line");
  if (algo == "ppo" || algo == "a2c") return std::make_unique<ActorCritic>(ActorCritic::load_body(in, algo, version));
  if (algo == "dqn") return std::make_unique<Dqn>(Dqn::load_body(in, version));
  throw Error("policy file: unknown agent '" + algo + "' (this build knows ppo, a2c, dqn)");
}

}  // namespace hlsgym::rl
