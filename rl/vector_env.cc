#include "rl/vector_env.h"

#include <algorithm>
#include <cstring>

#include "ir/error.h"

namespace hlsgym::rl {

WorkerPool::WorkerPool(int threads) {
  for (int t = 1; t < std::max(threads, 1); ++t) workers_.emplace_back([this] { loop(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& w : workers_) w.join();
}

void WorkerPool::work() {
  for (int i; (i = next_++) < items_;) {
    try {
      (*fn_)(i);
    } catch (const std::exception& e) {
      errors_[static_cast<size_t>(i)] = e.what();
    }
  }
}

void WorkerPool::loop() {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    work();
    std::lock_guard<std::mutex> lock(mu_);
    if (--busy_ == 0) finished_.notify_one();
  }
}

void WorkerPool::run(int items, const std::function<void(int)>& fn) {
  errors_.assign(static_cast<size_t>(std::max(items, 0)), std::string());
  if (workers_.empty() || items <= 1) {
    fn_ = &fn, items_ = items, next_ = 0;
    work();
  } else {
    {
      std::lock_guard<std::mutex> lock(mu_);
      fn_ = &fn, items_ = items, next_ = 0;
      busy_ = static_cast<int>(workers_.size());
      ++generation_;
    }
    wake_.notify_all();
    work();
    std::unique_lock<std::mutex> lock(mu_);
    finished_.wait(lock, [&] { return busy_ == 0; });
  }
  for (const std::string& e : errors_)
    if (!e.empty()) throw Error(e);
}

VectorEnv::VectorEnv(std::shared_ptr<const GraphSet> graphs, EnvOptions options, int num_envs, int threads)
    : pool_(std::clamp(threads, 1, std::max(num_envs, 1))) {
  if (num_envs <= 0) throw Error("num_envs must be positive");
  const GymEnv first(std::move(graphs), std::move(options));
  // Copies share the thread-safe caches (state metrics, default-order costs, refusals):
  // what one environment measured is free to the others. Pass objects are per copy.
  for (int i = 0; i < num_envs; ++i) envs_.push_back(first.fork());
  needs_reset_.assign(static_cast<size_t>(num_envs), 0);
  messages_.assign(static_cast<size_t>(num_envs), std::string());
}

void VectorEnv::write(int i, const VectorStepBuffers& out) const {
  const GymEnv& e = envs_[static_cast<size_t>(i)];
  if (out.observations) e.observation(out.observations + static_cast<size_t>(i) * e.observation_size());
  if (out.action_masks) {
    const auto& m = e.action_mask();
    std::memcpy(out.action_masks + static_cast<size_t>(i) * m.size(), m.data(), m.size());
  }
}

void VectorEnv::reset(std::optional<uint64_t> seed, const VectorStepBuffers& out) {
  pool_.run(num_envs(), [&](int i) {
    envs_[static_cast<size_t>(i)].reset(seed ? std::optional<uint64_t>(*seed + static_cast<uint64_t>(i)) : std::nullopt);
    needs_reset_[static_cast<size_t>(i)] = 0;
    write(i, out);
  });
}

void VectorEnv::step(const int64_t* actions, const VectorStepBuffers& out) {
  pool_.run(num_envs(), [&](int i) {
    const size_t k = static_cast<size_t>(i);
    GymEnv& e = envs_[k];
    GymStep s;
    messages_[k].clear();
    if (needs_reset_[k]) {
      try {
        e.reset();
        needs_reset_[k] = 0;
      } catch (const std::exception& err) {  // e.g. a graph without a hardware cost
        s.error = err.what();
        s.truncated = true;
      }
    } else {
      s = e.step(static_cast<int>(actions[k]));
      needs_reset_[k] = s.terminated || s.truncated;
    }
    if (!s.error.empty()) needs_reset_[k] = 1, messages_[k] = s.error;
    out.rewards[k] = s.reward;
    out.terminated[k] = s.terminated;
    out.truncated[k] = s.truncated;
    if (out.changed) out.changed[k] = s.changed;
    if (out.refused) out.refused[k] = s.refused;
    if (out.failed) out.failed[k] = !s.error.empty();
    write(i, out);
  });
  errors_.clear();
  for (int i = 0; i < num_envs(); ++i)
    if (!messages_[static_cast<size_t>(i)].empty()) errors_.emplace_back(i, messages_[static_cast<size_t>(i)]);
}

}  // namespace hlsgym::rl
