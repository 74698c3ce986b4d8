// On-policy actor-critic learners on an Eigen MLP: a categorical policy network and a
// value network, rollouts of `batch` steps, GAE advantages, an entropy bonus, Adam.
//
// - PPO (Schulman et al. 2017) as Ganai et al. used it for XLA pass ordering: GAE lambda
//   0.95, gamma 0.99, the clipped surrogate (clip 0.2), lr 3e-4, several epochs of
//   shuffled minibatches per rollout.
// - A2C (Mnih et al. 2016, synchronous): the same rollouts and advantages, one gradient
//   step on the whole rollout with the plain policy gradient. That is exactly PPO with one
//   epoch, one minibatch and no clipping (the probability ratio is 1 on the first and only
//   step), which is why both are one class.
//
// The paper's second enhancement, `critic_features`: the value network also sees the
// environment's cost features (TrainEnv::critic_features), the policy does not, so the
// learned policy still runs on the observation alone.
//
// Deterministic per seed (and worker count): seeded std::mt19937_64 streams drive sampling,
// shuffling and resets.
#pragma once
#include <functional>
#include <iosfwd>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "rl/agent.h"
#include "rl/gnn.h"
#include "rl/mlp.h"

namespace hlsgym::rl {

class WireWriter;  // rl/wire.h
class WireReader;

struct ActorCriticOptions {
  std::string algo = "ppo";  // ppo or a2c
  std::vector<int> hidden = {64, 64};
  double lr = 3e-4, gamma = 0.99, lambda = 0.95, clip = 0.2, entropy = 0.01, max_grad_norm = 0.5;
  int batch = 256, epochs = 4, minibatch = 64;
  // > 0: the value network's input is the observation followed by this many critic features.
  int critic_features = 0;
  // > 0: a graph encoder of this width (rl/gnn.h, the `gnn` observation) reads each state's
  // graph; its output follows the observation (and the critic features) at the input of
  // both networks, and both losses train it (the value's at half weight, as PPO's usual
  // value coefficient). Saved as agent version 3.
  int gnn_hidden = 0;
  uint64_t seed = 1;

  static ActorCriticOptions ppo() { return {}; }
  // A2C's usual settings: short rollouts (n-step), one step each, a larger learning rate.
  static ActorCriticOptions a2c() {
    ActorCriticOptions o;
    o.algo = "a2c";
    o.batch = 32, o.epochs = 1, o.minibatch = 32, o.lr = 7e-4, o.lambda = 1.0;
    return o;
  }
};

// Rollouts spread over processes (dist/'s MPI ranks; rl/ never calls MPI itself, the caller
// passes the transport). Process p of P starts with environments [p*total/P, (p+1)*total/P)
// of `total`; process 0 is the learner and always has environment 0 (whose RNG stream also
// shuffles the minibatches).
struct RolloutShards {
  int total = 1, process = 0, processes = 1;
  // The learner: every process's bytes in process order (its own first); elsewhere sends
  // `mine` and returns {}.
  std::function<std::vector<std::string>(const std::string& mine)> gather;
  // Every process: the learner's bytes.
  std::function<std::string(const std::string& mine)> broadcast;
  // The learner, after every gather: the process that stepped each environment and its
  // TrainEnv::position() (which graph its episode is on), for fault messages. Optional.
  std::function<void(const std::vector<int>& process, const std::vector<std::string>& positions)> on_positions;
  // Balancing: with `make_env` (a fresh environment over the same graphs), the learner
  // reassigns environments to processes before every rollout from the time each took in the
  // last one (`plan`; by default single environments move off the busiest process while
  // that shortens the rollout by a tenth, a move counting twice for its replay); a process that receives an environment mid-episode
  // rebuilds the episode from its reset seed and actions. Environment 0 stays on the
  // learner. Which process steps what never changes the run. Without make_env the
  // assignment stays the initial blocks.
  std::function<std::unique_ptr<TrainEnv>()> make_env;
  // (seconds of each environment's last segment, its current process, process count) ->
  // the process of each environment for the next rollout. For tests and experiments.
  std::function<std::vector<int>(const std::vector<double>&, const std::vector<int>&, int)> plan;
  // The learner adds each update's wall-clock parts here when set: rollout (the slowest
  // process's), communication (gathering beyond waiting for that slowest one, and the
  // broadcast) and learning (the update itself).
  struct Times {
    double rollout = 0, communication = 0, learning = 0;
    int64_t updates = 0, moves = 0;  // moves: environments handed to another process
  };
  Times* times = nullptr;
};

// RolloutShards' default plan (seconds of each environment's last segment, its process,
// the process count -> the next assignment); public for the speed model in bench/.
std::vector<int> shed_load(const std::vector<double>& seconds, const std::vector<int>& owner, int processes);

class ActorCritic final : public Agent {
 public:
  ActorCritic(int observation_size, int action_count, ActorCriticOptions o);

  std::string algo() const override { return o_.algo; }
  void train(TrainEnv& env, int64_t steps, const ProgressFn& progress = {}) override;
  // Rollouts on several cores: each rollout's `batch` steps are split over the
  // environments (an RNG stream each), which threads take in turn, so the result depends on
  // the seed and the number of environments, never on the threads or their timing. More
  // environments than threads even out the threads' load (an episode on a large graph
  // takes far longer than one on a small graph). One environment is the plain sequential
  // algorithm.
  void train(const std::vector<TrainEnv*>& envs, int64_t steps, const ProgressFn& progress = {}) override;
  void set_threads(int threads) override { threads_ = threads; }
  // Actor-learner training over processes: every process steps its share of the `total`
  // environments (with set_threads() threads) and sends its rollout rows, returns and RNG
  // streams to the learner, which updates and broadcasts the weights. The rollouts are
  // assembled in environment order, so the learner ends byte for byte where train() with
  // `total` environments in one process ends, whatever the number of processes. Only the
  // learner calls `progress` (and so writes checkpoints); its save() is the run's policy.
  void train_shards(const std::vector<TrainEnv*>& mine, const RolloutShards& shards, int64_t steps,
                    const ProgressFn& progress = {});
  std::vector<double> action_scores(const std::vector<double>& observation) override { return probabilities(observation); }
  std::vector<double> state_scores(const std::vector<double>& observation, const ir::Module& state) override {
    return probabilities(observation, &state);
  }
  // `state` is needed (and read) only with a graph encoder.
  std::vector<double> probabilities(const std::vector<double>& observation, const ir::Module* state = nullptr);
  int observation_size() const override { return policy_.input_size() - embedding_size(); }
  bool reads_graph() const { return !encoder_.empty(); }
  int64_t steps_done() const override { return steps_; }
  const ActorCriticOptions& options() const { return o_; }

  void save(std::ostream& out) const override;  // networks, optimizer state, rng, counters
  // After the tag line "<algo> <version>" (read by load_agent); throws hlsgym::Error.
  static ActorCritic load_body(std::istream& in, const std::string& algo, int version);
  bool same_state(const Agent& other) const override;

 private:
  struct Rollout;
  // One rollout stream: its RNG and the episode it is in.
  struct Worker {
    std::mt19937_64 rng;
    std::vector<double> obs;
    double episode_return = 0;
    bool need_reset = true;
    // The episode in progress as its reset seed and actions, so another process can rebuild
    // it exactly (train_shards moves environments between processes). Not saved: a resumed
    // run starts fresh episodes.
    uint64_t episode_seed = 0;
    std::vector<int> episode_actions;
  };
  struct Segment {
    double return_sum = 0;
    int episodes = 0;
    double seconds = 0;  // train_shards: the wall-clock time it took, for balancing
  };
  void set_workers(int k);
  void check_envs(const std::vector<TrainEnv*>& envs, int total) const;
  void encode_env(WireWriter& w, const Rollout& r, const std::vector<Segment>& segs, int env) const;
  int decode_env(WireReader& in, Rollout& r, std::vector<Segment>& segs);  // the environment
  static void encode_worker(WireWriter& w, const Worker& wk);
  static void decode_worker(WireReader& in, Worker& wk);
  void size_rollout(Rollout& r) const;
  TrainProgress account(const std::vector<Segment>& segs);
  void collect(const std::vector<TrainEnv*>& envs, Rollout& r, TrainProgress& p);
  Segment collect_segment(TrainEnv& env, Worker& w, Rollout& r, int begin, int end) const;
  void update(const Rollout& r);
  std::vector<double> critic_input(TrainEnv& env, const std::vector<double>& obs) const;
  int embedding_size() const { return encoder_.empty() ? 0 : encoder_.output_size(); }
  void update_minibatch(const Rollout& r, const std::vector<int>& rows, double mean, double sd);

  ActorCriticOptions o_;
  Mlp policy_, value_;
  GnnEncoder encoder_;  // empty without the gnn observation
  std::vector<Worker> workers_;  // worker 0's RNG also shuffles the minibatches
  int64_t steps_ = 0;
  uint64_t episodes_ = 0;
  int threads_ = 0;  // not saved: it never changes the run
};

}  // namespace hlsgym::rl
