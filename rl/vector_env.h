// N GymEnvs stepped together on a small persistent thread pool, in the spirit of EnvPool:
// one call steps every environment, results land in caller-owned flat buffers (the
// Python binding hands NumPy arrays' memory straight in, with the GIL released).
//
// Autoreset follows Gymnasium 1.x's default ("next step"): the step after an
// environment's episode ended resets it instead, ignoring its action, and reports the
// reset observation with reward 0 and terminated = truncated = false. Environment i is
// exactly a GymEnv reset with seed + i and then stepped with the same actions (reset
// without a seed after each episode), whatever the thread count: environments share
// only thread-safe caches, never an episode.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "rl/gym_env.h"

namespace hlsgym::rl {

// Persistent workers: a fresh std::thread per call would cost tens of microseconds,
// which is the time of a whole batch of steps on small designs.
class WorkerPool {
 public:
  explicit WorkerPool(int threads);  // threads counts the caller's, which works too
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  // fn(item) for every item in [0, items); rethrows the lowest item's failure.
  void run(int items, const std::function<void(int)>& fn);
  int threads() const { return static_cast<int>(workers_.size()) + 1; }

 private:
  void work();
  void loop();
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable wake_, finished_;
  uint64_t generation_ = 0;
  int busy_ = 0;
  bool stop_ = false;
  const std::function<void(int)>* fn_ = nullptr;
  int items_ = 0;
  std::atomic<int> next_{0};
  std::vector<std::string> errors_;
};

struct VectorStepBuffers {
  float* observations = nullptr;  // num_envs x observation_size
  double* rewards = nullptr;
  uint8_t *terminated = nullptr, *truncated = nullptr;
  uint8_t *changed = nullptr, *refused = nullptr, *failed = nullptr;
  uint8_t* action_masks = nullptr;  // num_envs x action_count
};

class VectorEnv {
 public:
  VectorEnv(std::shared_ptr<const GraphSet> graphs, EnvOptions options, int num_envs, int threads);
  int num_envs() const { return static_cast<int>(envs_.size()); }
  int observation_size() const { return envs_[0].observation_size(); }
  // seed: environment i restarts from seed + i; nullopt: each continues its generator.
  void reset(std::optional<uint64_t> seed, const VectorStepBuffers& out);
  // actions: num_envs entries, each in [0, action_count) (checked by the caller).
  void step(const int64_t* actions, const VectorStepBuffers& out);
  const GymEnv& env(int i) const { return envs_[static_cast<size_t>(i)]; }
  void set_exact_mask(bool exact) {
    for (auto& e : envs_) e.set_exact_mask(exact);
  }
  // Messages of the last step's failed environments (index, message).
  const std::vector<std::pair<int, std::string>>& errors() const { return errors_; }

 private:
  void write(int i, const VectorStepBuffers& out) const;
  std::vector<GymEnv> envs_;
  std::vector<uint8_t> needs_reset_;
  std::vector<std::string> messages_;
  std::vector<std::pair<int, std::string>> errors_;
  WorkerPool pool_;
};

}  // namespace hlsgym::rl
