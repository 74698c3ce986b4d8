// Policy-guided search (issue 18 item 3; CompilerGym's "PPO + guided search"): the policy's
// own order refined from its end state, in three phases that share one memory of the
// (state, pass) pairs already run (rl/search.h's SearchMemory: a pair is never paid twice):
//   1. the beam search of rl/search.h with half of the budget left after the policy's
//      episode, expanding from each state only the policy's top-k actions among those that
//      lead to new states (tried best-scored first; the no-ops met on the way count)
//   2. fixed-point rounds (XLA's HloPassFix) from the best state, of every pass that changed
//      the cost in the episode or the beam: chains whose cost rises before it falls, which
//      a small beam ranked by cost misses (fixed_point_rounds below); from their fixed
//      point, rounds of those passes and XLA's own fixed-point passes
//      (with_xla_fixed_point_passes), for chains that need a pass neither ran
//   3. the beam again, from the best state, with the rest.
// Evaluations (pass runs) are counted for the policy's episode and the search together, so
// a budget compares with plain beam search's --budget-steps at equal cost.
//   - never worse than the policy: every phase keeps the best state it met, starting from
//     the policy's end state; when no budget is left after the policy's episode, the
//     policy's order is returned as it is
//   - deterministic: the policy is greedy and the beam has no randomness (the seed only
//     reaches the environment's reset, as for every search)
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/module.h"
#include "rl/env.h"
#include "rl/policy_file.h"
#include "rl/search.h"

namespace hlsgym::rl {

struct GuidedOptions {
  int64_t budget_steps = 200;  // pass runs in all: the policy's episode, the beams, the rounds
  int top_k = 2;               // new states taken from each beam state, the policy's best first
                               // (2 over 3 and 5: the train split at 200 and 500 pass runs, README)
  int beam_width = 4;
  int max_len = 30;            // deepest beam level (the seed order may be longer)
  uint64_t seed = 1;
  // XLA's default order as a candidate start, run after the policy's episode within half
  // of the budget left (default_order_steps): never worse than the default order when it
  // fits. Off: chosen on the train split, it lost on the test split (README, "Policy-guided
  // search"), so the measured search stays the default.
  bool default_guard = false;
};

struct GuidedResult {
  std::vector<std::string> order, policy_order;
  int64_t evaluations = 0;         // pass runs in all: <= budget_steps, unless the policy's
  int64_t policy_evaluations = 0;  // episode alone takes more (then evaluations is that)
  bool searched = false;           // false: too little budget left after the policy's episode
  int64_t default_evaluations = 0; // pass runs of the default order's guard (in evaluations)
  bool from_default = false;       // the order starts with the default order's steps, not the policy's
};

GuidedResult guided_order(PolicyFile& p, const ir::Module& graph, const EnvOptions& env_base, const GuidedOptions& o);

// XLA's HloPassFix over passes a search found: rounds of `round` from `best` until every
// pass of it has changed nothing on the current state (a fixed point), within `budget`
// pass runs; `best` ends in the lowest-cost state met (so never worse than it started), its
// steps the rounds' changing ones. Chains whose cost rises or stays flat for a while before
// it falls are what the policy's beam misses at 100 pass runs: it spends them on breadth
// and ranks by cost (ResNet-50 of the test split: reshape-mover, cse and algsimp remove 426
// reshapes over four rounds, the first adding 47 instructions).
// Pairs (state, pass) `memory` knows to change nothing, and passes the opcode counts show
// cannot, cost no run; every run is recorded in `memory`. Rounds that come back to a state
// they passed (a cycle, no fixed point) stop there. Returns the pass runs spent.
int64_t fixed_point_rounds(Env& best, const std::vector<int>& round, int64_t budget, SearchMemory& memory);

// XLA's default order (passes::default_order_stages) run as steps of `e`: each stage's
// passes in order, a fixed-point stage's in rounds until a round changes nothing (at most
// XLA's 25), the passes the opcode counts or `memory` show cannot act skipped without a
// run, as the pipeline would have found them. Stops after `budget` pass runs (then `e` is
// part of the way). Returns the pass runs, or nullopt (nothing run) when a pass of the order
// is not among `e`'s actions. Replaying `e`'s steps gives the default order's module.
std::optional<int64_t> default_order_steps(Env& e, int64_t budget, SearchMemory& memory);

// `round` followed by the passes of XLA's default order's fixed-point pipelines
// (passes::default_fixed_point_names: algsimp, reshape-mover, constant_folding, dce, cse, the
// while-loop simplifiers, ...) it lacks, in XLA's order, among the first `available_actions`.
// Passes the state's opcode counts show cannot act cost the rounds nothing, so most of them
// are free on a graph without whiles, conditionals, sorts or gathers.
std::vector<int> with_xla_fixed_point_passes(std::vector<int> round, int available_actions);

}  // namespace hlsgym::rl
