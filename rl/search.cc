#include "rl/search.h"

#include "rl/wire.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <random>
#include <unordered_set>

#include "ir/error.h"
#include "passes/default_order.h"

namespace hlsgym::rl {
namespace {

const std::map<std::string, SearchAlgo> kAlgos = {{"random", SearchAlgo::kRandom},
                                                  {"greedy", SearchAlgo::kGreedy},
                                                  {"beam", SearchAlgo::kBeam},
                                                  {"ga", SearchAlgo::kGa},
                                                  {"exhaustive", SearchAlgo::kExhaustive}};

// Counts environment steps and wall time against the budget.
class Budget {
 public:
  explicit Budget(const SearchOptions& o) : o_(o), start_(std::chrono::steady_clock::now()) {}
  bool done() {
    if (o_.budget_steps > 0 && steps_ >= o_.budget_steps) return exhausted_ = true;
    if (o_.budget_seconds > 0 && seconds() >= o_.budget_seconds) return exhausted_ = true;
    return false;
  }
  void count() { ++steps_; }
  int64_t steps() const { return steps_; }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  bool exhausted() const { return exhausted_; }

 private:
  const SearchOptions& o_;
  std::chrono::steady_clock::time_point start_;
  int64_t steps_ = 0;
  bool exhausted_ = false;
};

// The best state seen: its cost and the actions that reach it (strictly better only,
// so among equal costs the first, usually shortest, order wins).
struct Best {
  double cost;
  std::vector<int> actions;
  std::optional<Env> state;  // the best state itself (SearchOptions::keep_best_state)
  bool offer(const Env& e, const std::vector<int>& actions_so_far) {
    if (!(e.cost() < cost)) return false;
    cost = e.cost();
    actions = actions_so_far;
    if (state) state = e.fork();
    return true;
  }
};

std::vector<int> actions_of(const Env& e) {
  std::vector<int> out;
  for (const auto& p : e.state().passes)
    for (int a = 0; a < Env::action_count(); ++a)
      if (Env::action_name(a) == p) {
        out.push_back(a);
        break;
      }
  return out;
}

struct Context {
  const SearchOptions& o;
  Budget& budget;
  Best& best;
  std::mt19937_64 rng;
  int actions;  // the env's available_actions()
  int random_action() { return static_cast<int>(rng() % static_cast<uint64_t>(actions)); }
  std::vector<int> actions_from(const Env& e) const {
    if (o.actions_to_try) return o.actions_to_try(e);
    std::vector<int> all(static_cast<size_t>(actions));
    for (int a = 0; a < actions; ++a) all[static_cast<size_t>(a)] = a;
    return all;
  }
  // One step on a fork of `from`; counts it and offers the result.
  Env step_from(const Env& from, int a, bool& changed) {
    Env e = from.fork();
    changed = e.step(a).info.changed;
    budget.count();
    if (changed) best.offer(e, actions_of(e));
    return e;
  }
};

void random_search(const Env& base, Context& c) {
  int since = 0;
  while (!c.budget.done() && since < c.o.patience) {
    Env e = base.fork();
    std::vector<int> taken;
    bool improved = false;
    for (int k = 0; k < c.o.max_len && !c.budget.done(); ++k) {
      const int a = c.random_action();
      c.budget.count();
      if (!e.step(a).info.changed) continue;  // a no-op is left out of the order
      taken.push_back(a);
      improved |= c.best.offer(e, taken);
    }
    since = improved ? 0 : since + 1;
  }
}

void greedy_search(const Env& base, Context& c) {
  Env cur = base.fork();
  while (cur.steps() - base.steps() < c.o.max_len && !c.budget.done()) {
    std::optional<Env> next;
    for (int a = 0; a < c.actions && !c.budget.done(); ++a) {
      bool changed = false;
      Env e = c.step_from(cur, a, changed);
      if (changed && e.cost() < (next ? next->cost() : cur.cost())) next = std::move(e);
    }
    if (!next) break;
    cur = std::move(*next);
  }
}

void beam_search(const Env& base, Context& c, int64_t& states) {
  SearchMemory own;
  SearchMemory& mem = c.o.memory ? *c.o.memory : own;
  const size_t seen_before = mem.seen.size();
  std::vector<Env> beam{base.fork()};
  mem.seen.insert(base.state_hash());
  for (int depth = 0; depth < c.o.max_len && !c.budget.done(); ++depth) {
    std::vector<Env> candidates;
    for (const Env& b : beam) {
      int children = 0;
      const uint64_t here = b.state_hash();
      for (int a : c.actions_from(b)) {
        if (c.budget.done() || (c.o.children_per_state > 0 && children >= c.o.children_per_state)) break;
        if (mem.next.contains({here, a})) continue;  // run before: a no-op or a state seen
        bool changed = false;
        Env e = c.step_from(b, a, changed);
        mem.next[{here, a}] = e.state_hash();
        if (e.cost() != b.cost() && std::find(mem.changers.begin(), mem.changers.end(), a) == mem.changers.end())
          mem.changers.push_back(a);
        if (changed && mem.seen.insert(e.state_hash()).second) candidates.push_back(std::move(e)), ++children;
      }
    }
    if (candidates.empty()) break;
    const size_t keep = std::min(candidates.size(), static_cast<size_t>(c.o.beam_width));
    std::partial_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(keep), candidates.end(),
                      [](const Env& x, const Env& y) { return x.cost() < y.cost(); });
    candidates.erase(candidates.begin() + static_cast<std::ptrdiff_t>(keep), candidates.end());
    beam = std::move(candidates);
  }
  states = static_cast<int64_t>(mem.seen.size() - seen_before);
}

// Fitness of a genome: the best cost along its prefixes.
double evaluate_genome(const Env& base, const std::vector<int>& g, Context& c) {
  Env e = base.fork();
  double best = e.cost();
  std::vector<int> taken;
  for (int a : g) {
    if (c.budget.done()) break;
    c.budget.count();
    if (!e.step(a).info.changed) continue;  // a no-op is left out of the order
    taken.push_back(a);
    best = std::min(best, e.cost());
    c.best.offer(e, taken);
  }
  return best;
}

void genetic_search(const Env& base, Context& c) {
  const int n = std::max(4, c.o.population), len = c.o.max_len;
  std::vector<std::vector<int>> pop(static_cast<size_t>(n), std::vector<int>(static_cast<size_t>(len)));
  for (auto& g : pop)
    for (int& a : g) a = c.random_action();
  std::vector<double> fit(pop.size());
  for (size_t i = 0; i < pop.size(); ++i) fit[i] = evaluate_genome(base, pop[i], c);
  std::uniform_real_distribution<double> u(0, 1);
  auto tournament = [&]() -> const std::vector<int>& {
    size_t w = c.rng() % pop.size();
    for (int k = 0; k < 2; ++k) {
      const size_t j = c.rng() % pop.size();
      if (fit[j] < fit[w]) w = j;
    }
    return pop[w];
  };
  while (!c.budget.done()) {
    std::vector<size_t> idx(pop.size());
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return fit[a] < fit[b]; });
    std::vector<std::vector<int>> next;
    std::vector<double> next_fit;
    for (int e = 0; e < c.o.elite && e < n; ++e) next.push_back(pop[idx[static_cast<size_t>(e)]]), next_fit.push_back(fit[idx[static_cast<size_t>(e)]]);
    while (static_cast<int>(next.size()) < n && !c.budget.done()) {
      const auto& p1 = tournament();
      const auto& p2 = tournament();
      const size_t cut = c.rng() % static_cast<size_t>(len);
      std::vector<int> child(p1.begin(), p1.begin() + static_cast<std::ptrdiff_t>(cut));
      child.insert(child.end(), p2.begin() + static_cast<std::ptrdiff_t>(cut), p2.end());
      for (int& a : child)
        if (u(c.rng) < c.o.mutation) a = c.random_action();
      next_fit.push_back(evaluate_genome(base, child, c));
      next.push_back(std::move(child));
    }
    if (static_cast<int>(next.size()) < n) break;  // budget ran out mid-generation
    pop = std::move(next);
    fit = std::move(next_fit);
  }
}

// The seed order (a policy's own), step by step within the budget: every prefix is offered,
// so the search returns nothing worse than it when the budget covers it.
void replay_seed(const Env& base, Context& c) {
  Env e = base.fork();
  std::vector<int> taken;
  for (int a : c.o.seed_actions) {
    if (c.budget.done() || e.steps() - base.steps() >= c.o.max_len) break;
    c.budget.count();
    if (!e.step(a).info.changed) continue;
    taken.push_back(a);
    c.best.offer(e, taken);
  }
}

bool exhaustive_search(const Env& base, Context& c, int64_t& states) {
  std::vector<Env> frontier{base.fork()};
  std::unordered_set<uint64_t> seen{base.state_hash()};
  for (int depth = 0; depth < c.o.max_len && !frontier.empty(); ++depth) {
    std::vector<Env> next;
    for (const Env& s : frontier)
      for (int a = 0; a < c.actions; ++a) {
        if (c.budget.done() || static_cast<int64_t>(seen.size()) >= c.o.max_states) {
          states = static_cast<int64_t>(seen.size());
          return false;
        }
        bool changed = false;
        Env e = c.step_from(s, a, changed);
        if (changed && seen.insert(e.state_hash()).second) next.push_back(std::move(e));
      }
    frontier = std::move(next);
  }
  states = static_cast<int64_t>(seen.size());
  return frontier.empty();  // closed: every reachable state within max_len was seen
}

}  // namespace

SearchAlgo parse_search_algo(const std::string& name) {
  auto it = kAlgos.find(name);
  if (it == kAlgos.end()) throw Error("unknown search algorithm '" + name + "' (known: random, greedy, beam, ga, exhaustive)");
  return it->second;
}

std::string search_algo_name(SearchAlgo a) {
  for (const auto& [n, v] : kAlgos)
    if (v == a) return n;
  return "?";
}

SearchResult search_from(const Env& base, const SearchOptions& o) {
  if (o.max_len <= 0) throw Error("the longest order (max_len) must be positive");
  SearchOptions opts = o;
  if (opts.budget_steps == 0 && opts.budget_seconds == 0 &&
      (o.algo == SearchAlgo::kRandom || o.algo == SearchAlgo::kGa))
    opts.budget_steps = 5000;  // these have no natural end
  Budget budget(opts);
  Best best{base.cost(), actions_of(base), {}};
  if (o.keep_best_state) best.state = base.fork();
  Context c{opts, budget, best, std::mt19937_64(o.seed), base.available_actions()};
  SearchResult r;
  replay_seed(base, c);
  switch (o.algo) {
    case SearchAlgo::kRandom: random_search(base, c); break;
    case SearchAlgo::kGreedy: greedy_search(base, c); break;
    case SearchAlgo::kBeam: beam_search(base, c, r.states); break;
    case SearchAlgo::kGa: genetic_search(base, c); break;
    case SearchAlgo::kExhaustive: r.optimal = exhaustive_search(base, c, r.states); break;
  }
  r.seconds = budget.seconds();
  r.evaluations = budget.steps();
  r.budget_exhausted = budget.exhausted();
  for (int a : best.actions) r.order.push_back(Env::action_name(a));
  r.cost = best.cost;
  r.initial_cost = base.initial_cost();
  r.refused = base.cache().refused_steps();
  if (best.state) {
    r.instructions = best.state->metrics().instructions();
    r.best_state = std::move(best.state);
  } else {
    Env replay = base.fork();  // every state offered descends from base: its actions come first
    for (size_t i = base.state().passes.size(); i < best.actions.size(); ++i) replay.step(best.actions[i]);
    r.instructions = replay.metrics().instructions();
  }
  return r;
}

SearchResult search(const ir::Module& design, const std::string& design_id, const EnvOptions& env_options,
                    const SearchOptions& o) {
  if (o.max_len <= 0) throw Error("the longest order (max_len) must be positive");
  EnvOptions eo = env_options;
  eo.max_steps = o.max_len + 1;
  eo.normalize_by_default = false;
  eo.shaping = false;
  Env base(eo);
  base.reset(design, design_id, o.seed);
  SearchResult r = search_from(base, o);
  ir::Module d = design;
  passes::make_default_order()->run(d);
  r.default_cost = base.cost_of_module(d);
  if (!r.default_cost) r.default_uncostable = base.uncostable(d);
  return r;
}

SearchOptions restart_options(const SearchOptions& o, int k) {
  SearchOptions r = o;
  r.seed = o.seed + static_cast<uint64_t>(k);
  return r;
}

SearchResult best_restart(const std::vector<SearchResult>& restarts, int* best) {
  if (restarts.empty()) throw Error("search: no restarts");
  size_t b = 0;
  for (size_t k = 1; k < restarts.size(); ++k)
    if (restarts[k].cost < restarts[b].cost) b = k;
  SearchResult r = restarts[b];
  r.evaluations = r.states = r.refused = 0;
  r.seconds = 0;
  for (const SearchResult& x : restarts)
    r.evaluations += x.evaluations, r.states += x.states, r.refused += x.refused, r.seconds += x.seconds;
  if (best) *best = static_cast<int>(b);
  return r;
}

std::string encode_search_result(const SearchResult& r) {
  WireWriter w;
  w.strs(r.order), w.pod(r.cost), w.pod(r.initial_cost), w.opt(r.default_cost), w.str(r.default_uncostable);
  w.pod(r.instructions), w.pod(r.evaluations), w.pod(r.states), w.pod(r.seconds);
  w.pod<uint8_t>(r.optimal), w.pod<uint8_t>(r.budget_exhausted), w.pod(r.refused);
  return w.take();
}

SearchResult decode_search_result(const std::string& bytes) {
  WireReader in(bytes);
  SearchResult r;
  r.order = in.strs(), r.cost = in.pod<double>(), r.initial_cost = in.pod<double>(), r.default_cost = in.opt();
  r.default_uncostable = in.str(), r.instructions = in.pod<double>(), r.evaluations = in.pod<int64_t>();
  r.states = in.pod<int64_t>(), r.seconds = in.pod<double>();
  r.optimal = in.pod<uint8_t>() != 0, r.budget_exhausted = in.pod<uint8_t>() != 0, r.refused = in.pod<int64_t>();
  return r;
}

}  // namespace hlsgym::rl
