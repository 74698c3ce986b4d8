// Search baselines over pass orders, on the environment's reward space (what a learned
// policy must beat):
//   random      random orders of length max_len; the best prefix seen wins; stops after
//               `patience` orders without improvement or at the budget
//   greedy      try every pass, keep the best strictly improving one, repeat
//   beam        breadth-first with the `beam_width` best distinct states per depth
//   ga          genetic algorithm on fixed-length orders (tournament selection,
//               one-point crossover, per-gene mutation, elitism)
//   exhaustive  breadth-first over distinct states (structural hash), skipping passes
//               that change nothing; returns the true optimum (optimal = true) when the
//               reachable state space within max_len closes inside the budget
// Every evaluation is one environment step (one pass run); `evaluations` counts them.
// Costs are the env's cost (lower is better); the order replays through `optimize`.
// With a hardware reward every state searched has a real hardware cost: a design the
// model cannot cost is an Error, and steps into uncostable states are refused by the
// environment (counted in `refused`), so the best state is never a guess.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/module.h"
#include "rl/env.h"

namespace hlsgym::rl {

enum class SearchAlgo { kRandom, kGreedy, kBeam, kGa, kExhaustive };
SearchAlgo parse_search_algo(const std::string& name);  // throws hlsgym::Error
std::string search_algo_name(SearchAlgo a);

// What the beams of one guided search learned, shared between them (rl/guided_search.h):
// the states seen and each (state, action) already run with the state it led to (the
// state's own hash when the pass changed nothing), so a later beam from a state met before
// pays no pass run to learn either again and turns to actions not yet tried.
struct SearchMemory {
  struct PairHash {
    size_t operator()(const std::pair<uint64_t, int>& p) const { return p.first * 31 + static_cast<size_t>(p.second); }
  };
  std::unordered_set<uint64_t> seen;
  std::unordered_map<std::pair<uint64_t, int>, uint64_t, PairHash> next;
  std::vector<int> changers;  // the actions that changed some state's cost, in the order first seen
};

struct SearchOptions {
  SearchAlgo algo = SearchAlgo::kGreedy;
  double budget_seconds = 0;  // 0: none
  int64_t budget_steps = 0;   // 0: none (exhaustive: max_states bounds it)
  uint64_t seed = 1;
  int max_len = 30;           // longest order considered
  int patience = 50;          // random: orders without improvement before stopping
  int beam_width = 4;
  int population = 24, elite = 2;
  double mutation = 0.1;
  int64_t max_states = 200000;  // exhaustive
  // Policy-guided search (rl/guided_search.h). Beam: the actions tried from a state, in
  // that order (all when unset), up to children_per_state new states, so a policy's top
  // choices that change the state narrow the beam. Every algorithm: an order
  // replayed first, within the budget, so its result is a candidate the search can only beat.
  std::function<std::vector<int>(const Env&)> actions_to_try;
  int children_per_state = 0;  // beam: stop expanding a state after this many new states (0: all)
  std::vector<int> seed_actions;
  bool keep_best_state = false;  // SearchResult::best_state
  std::shared_ptr<SearchMemory> memory;  // beam: shared with other beams (none: its own)
};

struct SearchResult {
  std::vector<std::string> order;
  double cost = 0, initial_cost = 0;
  std::optional<double> default_cost;  // nullopt: the default order's result has no hardware cost
  std::string default_uncostable;      // why, then
  double instructions = 0;
  int64_t evaluations = 0;
  int64_t states = 0;       // distinct states seen (beam, exhaustive)
  double seconds = 0;
  bool optimal = false;     // exhaustive proved optimality
  bool budget_exhausted = false;
  int64_t refused = 0;      // steps refused: the pass led to a state without a hardware cost
  // With SearchOptions::keep_best_state: the environment in the best state, to go on from
  // (rl/guided_search.h). Not part of the wire form.
  std::optional<Env> best_state;
};

SearchResult search(const ir::Module& design, const std::string& design_id, const EnvOptions& env,
                    const SearchOptions& o);

// The same search from an episode's current state (a policy's end state, rl/guided_search.h):
// orders start with `start`'s own steps, max_len counts the passes after them, and
// `start` needs room for max_len + 1 more steps. Only the search's own pass runs are counted
// in `evaluations`; the default-order fields are left unset.
SearchResult search_from(const Env& start, const SearchOptions& o);

// Restarts: restart k is the same search with seed o.seed + k (restart 0 is the plain
// search), so restarts can run anywhere (threads, MPI ranks) and give the same result.
SearchOptions restart_options(const SearchOptions& o, int k);
// The best restart: the lowest cost, the earliest restart on ties; its evaluations,
// states, refused steps and seconds are summed over all restarts. `best` receives its index.
SearchResult best_restart(const std::vector<SearchResult>& restarts, int* best = nullptr);
std::string encode_search_result(const SearchResult& r);       // rl/wire.h bytes
SearchResult decode_search_result(const std::string& bytes);   // throws hlsgym::Error

}  // namespace hlsgym::rl
