#include "rl/env.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "ir/error.h"
#include "ir/module_hash.h"
#include "passes/default_order.h"
#include "passes/registry.h"
#include "rl/graph_wl.h"

namespace hlsgym::rl {
namespace {

const std::vector<passes::PassInfo>& actions() { return passes::Registry::global().all(); }

// x / initial, or x itself where the initial value is 0 (nothing to normalize by).
double relative(double x, double initial) { return initial != 0 ? x / initial : x; }

}  // namespace

std::string EnvState::to_text() const {
  std::string s = design + "|";
  for (size_t k = 0; k < passes.size(); ++k) s += (k ? "," : "") + passes[k];
  return s;
}

EnvState EnvState::from_text(const std::string& text) {
  const size_t bar = text.rfind('|');
  if (bar == std::string::npos) throw Error("environment state '" + text + "' is not DESIGN|pass,pass,...");
  EnvState s;
  s.design = text.substr(0, bar);
  std::string cur;
  for (size_t k = bar + 1; k <= text.size(); ++k) {
    if (k == text.size() || text[k] == ',') {
      if (!cur.empty()) s.passes.push_back(cur);
      cur.clear();
    } else if (text[k] != ' ' && text[k] != '\n') {
      cur += text[k];
    }
  }
  for (const auto& p : s.passes) passes::Registry::global().create(p);  // unknown names throw here
  return s;
}

Env::Env(EnvOptions options)
    : options_(std::move(options)),
      obs_kinds_(parse_observation_space(options_.observation)),
      reward_kind_(parse_reward_space(options_.reward)),
      available_actions_(options_.actions == 0 ? action_count() : options_.actions),
      passes_(std::make_shared<std::vector<passes::PassPtr>>(actions().size())) {
  if (options_.max_steps <= 0) throw Error("episode length must be positive");
  if (options_.actions < 0 || options_.actions > action_count())
    throw Error(fmt::format("the environment's action count must be in 0..{} (0: all), got {}", action_count(),
                            options_.actions));
  if (!(options_.gamma > 0 && options_.gamma <= 1)) throw Error("gamma must be in (0, 1]");
  if (options_.log_ratio && options_.normalize_by_default)
    throw Error("the reward is either log(cost before / cost after) or divided by the default order's gain, not both");
  const bool cost_obs = std::find(obs_kinds_.begin(), obs_kinds_.end(), ObservationKind::kCost) != obs_kinds_.end();
  hardware_reward_ = needs_hardware(reward_kind_);
  need_hardware_ = hardware_reward_ || (cost_obs && options_.target);
  if (needs_hardware(reward_kind_) && !options_.target)
    throw Error("reward '" + options_.reward + "' needs a hardware target (--target fpga|cpu|FILE)");
  need_graph_wl_ = std::find(obs_kinds_.begin(), obs_kinds_.end(), ObservationKind::kGraphWl) != obs_kinds_.end();
  if (options_.memo_instructions < 0) throw Error("the transition memo's instruction budget must be >= 0");
  cache_ = std::make_shared<MetricsCache>(options_.target.get(), options_.estimate);
  memo_ = std::make_shared<TransitionMemo>(options_.memo_instructions, options_.memo_unchanged);
  default_costs_ = std::make_shared<DefaultCosts>();
  refusals_ = std::make_shared<Refusals>();
}

int Env::action_count() { return static_cast<int>(actions().size()); }
const std::string& Env::action_name(int action) { return actions().at(static_cast<size_t>(action)).name; }

void Env::unshare_passes() { passes_ = std::make_shared<std::vector<passes::PassPtr>>(actions().size()); }

// `for_observation`: the state may be observed (an episode's state), so the graph-wl counts
// are wanted too; a module only costed (the default order's result) needs no counts.
std::shared_ptr<const Metrics> Env::measure(const ir::Module& m, uint64_t hash, bool for_observation) const {
  return cache_->get(m, hash, {need_hardware_, need_graph_wl_ && for_observation});
}

double Env::cost_of(const Metrics& m) const {
  const HardwareCost& h = m.hardware;
  switch (reward_kind_) {
    case RewardKind::kOpcount: return m.instructions();
    case RewardKind::kCycles: return h.cycles;
    case RewardKind::kEnergy: return h.energy_pj;
    case RewardKind::kArea: return h.area;
    case RewardKind::kMemory: return h.memory_bytes;
    case RewardKind::kHw: {
      const HardwareCost& h0 = initial_metrics_->hardware;
      double c = 0;
      for (const auto& [k, w] : options_.hw_weights) {
        if (k == "cycles") c += w * relative(h.cycles, h0.cycles);
        if (k == "energy") c += w * relative(h.energy_pj, h0.energy_pj);
        if (k == "area") c += w * relative(h.area, h0.area);
        if (k == "memory") c += w * relative(h.memory_bytes, h0.memory_bytes);
      }
      return c;
    }
  }
  return 0;
}

double Env::log_ratio_reward(double before, double after) const {
  if (before <= 0 || after <= 0)
    throw Error(fmt::format("design '{}': the log-ratio reward needs positive costs, the reward '{}' gave {} and {}",
                            design_id_, options_.reward, before, after));
  return before == after ? 0.0 : std::log(before / after);
}

std::string Env::unknown_cost(const Metrics& m) const {
  return hardware_reward_ && m.has_hardware && !m.hardware.known() ? m.hardware.unknown : std::string();
}

std::optional<double> Env::cost_of_module(const ir::Module& m) const {
  const auto metrics = measure(m, ir::structural_hash(m), false);
  if (!unknown_cost(*metrics).empty()) return std::nullopt;
  return cost_of(*metrics);
}

std::string Env::uncostable(const ir::Module& m) const { return unknown_cost(*measure(m, ir::structural_hash(m), false)); }

double Env::potential(const Metrics& m) const {
  const auto& f0 = initial_metrics_->features;
  const double base = f0.flops + 2 * f0.transcendentals;
  return -relative(m.features.flops + 2 * m.features.transcendentals, base);
}

std::vector<double> Env::reset(const ir::Module& design, const std::string& design_id, uint64_t seed) {
  auto copy = std::make_shared<const ir::Module>(design);
  const uint64_t hash = ir::structural_hash(*copy);
  return reset(std::move(copy), hash, design_id, seed);
}

std::vector<double> Env::reset(std::shared_ptr<const ir::Module> design, uint64_t design_hash,
                               const std::string& design_id, uint64_t seed) {
  design_id_ = design_id;
  seed_ = seed;
  initial_ = std::move(design);
  current_ = initial_;
  owned_ = false;
  initial_hash_ = hash_ = design_hash;
  metrics_ = initial_metrics_ = measure(*current_, hash_);
  if (const std::string why = unknown_cost(*initial_metrics_); !why.empty())
    throw Error(fmt::format("design '{}' has no hardware cost for the reward '{}' (the model would have to guess): {}",
                            design_id, options_.reward, why));
  actions_.clear();
  steps_ = 0;
  histogram_.assign(static_cast<size_t>(available_actions_), 0);
  reassociated_ = false;
  scale_ = 1;
  if (options_.normalize_by_default) {
    std::optional<std::optional<double>> default_cost;  // nullopt inside: the default order's result has no cost
    {
      std::lock_guard<std::mutex> lock(default_costs_->mu);
      if (auto it = default_costs_->cost.find(hash_); it != default_costs_->cost.end()) default_cost = it->second;
    }
    if (!default_cost) {  // outside the lock: another thread may compute the same, equal cost
      ir::Module d = *initial_;
      passes::make_default_order()->run(d);
      default_cost = cost_of_module(d);
      std::lock_guard<std::mutex> lock(default_costs_->mu);
      default_costs_->cost.emplace(hash_, *default_cost);
    }
    // Where the default order gains nothing, or leaves a state without a hardware cost,
    // the scale is the initial cost (a normalizer, not a cost: rewards stay exact).
    const double gain = *default_cost ? initial_cost() - **default_cost : 0.0;
    scale_ = gain > 0 ? gain : std::max(initial_cost(), 1e-12);
  }
  return observation();
}

StepResult Env::step(int action) {
  if (action < 0 || action >= available_actions_)
    throw Error(fmt::format("action {} is out of range (0..{})", action, available_actions_ - 1));
  if (steps_ >= options_.max_steps) throw Error("step after the episode ended; call reset()");
  auto& pass = (*passes_)[static_cast<size_t>(action)];
  if (!pass) pass = actions()[static_cast<size_t>(action)].make();
  StepResult r;
  r.info.pass = pass->name();
  const std::shared_ptr<const Metrics> before = metrics_;
  if (hardware_reward_) r.info.refusal = refusals_->find(hash_, action);
  if (!r.info.refusal.empty()) {
    r.info.refused = true;  // known from an earlier visit: the pass is not run again
  } else if (const std::optional<TransitionMemo::Outcome> known = memo_->find(hash_, action)) {
    if (known->changed) {  // the pass's result, as it was when first run (never a refused one)
      current_ = known->next;
      owned_ = false;
      hash_ = known->next_hash;
      metrics_ = measure(*current_, hash_);
      r.info.changed = true;
      reassociated_ |= pass->reassociates_floats();
    }
  } else {
    run_pass(action, *pass, r);
  }
  if (r.info.refused) cache_->count_refused_step();
  ++steps_;
  if (!r.info.refused) {
    actions_.push_back(action);
    ++histogram_[static_cast<size_t>(action)];
  }
  r.truncated = steps_ >= options_.max_steps;
  r.reward = options_.log_ratio ? log_ratio_reward(cost_of(*before), cost_of(*metrics_))
                                : (cost_of(*before) - cost_of(*metrics_)) / scale_;
  // The state after the last step is terminal, and a terminal state's potential is 0:
  // then the shaped return is the plain return minus phi(s0) for every order, so
  // shaping cannot change which order is best (Ng, Harada & Russell 1999).
  if (options_.shaping) r.reward += (r.truncated ? 0.0 : options_.gamma * potential(*metrics_)) - potential(*before);
  r.info.instructions = metrics_->instructions();
  r.info.cost = cost_of(*metrics_);
  r.observation = observation();
  return r;
}

// A step the memo does not know: the pass runs on the current module when this env owns it
// alone, else on a copy (the states the memo, a fork or the graph set hold never change).
void Env::run_pass(int action, passes::Pass& pass, StepResult& r) {
  const std::shared_ptr<const Metrics> before = metrics_;
  const uint64_t before_hash = hash_;
  const bool in_place = owned_ && current_.use_count() == 1;
  // const_cast is sound: an owned module was made by this env as a mutable ir::Module.
  const std::shared_ptr<ir::Module> work =
      in_place ? std::const_pointer_cast<ir::Module>(current_) : std::make_shared<ir::Module>(*current_);
  r.info.changed = pass.run(*work);
  if (!r.info.changed) {
    memo_->add_unchanged(before_hash, action);
    // The copy is the current state (the pass changed nothing): keep it, so the next
    // passes run in place instead of copying the shared state again for each of them
    // (after a change the memo holds the state, so every miss would copy it).
    if (!in_place) {
      current_ = work;
      owned_ = true;
    }
    return;
  }
  const uint64_t next_hash = ir::structural_hash(*work);
  std::shared_ptr<const Metrics> next = measure(*work, next_hash);
  if (std::string why = unknown_cost(*next); !why.empty()) {
    refusals_->add(before_hash, action, why);
    if (in_place) restore(before_hash);  // a copy leaves the current module as it was
    metrics_ = before;
    r.info.changed = false;
    r.info.refused = true;
    r.info.refusal = std::move(why);
    return;
  }
  current_ = work;
  owned_ = true;
  hash_ = next_hash;
  metrics_ = std::move(next);
  reassociated_ |= pass.reassociates_floats();
  memo_->add_changed(before_hash, action, hash_, current_);
}

// Back to the state before a refused step: the episode's applied passes replayed on
// the initial module (passes are deterministic; refusals are rare and then cached).
void Env::restore(uint64_t expected_hash) {
  auto m = std::make_shared<ir::Module>(*initial_);
  for (int a : actions_) {
    auto& pass = (*passes_)[static_cast<size_t>(a)];
    if (!pass) pass = actions()[static_cast<size_t>(a)].make();
    pass->run(*m);
  }
  current_ = m;
  owned_ = true;
  hash_ = ir::structural_hash(*current_);
  if (hash_ != expected_hash)
    throw Error(fmt::format("internal error: replaying the episode of '{}' did not reproduce its state", design_id_));
}

std::string Env::Refusals::find(uint64_t hash, int action) {
  std::lock_guard<std::mutex> lock(mu);
  const auto it = why.find({hash, action});
  return it == why.end() ? std::string() : it->second;
}

void Env::Refusals::add(uint64_t hash, int action, const std::string& reason) {
  std::lock_guard<std::mutex> lock(mu);
  why.emplace(std::make_pair(hash, action), reason);
}

StepResult Env::step(const std::string& pass_name) {
  const auto& all = actions();
  auto it = std::find_if(all.begin(), all.end(), [&](const passes::PassInfo& p) { return p.name == pass_name; });
  if (it == all.end()) passes::Registry::global().create(pass_name);  // throws with a suggestion
  const int action = static_cast<int>(it - all.begin());
  if (action >= available_actions_)
    throw Error(fmt::format("pass '{}' (action {}) is not among this environment's {} actions", pass_name, action,
                            available_actions_));
  return step(action);
}

EnvState Env::state() const {
  EnvState s;
  s.design = design_id_;
  for (int a : actions_) s.passes.push_back(action_name(a));
  return s;
}

std::vector<double> Env::replay(const EnvState& s) {
  if (s.design != design_id_)
    throw Error("state of design '" + s.design + "' replayed on an environment of design '" + design_id_ + "'");
  reset(initial_, initial_hash_, design_id_, seed_);
  for (const auto& p : s.passes) step(p);
  return observation();
}

passes::EquivalenceResult Env::validate(const passes::EquivalenceOptions& o) const {
  passes::EquivalenceOptions opts = o;
  opts.seed = seed_;
  opts.float_tolerance = opts.float_tolerance || reassociated_;
  return passes::check_equivalence(*initial_, *current_, opts);
}

int Env::observation_size() const { return static_cast<int>(observation().size()); }

void Env::append_observation(ObservationKind k, std::vector<double>& out) const {
  const Metrics& m = *metrics_;
  const Metrics& m0 = *initial_metrics_;
  switch (k) {
    case ObservationKind::kOpcount: {
      const double n0 = std::max(1.0, m0.instructions());
      for (int32_t c : m.features.opcode_counts) out.push_back(c / n0);
      break;
    }
    case ObservationKind::kFeatures: {
      const auto v = m.features.to_vector(), v0 = m0.features.to_vector();
      for (size_t i = 0; i < v.size(); ++i) out.push_back(relative(v[i], v0[i]));
      break;
    }
    case ObservationKind::kCost: {
      const auto& f = m.features;
      const auto& f0 = m0.features;
      const auto& h = m.hardware;
      const auto& h0 = m0.hardware;
      for (auto [x, x0] : {std::pair{m.instructions(), m0.instructions()}, {f.flops, f0.flops},
                           {f.transcendentals, f0.transcendentals}, {f.bytes_accessed, f0.bytes_accessed}})
        out.push_back(relative(x, x0));
      // A hardware cost the model cannot compute (possible only when the reward does not
      // need it) is observed as -1, never as a number that looks like a cost.
      const bool known = h.known() && h0.known();
      for (auto [x, x0] : {std::pair{h.cycles, h0.cycles}, {h.energy_pj, h0.energy_pj}, {h.area, h0.area},
                           {h.memory_bytes, h0.memory_bytes}})
        out.push_back(known ? relative(x, x0) : -1.0);
      break;
    }
    case ObservationKind::kHistory:
      for (int c : histogram_) out.push_back(static_cast<double>(c) / options_.max_steps);
      break;
    case ObservationKind::kGraphWl: {
      const std::vector<double>& counts = m.graph_wl;
      const double n0 = std::max(1.0, m0.instructions());
      for (int i = 0; i < kGraphWlSize; ++i) out.push_back(counts[static_cast<size_t>(i)] / (i == kWlDepthIndex ? kWlDepthScale : n0));
      break;
    }
    case ObservationKind::kGnn:  // the agent's encoder reads the module itself
      break;
  }
}

std::vector<double> Env::observation() const {
  std::vector<double> out;
  for (ObservationKind k : obs_kinds_) append_observation(k, out);
  return out;
}

std::string Env::render() const {
  std::string s = fmt::format("design {}  step {}/{}  reward space {}\n", design_id_, actions_.size(),
                              options_.max_steps, options_.reward);
  s += fmt::format("  instructions {:.0f} (initial {:.0f})  flops {:.4g}  transcendentals {:.4g}\n",
                   metrics_->instructions(), initial_metrics_->instructions(), metrics_->features.flops,
                   metrics_->features.transcendentals);
  if (metrics_->has_hardware && !metrics_->hardware.known())
    s += "  hardware cost unknown: " + metrics_->hardware.unknown + "\n";
  else if (metrics_->has_hardware)
    s += fmt::format("  cycles {:.0f}  energy {:.4g} pJ  area {:.4f}  memory {:.0f} B\n", metrics_->hardware.cycles,
                     metrics_->hardware.energy_pj, metrics_->hardware.area, metrics_->hardware.memory_bytes);
  s += fmt::format("  cost {:.6g} (initial {:.6g})\n  passes:", cost(), initial_cost());
  for (int a : actions_) s += " " + action_name(a);
  return s + "\n";
}

CostableSplit split_costable(std::vector<std::pair<std::string, ir::Module>> graphs, const EnvOptions& o) {
  CostableSplit out;
  if (!needs_hardware(parse_reward_space(o.reward))) {
    out.kept = std::move(graphs);
    return out;
  }
  const Env env(o);
  for (auto& [id, g] : graphs) {
    if (std::string why = env.uncostable(g); !why.empty()) out.left_out.emplace_back(id, std::move(why));
    else out.kept.emplace_back(std::move(id), std::move(g));
  }
  return out;
}

}  // namespace hlsgym::rl
