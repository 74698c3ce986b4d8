// Evaluation of a pass-ordering policy against XLA's default order (Ganai et al.'s table,
// CompilerGym's leaderboard): per graph the initial cost I, the cost after the default
// order D and after the policy's order R, the ratio (I - R) / (I - D) (undefined where the
// default order gains nothing: those graphs are listed apart), the geomean of the defined
// ratios, the share of graphs where R <= D, and for hardware rewards the speed-up D / R.
// Random and greedy search run as baselines with the policy's wall-clock time per graph.
// With a hardware reward, a graph whose initial state, default-order result or policy
// result the hardware model cannot cost (a loop of unproven trip count, an op without a
// cost model) is listed with `uncostable` set and left out of every aggregate: no number
// of the table is a guess.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ir/module.h"
#include "rl/env.h"

namespace hlsgym::rl {

// A policy, as evaluation sees it: the pass order it picks for a graph.
struct OrderPolicy {
  std::string name;
  std::function<std::vector<std::string>(const ir::Module& graph, const std::string& id)> order;
};

struct EvalOptions {
  bool baselines = true;        // random and greedy search at the policy's wall-clock time
  double min_budget_s = 0.05;   // floor of the baselines' budget per graph
  uint64_t seed = 1;
};

struct GraphEval {
  std::string graph;
  double initial = 0, default_cost = 0, policy_cost = 0;
  std::optional<double> ratio;  // (I - R) / (I - D), when I - D > 0
  double speedup = 0;           // D / R (hardware rewards), 0 where R == 0
  double policy_seconds = 0;
  std::vector<std::string> order;
  std::optional<double> random_cost, greedy_cost;
  std::string uncostable;  // non-empty: which state has no hardware cost and why (costs above unset)
};

struct EvalReport {
  std::string policy, reward;
  std::vector<GraphEval> graphs;
  double geomean_ratio = 0;      // over graphs with a defined ratio (ratios clamped at 1e-3)
  double at_least_default = 0;   // share of graphs with R <= D
  double geomean_speedup = 0;    // D / R over graphs with R > 0
  int undefined_ratio = 0;       // graphs where the default order gains nothing
  double geomean_ratio_random = 0, geomean_ratio_greedy = 0;
  int uncostable = 0;             // graphs left out: a state without a hardware cost
  int64_t uncostable_states = 0;  // distinct states met that had none
  int64_t refused_steps = 0;      // search/policy steps refused for that reason
  size_t costed() const { return graphs.size() - static_cast<size_t>(uncostable); }
};

EvalReport evaluate_policy(const std::vector<std::pair<std::string, ir::Module>>& graphs, const EnvOptions& env,
                           const OrderPolicy& policy, const EvalOptions& o = {});

// evaluate_policy in two halves, for callers that spread the graphs over processes (dist/):
// one graph's row with its counters, and the report from the rows in graph order (the same
// report evaluate_policy gives).
struct GraphEvalPart {
  GraphEval row;
  int64_t uncostable_states = 0, refused_steps = 0;
};
GraphEvalPart evaluate_graph(const std::string& id, const ir::Module& graph, const EnvOptions& env,
                             const OrderPolicy& policy, const EvalOptions& o = {});
EvalReport summarize_evaluation(const std::string& policy, const std::string& reward, std::vector<GraphEvalPart> rows);
std::string encode_graph_eval(const GraphEvalPart& p);       // rl/wire.h bytes
GraphEvalPart decode_graph_eval(const std::string& bytes);   // throws hlsgym::Error

// Built-in search policies ("greedy", "beam", "random", "default"), usable before a
// learned policy exists and as reference rows.
OrderPolicy search_policy(const std::string& name, const EnvOptions& env, int max_len = 30, int64_t budget_steps = 2000);

}  // namespace hlsgym::rl
