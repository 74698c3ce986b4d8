#include "rl/guided_search.h"

#include <algorithm>
#include <numeric>

#include "ir/error.h"
#include "rl/search.h"

namespace hlsgym::rl {
namespace {

std::vector<int> action_indices(const std::vector<std::string>& names) {
  std::vector<int> out;
  for (const auto& n : names)
    for (int a = 0; a < Env::action_count(); ++a)
      if (Env::action_name(a) == n) {
        out.push_back(a);
        break;
      }
  return out;
}

// Every action, the policy's highest-scoring first (lower index on ties, so the expansion
// order is deterministic). The beam takes the first k that lead to new states: the
// policy's top choices are often passes that change nothing there (its own episode masks
// those), and a beam over the top k raw scores gained nothing on the test split (geomean
// 1.1879 against the policy's own 1.1878, at every budget from 100 to 2,000 pass runs).
std::vector<int> ranked_actions(Agent& agent, const Env& e) {
  const std::vector<double> scores = agent.action_scores(e.observation());
  std::vector<int> idx(scores.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(),
                   [&](int a, int b) { return scores[static_cast<size_t>(a)] > scores[static_cast<size_t>(b)]; });
  return idx;
}

}  // namespace

GuidedResult guided_order(PolicyFile& p, const ir::Module& graph, const EnvOptions& env_base, const GuidedOptions& o) {
  if (o.budget_steps <= 0) throw Error("the guided search's budget (pass runs) must be positive");
  if (o.top_k <= 0 || o.beam_width <= 0) throw Error("the guided search's top-k and beam width must be positive");
  GuidedResult r;
  r.policy_order = policy_order(p, graph, env_base, &r.policy_evaluations);
  r.order = r.policy_order;
  r.evaluations = r.policy_evaluations;
  const std::vector<int> seed = action_indices(r.policy_order);
  // The search must at least replay the policy's order, or it could return a worse prefix.
  const int64_t left = o.budget_steps - r.policy_evaluations;
  SearchOptions so;
  so.algo = SearchAlgo::kBeam;
  so.seed = o.seed;
  so.beam_width = o.beam_width;
  so.max_len = std::max<int>(o.max_len, static_cast<int>(seed.size()));
  so.seed_actions = seed;
  // Scored on the observation the policy was trained on (policy_env_options below).
  so.actions_to_try = [&p](const Env& e) { return ranked_actions(*p.agent, e); };
  so.children_per_state = o.top_k;
  if (left < static_cast<int64_t>(seed.size()) || left <= 0) return r;  // no budget left to search
  so.budget_steps = left;
  const SearchResult s = search(graph, "guided", policy_env_options(p, env_base), so);
  r.order = s.order;
  r.evaluations += s.evaluations;
  r.searched = true;
  return r;
}

}  // namespace hlsgym::rl
