#include "rl/gym_env.h"

#include <fmt/format.h>

#include <algorithm>

#include "ir/error.h"
#include "passes/registry.h"

namespace hlsgym::rl {
namespace {

int kind_size(ObservationKind k) { return observation_kind_size(k, Env::action_count()); }

}  // namespace

GymEnv::GymEnv(std::shared_ptr<const GraphSet> graphs, EnvOptions options)
    : graphs_(std::move(graphs)), env_(std::move(options)),
      kinds_(parse_observation_space(env_.options().observation)) {
  if (!graphs_ || graphs_->empty()) throw Error("the environment needs at least one graph");
  // Training takes every action of this build (its policies record them all).
  if (env_.available_actions() != action_count())
    throw Error("the training environment takes every action; EnvOptions::actions must be 0");
  for (ObservationKind k : kinds_) observation_size_ += kind_size(k);
  mask_.assign(static_cast<size_t>(action_count()), 1);
}

std::vector<float> GymEnv::observation_low() const {
  std::vector<float> low;
  for (ObservationKind k : kinds_) {
    const int n = kind_size(k);
    for (int i = 0; i < n; ++i) low.push_back(k == ObservationKind::kCost && i >= 4 ? -1.0f : 0.0f);
  }
  return low;
}

void GymEnv::reset(std::optional<uint64_t> seed, const std::string& graph) {
  if (seed) rng_.seed(*seed), seeded_ = true;
  if (!seeded_) rng_.seed(std::random_device{}()), seeded_ = true;
  // Two draws per reset whatever `graph` says, so the generator's stream (and thus later
  // episodes) does not depend on whether a graph was named.
  const uint64_t pick = rng_(), episode_seed = rng_();
  size_t index = pick % graphs_->size();
  if (!graph.empty()) {
    const auto it = std::find_if(graphs_->begin(), graphs_->end(), [&](const auto& g) { return g.first == graph; });
    if (it == graphs_->end()) {
      std::string ids;
      for (size_t k = 0; k < graphs_->size() && k < 20; ++k) ids += (k ? ", " : "") + (*graphs_)[k].first;
      if (graphs_->size() > 20) ids += fmt::format(", ... ({} graphs)", graphs_->size());
      throw Error("unknown graph '" + graph + "'; the environment's graphs are: " + ids);
    }
    index = static_cast<size_t>(it - graphs_->begin());
  }
  const auto& [id, module] = (*graphs_)[index];
  started_ = false;
  env_.reset(module, id, episode_seed);  // throws for a design without a hardware cost
  graph_id_ = id;
  graph_index_ = index;
  episode_seed_ = episode_seed;
  started_ = true;
  done_ = false;
  std::fill(mask_.begin(), mask_.end(), uint8_t{1});
  if (exact_mask_) try_every_pass();
}

void GymEnv::try_every_pass() {
  const auto& all = passes::Registry::global().all();
  if (!trial_passes_) trial_passes_ = std::make_shared<std::vector<passes::PassPtr>>(all.size());
  for (size_t a = 0; a < all.size(); ++a) {
    if (!mask_[a]) continue;  // already known to change nothing here
    auto& pass = (*trial_passes_)[a];
    if (!pass) pass = all[a].make();
    ir::Module trial = env_.module();  // copies share payloads: cheap
    try {
      mask_[a] = pass->run(trial) ? 1 : 0;
    } catch (const std::exception&) {
      mask_[a] = 0;  // a pass that fails here would fail the step too
    }
  }
}

GymStep GymEnv::step(int action) {
  GymStep s;
  s.action = action;
  if (!started_ || done_) {
    s.error = started_ ? "step after the episode ended; call reset()" : "step before reset(); call reset() first";
    s.truncated = true;
    return s;
  }
  try {
    StepResult r = env_.step(action);
    s.reward = r.reward;
    s.terminated = r.terminated;
    s.truncated = r.truncated;
    s.changed = r.info.changed;
    s.refused = r.info.refused;
    if (s.refused) s.refusal = std::move(r.info.refusal);
  } catch (const std::exception& e) {
    // The module may be half rewritten: the environment stays usable for reset() only.
    s = GymStep{};
    s.action = action;
    s.error = fmt::format("pass '{}' failed: {}", Env::action_name(action), e.what());
    s.truncated = true;
    done_ = true;
    return s;
  }
  if (s.changed) {
    std::fill(mask_.begin(), mask_.end(), uint8_t{1});
    if (exact_mask_) try_every_pass();
  } else {
    mask_[static_cast<size_t>(action)] = 0;
  }
  done_ = s.terminated || s.truncated;
  return s;
}

void GymEnv::observation(float* out) const {
  if (!started_) {
    std::fill(out, out + observation_size_, 0.0f);
    return;
  }
  const std::vector<double> v = env_.observation();
  std::copy(v.begin(), v.end(), out);
}

GymEnv GymEnv::fork() const {
  GymEnv copy = *this;
  copy.env_.unshare_passes();  // the copy may be stepped on another thread
  copy.trial_passes_.reset();
  return copy;
}

void GymEnv::replay(const EnvState& s) {
  const auto& all = passes::Registry::global().all();
  std::vector<int> actions;
  for (const std::string& p : s.passes) {
    const auto it = std::find_if(all.begin(), all.end(), [&](const passes::PassInfo& i) { return i.name == p; });
    if (it == all.end()) passes::Registry::global().create(p);  // throws naming the closest pass
    actions.push_back(static_cast<int>(it - all.begin()));
  }
  reset(std::nullopt, s.design);
  for (int a : actions)
    if (const GymStep r = step(a); !r.error.empty()) throw Error("replaying '" + s.to_text() + "': " + r.error);
}

}  // namespace hlsgym::rl
