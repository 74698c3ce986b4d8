// rl::Env as Gymnasium sees an environment: episodes over a set of graphs, each reset
// picking one with the env's own seeded generator, a step that never throws for a bad
// state, and an action mask. The Python module (python/) and rl::VectorEnv step this
// class, so a vectorized environment equals N single ones step for step by construction.
//
// Why a layer over Env: Env::step throws for a step after the episode ended, and a pass
// may throw on a graph it does not handle; a training run in Python must not die for
// that (CompilerGym's most reported failure). Here such a step returns reward 0,
// truncated = true and the message in `error`, and the env keeps its last good state.
// Actions out of range remain errors of the caller (the binding raises ValueError).
//
// The mask: action a is masked (0) when the pass was run in the current state and
// changed nothing or was refused; any change of state unmasks every pass. This is what
// rl::policy_order masks, and it costs nothing (no speculative pass runs). With
// set_exact_mask(true) every pass is also tried on a copy of each new state, so the mask
// is exactly "the passes that would change nothing" (refusals still show only once
// tried: they need the new state's hardware cost); that costs one run of every pass per
// state change, ~100x a step on the designs.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "ir/module.h"
#include "rl/env.h"

namespace hlsgym::rl {

using GraphSet = std::vector<std::pair<std::string, ir::Module>>;

struct GymStep {
  double reward = 0;
  bool terminated = false, truncated = false;
  bool changed = false, refused = false;
  int action = -1;
  std::string refusal;  // why the step was refused (refused)
  std::string error;    // non-empty: the step failed; the episode is truncated
};

class GymEnv {
 public:
  // Throws hlsgym::Error for bad options (unknown reward/observation names) or no graphs.
  GymEnv(std::shared_ptr<const GraphSet> graphs, EnvOptions options);

  // seed: restarts the generator (same seed, same episode); nullopt continues it (or
  // seeds from std::random_device on the first reset, as Gymnasium does). graph: an id
  // to start from instead of a random pick (throws naming the ids when unknown).
  // Throws hlsgym::Error when the picked graph has no hardware cost for the reward.
  void reset(std::optional<uint64_t> seed = std::nullopt, const std::string& graph = {});
  // action must be in [0, action_count()); never throws otherwise.
  GymStep step(int action);
  bool started() const { return started_; }
  bool done() const { return done_; }

  // The observation of the current state, appended to `out` as float (the Box dtype).
  void observation(float* out) const;
  int observation_size() const { return observation_size_; }
  const std::vector<uint8_t>& action_mask() const { return mask_; }
  void set_exact_mask(bool exact) { exact_mask_ = exact; }
  bool exact_mask() const { return exact_mask_; }
  static int action_count() { return Env::action_count(); }
  // Lower bound of every observation entry (upper bounds are +inf): -1 where the cost
  // observation marks a hardware cost the model cannot compute, 0 elsewhere.
  std::vector<float> observation_low() const;

  Env& env() { return env_; }
  const Env& env() const { return env_; }
  const GraphSet& graphs() const { return *graphs_; }
  const std::string& graph_id() const { return graph_id_; }
  size_t graph_index() const { return graph_index_; }  // graph_id()'s position in graphs()
  uint64_t episode_seed() const { return episode_seed_; }
  // Independent copy in the same state (own passes, own generator state).
  GymEnv fork() const;
  // Resets to the state's graph and replays its passes (throws for an unknown graph or pass).
  void replay(const EnvState& s);

 private:
  std::shared_ptr<const GraphSet> graphs_;
  Env env_;
  std::mt19937_64 rng_;
  bool seeded_ = false, started_ = false, done_ = false;
  std::string graph_id_;
  size_t graph_index_ = 0;
  uint64_t episode_seed_ = 0;
  int observation_size_ = 0;
  std::vector<uint8_t> mask_;
  bool exact_mask_ = false;
  // Pass objects of the exact mask's trial runs, per env (forks get their own).
  std::shared_ptr<std::vector<passes::PassPtr>> trial_passes_;
  void try_every_pass();
  std::vector<ObservationKind> kinds_;
};

}  // namespace hlsgym::rl
