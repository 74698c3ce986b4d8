// ActorCritic::train_shards: the actor-learner form of train() over several processes.
// Per rollout every process steps its environments' segments (the same rows, RNG streams and
// bootstrapped advantages train() computes for them), sends them to the learner, which puts
// them in their rows and runs the one update train() runs; then the learner's weights go
// back to every process, with the next rollout's assignment of environments to processes.
// Nothing here depends on which process stepped what, so the learner ends where a single
// process with the same environments ends, to the bit.
#include <algorithm>
#include <chrono>
#include <numeric>
#include <sstream>

#include "ir/error.h"
#include "rl/actor_critic.h"
#include "rl/actor_critic_rollout.h"
#include "rl/parallel.h"
#include "rl/wire.h"

namespace hlsgym::rl {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_between(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

// The default plan: start from the current assignment and move single environments off the
// most loaded process onto the least loaded one while that shortens the rollout by at least
// a tenth, counting a moved environment's time twice on the receiver (it first replays the
// episode in progress). The prediction is the last segment's time: an episode stays on its
// graph for many steps, and a graph's steps cost about the same. Environment 0 stays on the
// learner. Moves are few: each one must pay for its replay.
}  // namespace

std::vector<int> shed_load(const std::vector<double>& seconds, const std::vector<int>& owner, int processes) {
  std::vector<int> next = owner;
  std::vector<double> load(static_cast<size_t>(processes), 0.0);
  for (size_t e = 0; e < seconds.size(); ++e) load[static_cast<size_t>(owner[e])] += seconds[e];
  for (size_t round = 0; round < seconds.size(); ++round) {
    const auto hi = static_cast<size_t>(std::max_element(load.begin(), load.end()) - load.begin());
    const auto lo = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    // The environment of the busiest process whose move leaves the smaller makespan.
    size_t best = 0;
    double best_span = load[hi];
    for (size_t e = 1; e < seconds.size(); ++e) {
      if (static_cast<size_t>(next[e]) != hi) continue;
      const double span = std::max(load[hi] - seconds[e], load[lo] + 2 * seconds[e]);
      if (span < best_span) best = e, best_span = span;
    }
    if (best == 0 || best_span > 0.9 * load[hi]) break;
    load[hi] -= seconds[best], load[lo] += seconds[best];
    next[best] = static_cast<int>(lo);
  }
  return next;
}

void ActorCritic::encode_worker(WireWriter& w, const Worker& wk) {
  std::ostringstream rng;
  rng << wk.rng;
  w.doubles(wk.obs), w.pod(wk.episode_return), w.pod<uint8_t>(wk.need_reset), w.str(rng.str());
  w.pod(wk.episode_seed), w.pods(wk.episode_actions.data(), wk.episode_actions.size());
}

void ActorCritic::decode_worker(WireReader& in, Worker& wk) {
  wk.obs = in.doubles(), wk.episode_return = in.pod<double>(), wk.need_reset = in.pod<uint8_t>() != 0;
  std::istringstream rng(in.str());
  if (!(rng >> wk.rng)) throw Error("a message between processes has a bad random state");
  wk.episode_seed = in.pod<uint64_t>(), wk.episode_actions = in.pods<int>();
}

// Environment `env`'s segment: its returns and time, its worker and its rows of the rollout.
void ActorCritic::encode_env(WireWriter& w, const Rollout& r, const std::vector<Segment>& segs, int env) const {
  const int n = o_.batch, k = static_cast<int>(workers_.size());
  const int row0 = env * n / k, rows = (env + 1) * n / k - row0;
  const Segment& sg = segs[static_cast<size_t>(env)];
  w.pod<int32_t>(env), w.pod(sg.return_sum), w.pod<int32_t>(sg.episodes), w.pod(sg.seconds);
  encode_worker(w, workers_[static_cast<size_t>(env)]);
  const auto m = static_cast<size_t>(rows);
  w.pods(r.obs.data() + row0 * r.obs.cols(), m * static_cast<size_t>(r.obs.cols()));
  w.pods(r.critic_obs.data() + row0 * r.critic_obs.cols(), m * static_cast<size_t>(r.critic_obs.cols()));
  w.pods(r.actions.data() + row0, m), w.pods(r.rewards.data() + row0, m), w.pods(r.values.data() + row0, m);
  w.pods(r.logp.data() + row0, m), w.pods(r.advantages.data() + row0, m), w.pods(r.returns.data() + row0, m);
  w.pods(r.done.data() + row0, m);
}

int ActorCritic::decode_env(WireReader& in, Rollout& r, std::vector<Segment>& segs) {
  const int n = o_.batch, k = static_cast<int>(workers_.size());
  const int env = in.pod<int32_t>();
  if (env < 0 || env >= k) throw Error("a rollout shard names an environment this run does not have");
  Segment& sg = segs[static_cast<size_t>(env)];
  sg.return_sum = in.pod<double>(), sg.episodes = in.pod<int32_t>(), sg.seconds = in.pod<double>();
  decode_worker(in, workers_[static_cast<size_t>(env)]);
  const int row0 = env * n / k, rows = (env + 1) * n / k - row0;
  auto put = [&](auto* dst, size_t per_row) {
    using T = std::remove_pointer_t<decltype(dst)>;
    const std::vector<T> v = in.pods<T>();
    if (v.size() != static_cast<size_t>(rows) * per_row) throw Error("a rollout shard has the wrong number of rows");
    std::copy(v.begin(), v.end(), dst + static_cast<size_t>(row0) * per_row);
  };
  put(r.obs.data(), static_cast<size_t>(r.obs.cols()));
  put(r.critic_obs.data(), static_cast<size_t>(r.critic_obs.cols()));
  put(r.actions.data(), 1), put(r.rewards.data(), 1), put(r.values.data(), 1);
  put(r.logp.data(), 1), put(r.advantages.data(), 1), put(r.returns.data(), 1), put(r.done.data(), 1);
  return env;
}

void ActorCritic::train_shards(const std::vector<TrainEnv*>& mine, const RolloutShards& s, int64_t steps,
                               const ProgressFn& progress) {
  const int k = s.total, procs = s.processes, me = s.process;
  check_envs(mine, k);
  if (!encoder_.empty())
    throw Error(o_.algo + ": the gnn observation does not train over several processes (its rollouts would carry graphs); "
                          "train it in one process (--workers for threads)");
  if (procs < 1 || me < 0 || me >= procs || procs > k)
    throw Error(o_.algo + ": process " + std::to_string(me) + " of " + std::to_string(procs) + " for " + std::to_string(k) +
                " environments");
  const int first = me * k / procs;
  if (static_cast<int>(mine.size()) != (me + 1) * k / procs - first)
    throw Error(o_.algo + ": process " + std::to_string(me) + " was given the wrong number of environments");
  if (!s.gather || !s.broadcast) throw Error(o_.algo + ": sharded training needs a gather and a broadcast");
  const bool learner = me == 0;
  set_workers(k);
  const int n = o_.batch;
  // This process's environment objects by index, and whether each is at its worker's state
  // (it stepped the last segment here); a received one replays its episode first.
  std::vector<TrainEnv*> env_of(static_cast<size_t>(k), nullptr);
  std::vector<std::unique_ptr<TrainEnv>> made;
  std::vector<char> current(static_cast<size_t>(k), 0);
  std::vector<int> owner(static_cast<size_t>(k));
  for (int p = 0; p < procs; ++p)
    for (int e = p * k / procs; e < (p + 1) * k / procs; ++e) owner[static_cast<size_t>(e)] = p;
  for (size_t i = 0; i < mine.size(); ++i) env_of[static_cast<size_t>(first) + i] = mine[i], current[static_cast<size_t>(first) + i] = 1;
  Rollout r;
  std::vector<Segment> segs(static_cast<size_t>(k));
  std::vector<std::string> positions(static_cast<size_t>(k));
  const int64_t target = steps_ + steps;
  while (steps_ < target) {
    const auto t0 = Clock::now();
    size_rollout(r);
    std::vector<int> list;
    for (int e = 0; e < k; ++e)
      if (owner[static_cast<size_t>(e)] == me) list.push_back(e);
    for (int e : list)
      if (!env_of[static_cast<size_t>(e)]) {
        if (!s.make_env) throw Error(o_.algo + ": an environment was moved to a process that cannot make one");
        made.push_back(s.make_env());
        env_of[static_cast<size_t>(e)] = made.back().get();
      }
    parallel_for(static_cast<int>(list.size()), threads_ > 0 ? threads_ : static_cast<int>(list.size()), [&](int i, int) {
      const int e = list[static_cast<size_t>(i)];
      const auto at = static_cast<size_t>(e);
      TrainEnv& env = *env_of[at];
      Worker& w = workers_[at];
      const auto start = Clock::now();
      try {
        if (!current[at] && !w.need_reset) {  // rebuild the episode in progress, exactly
          std::vector<double> obs = env.reset(w.episode_seed);
          for (int a : w.episode_actions) obs = env.step(a).observation;
          if (obs != w.obs)
            throw Error("replaying its episode did not reproduce its state (is the environment deterministic?)");
        }
        segs[at] = collect_segment(env, w, r, e * n / k, (e + 1) * n / k);
      } catch (const std::exception& x) {
        const std::string where = env.position();
        throw Error("environment " + std::to_string(e) + (where.empty() ? "" : " on " + where) + ": " + x.what());
      }
      segs[at].seconds = seconds_between(start, Clock::now());
      positions[at] = env.position();
    });
    for (int e = 0; e < k; ++e) current[static_cast<size_t>(e)] = owner[static_cast<size_t>(e)] == me;
    const auto t1 = Clock::now();
    WireWriter shard;
    shard.pod<uint64_t>(list.size());
    for (int e : list) encode_env(shard, r, segs, e), shard.str(positions[static_cast<size_t>(e)]);
    shard.pod(seconds_between(t0, t1));
    const std::vector<std::string> all = s.gather(shard.take());
    const auto t2 = Clock::now();
    std::vector<int> next = owner;
    if (learner) {
      double slowest = 0;
      for (size_t p = 1; p < all.size(); ++p) {
        WireReader in(all[p]);
        for (auto m = in.pod<uint64_t>(); m > 0; --m) {
          const int e = decode_env(in, r, segs);
          if (owner[static_cast<size_t>(e)] != static_cast<int>(p))
            throw Error(o_.algo + ": process " + std::to_string(p) + " sent environment " + std::to_string(e) + ", not its own");
          positions[static_cast<size_t>(e)] = in.str();
        }
        slowest = std::max(slowest, in.pod<double>());
      }
      slowest = std::max(slowest, seconds_between(t0, t1));
      if (s.on_positions) s.on_positions(owner, positions);
      const TrainProgress p = account(segs);
      update(r);
      if (s.make_env) {
        std::vector<double> secs(static_cast<size_t>(k));
        for (int e = 0; e < k; ++e) secs[static_cast<size_t>(e)] = segs[static_cast<size_t>(e)].seconds;
        next = s.plan ? s.plan(secs, owner, procs) : shed_load(secs, owner, procs);
        if (static_cast<int>(next.size()) != k || next[0] != 0 ||
            std::any_of(next.begin(), next.end(), [&](int q) { return q < 0 || q >= procs; }))
          throw Error(o_.algo + ": the balancing plan must give every environment a process, environment 0 the learner");
      }
      if (s.times) {
        s.times->rollout += slowest;
        // The gather's wait beyond the slowest process's rollout is communication.
        s.times->communication += std::max(0.0, seconds_between(t0, t2) - slowest);
        s.times->learning += seconds_between(t2, Clock::now());
        ++s.times->updates;
        for (int e = 0; e < k; ++e) s.times->moves += next[static_cast<size_t>(e)] != owner[static_cast<size_t>(e)];
      }
      if (progress) progress(p);
    }
    // The learner's networks and counters, so every process runs the next rollout with the
    // same policy and stops at the same step; then the next assignment, with the workers of
    // the environments that move.
    const auto t3 = Clock::now();
    WireWriter w;
    if (learner) {
      w.str(policy_.weight_bytes()), w.str(value_.weight_bytes()), w.pod(steps_), w.pod(episodes_);
      w.pods(next.data(), next.size());
      for (int e = 0; e < k; ++e)
        if (next[static_cast<size_t>(e)] != owner[static_cast<size_t>(e)]) encode_worker(w, workers_[static_cast<size_t>(e)]);
    }
    const std::string bytes = s.broadcast(w.take());
    WireReader in(bytes);
    const std::string policy_bytes = in.str(), value_bytes = in.str();
    const auto steps_now = in.pod<int64_t>();
    const auto episodes_now = in.pod<uint64_t>();
    next = in.pods<int>();
    if (static_cast<int>(next.size()) != k) throw Error(o_.algo + ": a bad assignment from the learner");
    if (!learner) policy_.set_weight_bytes(policy_bytes), value_.set_weight_bytes(value_bytes), steps_ = steps_now, episodes_ = episodes_now;
    for (int e = 0; e < k; ++e) {
      const auto at = static_cast<size_t>(e);
      if (next[at] == owner[at]) continue;
      Worker moved;
      decode_worker(in, moved);
      if (next[at] == me) workers_[at] = std::move(moved), current[at] = 0;
    }
    owner = std::move(next);
    if (learner && s.times) s.times->communication += seconds_between(t3, Clock::now());
  }
}

}  // namespace hlsgym::rl
