// The pass-ordering environment (XLA Gym's reset/step with CompilerGym's named spaces,
// fork, replayable state and validation), in process.
//
// An episode starts from a design (a module and an id naming it), an action is an index
// into passes::Registry::global().all() (the `hlsgym passes` list), and a step runs that
// pass on the current module in place. A pass that reports no change leaves the module,
// its hash and its metrics as they were, so a no-op step costs the pass's own search and
// nothing else. Episodes are truncated after `max_steps` steps; there is no terminal
// state (any pass may still apply).
//
// Reward of a step: (cost(s) - cost(s')) / scale, where cost is the reward space's
// quantity and scale is 1, or, with normalize_by_default, the initial cost minus the
// cost after XLA's default order (so an episode's rewards sum to 1.0 when it matches the
// default order; CompilerGym's "...Oz" rewards). Where the default order gains nothing,
// scale is the initial cost. With log_ratio instead, the reward is log(cost(s) / cost(s')):
// an episode's return is log(initial / final cost) whatever the graph's size, so a design
// of 3 cycles and one of 2,600 weigh alike and a speed-up of 2x is worth the same on both
// (the robust choice for hardware costs, which span orders of magnitude; README "Shipped
// hardware policies"). It needs positive costs: a state of cost <= 0 is an Error.
// With shaping (Ganai et al.), reward += gamma*phi(s') - phi(s),
// phi(s) = -(flops(s) + 2 transcendentals(s)) / (flops(s0) + 2 transcendentals(s0)),
// and phi = 0 after the episode's last step (terminal): potential-based, so the optimal
// order is unchanged (Ng et al. 1999).
//
// Honest hardware costs: a hardware reward is never computed from a guess. A state the
// hardware model cannot cost (a while loop whose trip count is not proven, an op without
// a cost model) is never entered: reset() on such a design throws hlsgym::Error (the
// reason `report` gives, with its file:line), and a step whose pass would lead to one is
// refused: the module stays as it was, info.refused and info.refusal say so, the reward
// is 0 (plus shaping) as for a pass that changed nothing, and the pass is not part of
// state() (so every order an agent or a search reports replays through costed states).
// A refused step counts towards max_steps. uncostable() tells callers (train, evaluate,
// collect) which designs to leave out before they start.
#pragma once
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <string>
#include <utility>
#include <vector>

#include "hwmodel/estimate.h"
#include "hwmodel/target.h"
#include "ir/module.h"
#include "passes/equivalence.h"
#include "passes/pass.h"
#include "rl/metrics.h"
#include "rl/spaces.h"
#include "rl/transition_memo.h"

namespace hlsgym::rl {

struct EnvOptions {
  int max_steps = 30;
  std::string observation = "opcount";  // see spaces.h; '+' joins spaces
  std::string reward = "opcount";
  HwWeights hw_weights = {{"cycles", 1.0}};
  bool normalize_by_default = false;
  bool log_ratio = false;  // reward log(cost before / cost after); exclusive with normalize_by_default
  bool shaping = false;
  // The action space is the first `actions` passes of the list (0: all of them): a policy
  // written for an older, shorter list (rl/action_names.h) sees only its own actions, and
  // search --no-directives the passes before the directives (passes/registry.h).
  int actions = 0;
  double gamma = 0.99;
  // Needed by the hardware rewards and the hardware part of the cost observation.
  std::shared_ptr<const hwmodel::Target> target;
  // Instructions the transition memo (rl/transition_memo.h) may hold in the next states it
  // remembers (~0.5 kB each); 0 stores none (the passes that changed nothing in a state
  // are remembered whatever the budget). It changes the speed, never a result.
  // 0 by default: the states it holds are shared, so the step after a memoized one
  // must copy the module before running a pass, and since no-op steps keep their copy
  // (Env::run_pass) training on the train split is faster without them (README "Speed":
  // BM_TrainSplitRecipe) and needs no gigabytes for them.
  int64_t memo_instructions = 0;
  // Remember the passes that changed nothing in a state (a hit skips the pass; no state is
  // held). Off only in tests that compare against an environment without any memo.
  bool memo_unchanged = true;
  hwmodel::EstimateOptions estimate = [] {
    hwmodel::EstimateOptions o;
    o.lenient = true;  // real HLO has ops without a cost model; cost them as moves
    return o;
  }();
};

struct StepInfo {
  std::string pass;
  bool changed = false;
  bool refused = false;  // the pass would have led to a state without a hardware cost
  std::string refusal;   // why (when refused)
  double instructions = 0;
  double cost = 0;  // the reward space's cost of the new state
};

struct StepResult {
  std::vector<double> observation;
  double reward = 0;
  bool terminated = false, truncated = false;
  StepInfo info;
};

// (design id, actions taken): replays exactly. Text form: "DESIGN_ID|a1,a2,...", with
// actions as pass names (stable across registry growth).
struct EnvState {
  std::string design;
  std::vector<std::string> passes;
  std::string to_text() const;
  static EnvState from_text(const std::string& text);  // throws hlsgym::Error
};

class Env {
 public:
  explicit Env(EnvOptions options);

  // Starts an episode on `design` (copied; the id is what state() reports). `seed` feeds
  // validate()'s random inputs.
  std::vector<double> reset(const ir::Module& design, const std::string& design_id, uint64_t seed = 1);
  // The same on a shared, immutable design whose structural hash the caller knows (a
  // training set resets on the same graphs thousands of times: no copy, no hash).
  std::vector<double> reset(std::shared_ptr<const ir::Module> design, uint64_t design_hash, const std::string& design_id,
                            uint64_t seed = 1);
  StepResult step(int action);
  StepResult step(const std::string& pass_name);
  // An independent copy in the current state (sharing only the thread-safe caches).
  Env fork() const { return *this; }
  EnvState state() const;
  // Resets to this env's design and applies the state's passes; the design ids must match.
  std::vector<double> replay(const EnvState& s);
  // optimize --check on the current module against the initial one.
  passes::EquivalenceResult validate(const passes::EquivalenceOptions& o = {}) const;
  std::string render() const;

  static int action_count();  // every action of this build
  static const std::string& action_name(int action);
  // This env's actions, 0..available_actions()-1 (EnvOptions::actions).
  int available_actions() const { return available_actions_; }
  int observation_size() const;
  const ir::Module& module() const { return *current_; }
  const ir::Module& initial_module() const { return *initial_; }
  const Metrics& metrics() const { return *metrics_; }
  const Metrics& initial_metrics() const { return *initial_metrics_; }
  double cost() const { return cost_of(*metrics_); }
  // The reward space's cost of any module, relative to this episode's initial state
  // where the space is relative (hw); e.g. the cost after XLA's default order.
  // nullopt when the reward needs a hardware cost the model cannot compute for `m`.
  std::optional<double> cost_of_module(const ir::Module& m) const;
  // Why the reward space cannot cost module `m` (empty: it can). Cached like any state.
  std::string uncostable(const ir::Module& m) const;
  double initial_cost() const { return cost_of(*initial_metrics_); }
  double reward_scale() const { return scale_; }
  int steps() const { return steps_; }
  uint64_t state_hash() const { return hash_; }
  std::vector<double> observation() const;
  const EnvOptions& options() const { return options_; }
  const MetricsCache& cache() const { return *cache_; }
  const TransitionMemo& memo() const { return *memo_; }

 private:
  double cost_of(const Metrics& m) const;
  double log_ratio_reward(double before, double after) const;
  std::string unknown_cost(const Metrics& m) const;  // empty: the reward space can cost m
  bool hardware_reward_ = false;
  double potential(const Metrics& m) const;
  std::shared_ptr<const Metrics> measure(const ir::Module& m, uint64_t hash, bool for_observation = true) const;
  void run_pass(int action, passes::Pass& pass, StepResult& r);
  void append_observation(ObservationKind k, std::vector<double>& out) const;
  void restore(uint64_t expected_hash);

  EnvOptions options_;
  std::vector<ObservationKind> obs_kinds_;
  RewardKind reward_kind_;
  int available_actions_;
  bool need_hardware_;
  bool need_graph_wl_ = false;
  std::shared_ptr<MetricsCache> cache_;
  std::shared_ptr<TransitionMemo> memo_;  // shared by forks
  // The default order's cost per initial state (normalize_by_default): running the default
  // order on every reset of a 40k-instruction graph would cost ~0.3 s a reset. Shared by
  // forks, which may run on other threads, hence the lock.
  struct DefaultCosts {
    std::mutex mu;
    std::unordered_map<uint64_t, std::optional<double>> cost;
  };
  std::shared_ptr<DefaultCosts> default_costs_;
  // (state hash, action) pairs refused because the pass leads to a state without a
  // hardware cost, with the reason; shared by forks, so a refusal is found once.
  struct PairHash {
    size_t operator()(const std::pair<uint64_t, int>& p) const { return p.first * 31 + static_cast<size_t>(p.second); }
  };
  struct Refusals {
    std::mutex mu;
    std::unordered_map<std::pair<uint64_t, int>, std::string, PairHash> why;
    std::string find(uint64_t hash, int action);
    void add(uint64_t hash, int action, const std::string& reason);
  };
  std::shared_ptr<Refusals> refusals_;
  // One pass object per action, created lazily, shared by forks (passes keep no state
  // between runs beyond reusable scratch, which is not shared across threads: forks
  // used on other threads must call unshare_passes()).
  std::shared_ptr<std::vector<passes::PassPtr>> passes_;

  std::string design_id_;
  uint64_t seed_ = 1;
  // Immutable states, shared with the memo, the caller's graph set and forks; current_ is
  // changed in place only when this env made it and nobody else holds it (owned_).
  std::shared_ptr<const ir::Module> initial_, current_;
  bool owned_ = false;
  uint64_t initial_hash_ = 0, hash_ = 0;
  std::shared_ptr<const Metrics> metrics_, initial_metrics_;
  std::vector<int> actions_;  // applied or no-op steps (refused ones are left out)
  int steps_ = 0;             // every step, refused ones included
  std::vector<int> histogram_;
  bool reassociated_ = false;  // a pass that may reround floats has changed the module
  double scale_ = 1;

 public:
  // Gives this env its own pass objects (for use on another thread than its origin).
  void unshare_passes();
};

// Graphs split by whether an environment with options `o` can cost them: all are kept
// unless the reward needs a hardware cost the model cannot compute (then left out, with
// the reason). train, collect and evaluate use it before they start.
struct CostableSplit {
  std::vector<std::pair<std::string, ir::Module>> kept;
  std::vector<std::pair<std::string, std::string>> left_out;  // graph id, why
};
CostableSplit split_costable(std::vector<std::pair<std::string, ir::Module>> graphs, const EnvOptions& o);

}  // namespace hlsgym::rl
