#include "rl/evaluation.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "ir/error.h"
#include "passes/default_order.h"
#include "passes/order.h"
#include "rl/search.h"
#include "rl/wire.h"

namespace hlsgym::rl {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::optional<double> checked_cost(const Env& env, const ir::Module& m, std::string& why) {
  const auto c = env.cost_of_module(m);
  if (!c) why = env.uncostable(m);
  return c;
}

// The env cost of `graph` after `order` (the real pass pipeline, as `optimize` runs it);
// nullopt when the result has no hardware cost.
std::optional<double> cost_after(const Env& env, const ir::Module& graph, const std::vector<std::string>& order,
                                 std::string& why) {
  ir::Module m = graph;
  if (!order.empty()) {
    std::string spec;
    for (const auto& p : order) spec += (spec.empty() ? "" : ",") + p;
    passes::parse_order(spec).pipeline->run(m);
  }
  return checked_cost(env, m, why);
}

double geomean(const std::vector<double>& v) {
  if (v.empty()) return 0;
  double s = 0;
  for (double x : v) s += std::log(std::max(x, 1e-3));
  return std::exp(s / static_cast<double>(v.size()));
}

std::optional<double> ratio(double i, double d, double r) {
  if (!(i - d > 0)) return std::nullopt;
  return (i - r) / (i - d);
}

double baseline_cost(const ir::Module& g, const std::string& id, const EnvOptions& env, SearchAlgo algo,
                     double budget_s, uint64_t seed) {
  SearchOptions so;
  so.algo = algo;
  so.budget_seconds = budget_s;
  so.seed = seed;
  so.patience = 1 << 30;  // the wall clock is the budget
  return search(g, id, env, so).cost;  // a search state is always costed (search.h)
}

}  // namespace

GraphEvalPart evaluate_graph(const std::string& id, const ir::Module& g, const EnvOptions& env_options,
                             const OrderPolicy& policy, const EvalOptions& o) {
  Env env(env_options);
  GraphEvalPart part;
  GraphEval& e = part.row;
  e.graph = id;
  if (std::string why = env.uncostable(g); !why.empty()) {
    e.uncostable = "initial state: " + why;
    part.uncostable_states = env.cache().uncostable_states();
    return part;
  }
  env.reset(g, id, o.seed);
  e.initial = env.initial_cost();
  std::string why;
  ir::Module d = g;
  passes::make_default_order()->run(d);
  const auto default_cost = checked_cost(env, d, why);
  if (!default_cost) e.uncostable = "after the default order: " + why;
  const auto t0 = std::chrono::steady_clock::now();
  e.order = policy.order(g, id);
  e.policy_seconds = seconds_since(t0);
  const auto policy_cost = cost_after(env, g, e.order, why);
  if (!policy_cost && e.uncostable.empty()) e.uncostable = "after the policy's order: " + why;
  part.uncostable_states = env.cache().uncostable_states();
  part.refused_steps = env.cache().refused_steps();
  if (!e.uncostable.empty()) return part;
  e.default_cost = *default_cost;
  e.policy_cost = *policy_cost;
  e.ratio = ratio(e.initial, e.default_cost, e.policy_cost);
  if (e.policy_cost > 0) e.speedup = e.default_cost / e.policy_cost;
  if (o.baselines) {
    const double budget = std::max(o.min_budget_s, e.policy_seconds);
    e.random_cost = baseline_cost(g, id, env_options, SearchAlgo::kRandom, budget, o.seed);
    e.greedy_cost = baseline_cost(g, id, env_options, SearchAlgo::kGreedy, budget, o.seed);
  }
  return part;
}

EvalReport summarize_evaluation(const std::string& policy, const std::string& reward, std::vector<GraphEvalPart> rows) {
  EvalReport rep;
  rep.policy = policy;
  rep.reward = reward;
  std::vector<double> ratios, speedups, random_ratios, greedy_ratios;
  int at_least = 0;
  for (GraphEvalPart& part : rows) {
    GraphEval& e = part.row;
    rep.uncostable_states += part.uncostable_states;
    rep.refused_steps += part.refused_steps;
    if (!e.uncostable.empty()) {
      ++rep.uncostable;
      rep.graphs.push_back(std::move(e));
      continue;
    }
    if (e.ratio) ratios.push_back(*e.ratio);
    else ++rep.undefined_ratio;
    if (e.policy_cost > 0) speedups.push_back(e.speedup);
    at_least += e.policy_cost <= e.default_cost;
    if (e.random_cost)
      if (auto r = ratio(e.initial, e.default_cost, *e.random_cost)) random_ratios.push_back(*r);
    if (e.greedy_cost)
      if (auto r = ratio(e.initial, e.default_cost, *e.greedy_cost)) greedy_ratios.push_back(*r);
    rep.graphs.push_back(std::move(e));
  }
  rep.geomean_ratio = geomean(ratios);
  rep.geomean_speedup = geomean(speedups);
  rep.geomean_ratio_random = geomean(random_ratios);
  rep.geomean_ratio_greedy = geomean(greedy_ratios);
  rep.at_least_default = rep.costed() == 0 ? 0 : static_cast<double>(at_least) / static_cast<double>(rep.costed());
  return rep;
}

EvalReport evaluate_policy(const std::vector<std::pair<std::string, ir::Module>>& graphs, const EnvOptions& env_options,
                           const OrderPolicy& policy, const EvalOptions& o) {
  std::vector<GraphEvalPart> rows;
  for (const auto& [id, g] : graphs) rows.push_back(evaluate_graph(id, g, env_options, policy, o));
  return summarize_evaluation(policy.name, env_options.reward, std::move(rows));
}

std::string encode_graph_eval(const GraphEvalPart& p) {
  const GraphEval& e = p.row;
  WireWriter w;
  w.str(e.graph);
  w.pod(e.initial), w.pod(e.default_cost), w.pod(e.policy_cost), w.opt(e.ratio), w.pod(e.speedup);
  w.pod(e.policy_seconds), w.strs(e.order), w.opt(e.random_cost), w.opt(e.greedy_cost), w.str(e.uncostable);
  w.pod(p.uncostable_states), w.pod(p.refused_steps);
  return w.take();
}

GraphEvalPart decode_graph_eval(const std::string& bytes) {
  WireReader r(bytes);
  GraphEvalPart p;
  GraphEval& e = p.row;
  e.graph = r.str();
  e.initial = r.pod<double>(), e.default_cost = r.pod<double>(), e.policy_cost = r.pod<double>();
  e.ratio = r.opt(), e.speedup = r.pod<double>(), e.policy_seconds = r.pod<double>(), e.order = r.strs();
  e.random_cost = r.opt(), e.greedy_cost = r.opt(), e.uncostable = r.str();
  p.uncostable_states = r.pod<int64_t>(), p.refused_steps = r.pod<int64_t>();
  return p;
}

OrderPolicy search_policy(const std::string& name, const EnvOptions& env, int max_len, int64_t budget_steps) {
  if (name == "default")
    return {name, [](const ir::Module&, const std::string&) { return passes::default_order_names(); }};
  const SearchAlgo algo = parse_search_algo(name);
  return {name, [=](const ir::Module& g, const std::string& id) {
            SearchOptions so;
            so.algo = algo;
            so.max_len = max_len;
            so.budget_steps = budget_steps;
            return search(g, id, env, so).order;
          }};
}

}  // namespace hlsgym::rl
