// ActorCritic::train_shards: the actor-learner form of train() over several processes.
// Per rollout every process steps its environments' segments (the same rows, RNG streams and
// bootstrapped advantages train() computes for them), sends them to the learner, which puts
// them in their rows and runs the one update train() runs; then the learner's weights go
// back to every process. Nothing here depends on which process stepped what, so the learner
// ends where a single process with the same environments ends, to the bit.
#include <algorithm>
#include <chrono>
#include <sstream>

#include "ir/error.h"
#include "rl/actor_critic.h"
#include "rl/actor_critic_rollout.h"
#include "rl/parallel.h"
#include "rl/wire.h"

namespace hlsgym::rl {

// This process's environments [first, first + count): their segments' returns, their
// workers (RNG stream, episode in progress) and their rows of the rollout.
std::string ActorCritic::encode_shard(const Rollout& r, const std::vector<Segment>& segs, int first, int count) const {
  const int n = o_.batch, k = static_cast<int>(workers_.size());
  const int row0 = first * n / k, row1 = (first + count) * n / k;
  WireWriter w;
  w.pod<int32_t>(first), w.pod<int32_t>(count);
  for (int e = first; e < first + count; ++e) {
    const Segment& sg = segs[static_cast<size_t>(e)];
    const Worker& wk = workers_[static_cast<size_t>(e)];
    std::ostringstream rng;
    rng << wk.rng;
    w.pod(sg.return_sum), w.pod<int32_t>(sg.episodes);
    w.doubles(wk.obs), w.pod(wk.episode_return), w.pod<uint8_t>(wk.need_reset), w.str(rng.str());
  }
  const auto rows = static_cast<size_t>(row1 - row0);
  w.pods(r.obs.data() + row0 * r.obs.cols(), rows * static_cast<size_t>(r.obs.cols()));
  w.pods(r.critic_obs.data() + row0 * r.critic_obs.cols(), rows * static_cast<size_t>(r.critic_obs.cols()));
  w.pods(r.actions.data() + row0, rows), w.pods(r.rewards.data() + row0, rows), w.pods(r.values.data() + row0, rows);
  w.pods(r.logp.data() + row0, rows), w.pods(r.advantages.data() + row0, rows), w.pods(r.returns.data() + row0, rows);
  w.pods(r.done.data() + row0, rows);
  return w.take();
}

void ActorCritic::decode_shard(const std::string& bytes, Rollout& r, std::vector<Segment>& segs) {
  WireReader in(bytes);
  const int n = o_.batch, k = static_cast<int>(workers_.size());
  const int first = in.pod<int32_t>(), count = in.pod<int32_t>();
  if (first < 0 || count < 0 || first + count > k) throw Error("a rollout shard names environments this run does not have");
  for (int e = first; e < first + count; ++e) {
    Segment& sg = segs[static_cast<size_t>(e)];
    Worker& wk = workers_[static_cast<size_t>(e)];
    sg.return_sum = in.pod<double>(), sg.episodes = in.pod<int32_t>();
    wk.obs = in.doubles(), wk.episode_return = in.pod<double>(), wk.need_reset = in.pod<uint8_t>() != 0;
    std::istringstream rng(in.str());
    if (!(rng >> wk.rng)) throw Error("a rollout shard has a bad random state");
  }
  const int row0 = first * n / k, row1 = (first + count) * n / k;
  const auto rows = static_cast<size_t>(row1 - row0);
  auto put = [&](auto* dst, size_t per_row) {
    using T = std::remove_pointer_t<decltype(dst)>;
    const std::vector<T> v = in.pods<T>();
    if (v.size() != rows * per_row) throw Error("a rollout shard has the wrong number of rows");
    std::copy(v.begin(), v.end(), dst + row0 * per_row);
  };
  put(r.obs.data(), static_cast<size_t>(r.obs.cols()));
  put(r.critic_obs.data(), static_cast<size_t>(r.critic_obs.cols()));
  put(r.actions.data(), 1), put(r.rewards.data(), 1), put(r.values.data(), 1);
  put(r.logp.data(), 1), put(r.advantages.data(), 1), put(r.returns.data(), 1), put(r.done.data(), 1);
  if (!in.done()) throw Error("a rollout shard has trailing bytes");
}

void ActorCritic::train_shards(const std::vector<TrainEnv*>& mine, const RolloutShards& s, int64_t steps,
                               const ProgressFn& progress) {
  check_envs(mine, s.total);
  const int count = static_cast<int>(mine.size());
  if (s.first < 0 || s.first + count > s.total) throw Error(o_.algo + ": this process's environments are not in 0.." + std::to_string(s.total));
  if (!s.gather || !s.broadcast) throw Error(o_.algo + ": sharded training needs a gather and a broadcast");
  const bool learner = s.first == 0;
  set_workers(s.total);
  const int n = o_.batch, k = s.total;
  Rollout r;
  std::vector<Segment> segs(static_cast<size_t>(k));
  std::vector<std::string> positions(static_cast<size_t>(count));
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); };
  const int64_t target = steps_ + steps;
  while (steps_ < target) {
    const auto t0 = Clock::now();
    size_rollout(r);
    parallel_for(count, threads_ > 0 ? threads_ : count, [&](int i, int) {
      const int e = s.first + i;
      try {
        segs[static_cast<size_t>(e)] =
            collect_segment(*mine[static_cast<size_t>(i)], workers_[static_cast<size_t>(e)], r, e * n / k, (e + 1) * n / k);
      } catch (const std::exception& x) {
        const std::string where = mine[static_cast<size_t>(i)]->position();
        throw Error("environment " + std::to_string(e) + (where.empty() ? "" : " on " + where) + ": " + x.what());
      }
      positions[static_cast<size_t>(i)] = mine[static_cast<size_t>(i)]->position();
    });
    const auto t1 = Clock::now();
    WireWriter shard;
    shard.str(encode_shard(r, segs, s.first, count));
    shard.strs(positions);
    shard.pod(seconds(t0, t1));
    const std::vector<std::string> all = s.gather(shard.take());
    const auto t2 = Clock::now();
    double slowest = 0;
    if (learner) {
      std::vector<std::string> where;
      for (size_t p = 0; p < all.size(); ++p) {
        WireReader in(all[p]);
        const std::string bytes = in.str();
        if (p > 0) decode_shard(bytes, r, segs);
        for (auto& x : in.strs()) where.push_back(std::move(x));
        slowest = std::max(slowest, in.pod<double>());
      }
      if (static_cast<int>(where.size()) != k) throw Error(o_.algo + ": the processes' environments do not add up to " + std::to_string(k));
      if (s.on_positions) s.on_positions(where);
      const TrainProgress p = account(segs);
      update(r);
      if (s.times) {
        s.times->rollout += slowest;
        // The gather's wait beyond the slowest process's rollout is communication.
        s.times->communication += std::max(0.0, seconds(t0, t2) - slowest);
        s.times->learning += seconds(t2, Clock::now());
        ++s.times->updates;
      }
      if (progress) progress(p);
    }
    const auto t3 = Clock::now();
    // The learner's networks and counters, so every process runs the next rollout with the
    // same policy and stops at the same step.
    WireWriter w;
    if (learner) w.str(policy_.weight_bytes()), w.str(value_.weight_bytes()), w.pod(steps_), w.pod(episodes_);
    const std::string bytes = s.broadcast(w.take());
    if (!learner) {
      WireReader in(bytes);
      policy_.set_weight_bytes(in.str());
      value_.set_weight_bytes(in.str());
      steps_ = in.pod<int64_t>(), episodes_ = in.pod<uint64_t>();
    }
    if (learner && s.times) s.times->communication += seconds(t3, Clock::now());
  }
}

}  // namespace hlsgym::rl
