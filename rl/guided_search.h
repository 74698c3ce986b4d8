// Policy-guided search (issue 18 item 3; CompilerGym's "PPO + guided search"): the policy's
// own order refined by the beam search of rl/search.h, seeded with that order and
// expanding from each state only the policy's top-k actions among those that lead to new
// states (tried best-scored first; the no-ops met on the way count as pass runs). Evaluations (pass runs) are
// counted for the policy's episode and the search together, so a budget compares with
// plain beam search's --budget-steps at equal cost.
//   - never worse than the policy: its order is replayed first and the search keeps the
//     best state seen; when the budget left after the policy's episode cannot replay it,
//     the policy's order is returned as it is
//   - deterministic: the policy is greedy and the beam has no randomness (the seed only
//     reaches the environment's reset, as for every search)
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ir/module.h"
#include "rl/env.h"
#include "rl/policy_file.h"

namespace hlsgym::rl {

struct GuidedOptions {
  int64_t budget_steps = 200;  // pass runs in all: the policy's episode, the replay, the beam
  int top_k = 2;               // new states taken from each beam state, the policy's best first
                               // (2 over 3 and 5: the train split at 200 and 500 pass runs, README)
  int beam_width = 4;
  int max_len = 30;            // deepest beam level (the seed order may be longer)
  uint64_t seed = 1;
};

struct GuidedResult {
  std::vector<std::string> order, policy_order;
  int64_t evaluations = 0;         // pass runs in all: <= budget_steps, unless the policy's
  int64_t policy_evaluations = 0;  // episode alone takes more (then evaluations is that)
  bool searched = false;           // false: too little budget left after the policy's episode
};

GuidedResult guided_order(PolicyFile& p, const ir::Module& graph, const EnvOptions& env_base, const GuidedOptions& o);

}  // namespace hlsgym::rl
