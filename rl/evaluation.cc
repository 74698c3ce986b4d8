#include "rl/evaluation.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "ir/error.h"
#include "passes/default_order.h"
#include "passes/order.h"
#include "rl/search.h"

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

EvalReport evaluate_policy(const std::vector<std::pair<std::string, ir::Module>>& graphs, const EnvOptions& env_options,
                           const OrderPolicy& policy, const EvalOptions& o) {
  EvalReport rep;
  rep.policy = policy.name;
  rep.reward = env_options.reward;
  std::vector<double> ratios, speedups, random_ratios, greedy_ratios;
  int at_least = 0;
  for (const auto& [id, g] : graphs) {
    Env env(env_options);
    GraphEval e;
    e.graph = id;
    if (std::string why = env.uncostable(g); !why.empty()) {
      e.uncostable = "initial state: " + why;
      ++rep.uncostable;
      rep.uncostable_states += env.cache().uncostable_states();
      rep.graphs.push_back(std::move(e));
      continue;
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
    rep.uncostable_states += env.cache().uncostable_states();
    rep.refused_steps += env.cache().refused_steps();
    if (!e.uncostable.empty()) {
      ++rep.uncostable;
      rep.graphs.push_back(std::move(e));
      continue;
    }
    e.default_cost = *default_cost;
    e.policy_cost = *policy_cost;
    e.ratio = ratio(e.initial, e.default_cost, e.policy_cost);
    if (e.ratio) ratios.push_back(*e.ratio);
    else ++rep.undefined_ratio;
    if (e.policy_cost > 0) speedups.push_back(e.default_cost / e.policy_cost), e.speedup = speedups.back();
    at_least += e.policy_cost <= e.default_cost;
    if (o.baselines) {
      const double budget = std::max(o.min_budget_s, e.policy_seconds);
      e.random_cost = baseline_cost(g, id, env_options, SearchAlgo::kRandom, budget, o.seed);
      e.greedy_cost = baseline_cost(g, id, env_options, SearchAlgo::kGreedy, budget, o.seed);
      if (auto r = ratio(e.initial, e.default_cost, *e.random_cost)) random_ratios.push_back(*r);
      if (auto r = ratio(e.initial, e.default_cost, *e.greedy_cost)) greedy_ratios.push_back(*r);
    }
    rep.graphs.push_back(std::move(e));
  }
  rep.geomean_ratio = geomean(ratios);
  rep.geomean_speedup = geomean(speedups);
  rep.geomean_ratio_random = geomean(random_ratios);
  rep.geomean_ratio_greedy = geomean(greedy_ratios);
  rep.at_least_default = rep.costed() == 0 ? 0 : static_cast<double>(at_least) / static_cast<double>(rep.costed());
  return rep;
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
