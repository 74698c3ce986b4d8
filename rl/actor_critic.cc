#include "rl/actor_critic.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <istream>
#include <numeric>
#include <ostream>
#include <sstream>
#include <unordered_map>

#include "ir/error.h"
#include "rl/actor_critic_rollout.h"
#include "rl/parallel.h"
#include "rl/random.h"

namespace hlsgym::rl {

namespace {

Eigen::RowVectorXd softmax(const Eigen::RowVectorXd& z) {
  Eigen::RowVectorXd e = (z.array() - z.maxCoeff()).exp();
  return e / e.sum();
}

// A network's input: the rows of x followed by the graph embeddings (none without an encoder).
Eigen::MatrixXd with_embedding(const Eigen::MatrixXd& x, const Eigen::MatrixXd& embedding) {
  if (embedding.cols() == 0) return x;
  Eigen::MatrixXd out(x.rows(), x.cols() + embedding.cols());
  out << x, embedding;
  return out;
}

// The value loss's share of the encoder's gradient (PPO's usual value coefficient).
constexpr double kValueShareInEncoder = 0.5;

}  // namespace

ActorCritic::ActorCritic(int observation_size, int action_count, ActorCriticOptions o)
    : o_(std::move(o)), workers_{Worker{std::mt19937_64(o_.seed), {}, 0, true}} {
  if (o_.algo != "ppo" && o_.algo != "a2c") throw Error("actor-critic: unknown algorithm '" + o_.algo + "' (ppo or a2c)");
  if (observation_size <= 0 || action_count <= 0) throw Error(o_.algo + " needs a positive observation and action count");
  if (o_.batch <= 0 || o_.minibatch <= 0 || o_.epochs <= 0 || o_.critic_features < 0)
    throw Error(o_.algo + " batch, minibatch and epochs must be positive");
  if (o_.gnn_hidden < 0) throw Error(o_.algo + ": the graph encoder's width must be positive");
  if (o_.gnn_hidden > 0) encoder_ = GnnEncoder(o_.gnn_hidden, o_.seed * 2 + 3);
  const int e = embedding_size();
  std::vector<int> p{observation_size + e}, v{observation_size + o_.critic_features + e};
  p.insert(p.end(), o_.hidden.begin(), o_.hidden.end());
  v.insert(v.end(), o_.hidden.begin(), o_.hidden.end());
  p.push_back(action_count);
  v.push_back(1);
  policy_ = Mlp(p, o_.seed * 2 + 1, 0.01);  // small output layer: a near-uniform initial policy
  value_ = Mlp(v, o_.seed * 2 + 2, 1.0);
}

std::vector<double> ActorCritic::probabilities(const std::vector<double>& observation, const ir::Module* state) {
  Eigen::MatrixXd embedding;
  if (!encoder_.empty()) {
    if (!state)
      throw Error(o_.algo + ": this policy reads the graph itself (its observation has 'gnn'); it needs the module, not "
                            "the observation alone");
    embedding = encoder_.predict({gnn_graph(*state).get()});
  }
  const Eigen::RowVectorXd pr = softmax(policy_.predict(with_embedding(as_row(observation), embedding)).row(0));
  return {pr.data(), pr.data() + pr.size()};
}

std::vector<double> ActorCritic::critic_input(TrainEnv& env, const std::vector<double>& obs) const {
  if (o_.critic_features == 0) return obs;
  std::vector<double> x = obs;
  const std::vector<double> extra = env.critic_features();
  if (static_cast<int>(extra.size()) != o_.critic_features)
    throw Error("critic features: the environment gives " + std::to_string(extra.size()) + ", the value network takes " +
                std::to_string(o_.critic_features));
  x.insert(x.end(), extra.begin(), extra.end());
  return x;
}

// One worker's rows [begin, end) of a rollout, with its own RNG stream; the networks are
// only read (Mlp::predict), so all workers share them.
ActorCritic::Segment ActorCritic::collect_segment(TrainEnv& env, Worker& w, Rollout& r, int begin, int end) const {
  Segment seg;
  // The graph encoder runs once per state: a pass that changed nothing gives the same graph.
  std::shared_ptr<const GnnGraph> graph;
  Eigen::MatrixXd embedding;
  auto embed = [&]() {
    if (encoder_.empty()) return;
    std::shared_ptr<const GnnGraph> g = env.graph_input();
    if (!g) throw Error(o_.algo + ": the gnn observation needs an environment that gives its state's graph");
    if (g != graph) graph = g, embedding = encoder_.predict({g.get()});
  };
  for (int t = begin; t < end; ++t) {
    if (w.need_reset) {
      w.episode_seed = w.rng();
      w.obs = env.reset(w.episode_seed), w.need_reset = false, w.episode_return = 0;
      w.episode_actions.clear();
    }
    r.obs.row(t) = as_row(w.obs);
    const std::vector<double> critic = critic_input(env, w.obs);
    r.critic_obs.row(t) = as_row(critic);
    embed();
    if (!encoder_.empty()) r.graphs[static_cast<size_t>(t)] = graph;
    const Eigen::RowVectorXd pr = softmax(policy_.predict(with_embedding(as_row(w.obs), embedding)).row(0));
    const std::vector<double> probs(pr.data(), pr.data() + pr.size());
    std::discrete_distribution<int> d(probs.begin(), probs.end());
    const int a = d(w.rng);
    r.actions[t] = a;
    r.logp[t] = std::log(std::max(probs[static_cast<size_t>(a)], 1e-12));
    r.values[t] = value_.predict(with_embedding(as_row(critic), embedding))(0, 0);
    const TrainEnv::Step s = env.step(a);
    w.episode_actions.push_back(a);
    r.rewards[t] = s.reward;
    r.done[t] = s.done;
    w.episode_return += s.reward;
    w.obs = s.observation;
    if (s.done) w.need_reset = true, seg.return_sum += w.episode_return, ++seg.episodes;
  }
  // GAE over the segment, bootstrapping from the state after it unless the episode just ended.
  if (!w.need_reset) embed();
  double next_value = w.need_reset ? 0.0 : value_.predict(with_embedding(as_row(critic_input(env, w.obs)), embedding))(0, 0);
  double gae = 0;
  for (int t = end - 1; t >= begin; --t) {
    const double next = r.done[t] ? 0.0 : next_value;
    const double delta = r.rewards[t] + o_.gamma * next - r.values[t];
    gae = delta + (r.done[t] ? 0.0 : o_.gamma * o_.lambda * gae);
    r.advantages[t] = gae;
    r.returns[t] = gae + r.values[t];
    next_value = r.values[t];
  }
  return seg;
}

void ActorCritic::size_rollout(Rollout& r) const {
  const int n = o_.batch;
  r.obs.resize(n, policy_.input_size() - embedding_size());
  r.critic_obs.resize(n, value_.input_size() - embedding_size());
  r.graphs.assign(encoder_.empty() ? 0 : n, nullptr);
  r.actions.assign(n, 0), r.rewards.assign(n, 0), r.values.assign(n, 0), r.logp.assign(n, 0);
  r.advantages.assign(n, 0), r.returns.assign(n, 0);
  r.done.assign(n, 0);
}

// The counters after a rollout, from every environment's segment in environment order.
TrainProgress ActorCritic::account(const std::vector<Segment>& segs) {
  TrainProgress p;
  double return_sum = 0;
  for (const Segment& sg : segs) return_sum += sg.return_sum, p.episodes += sg.episodes;
  episodes_ += static_cast<uint64_t>(p.episodes);
  steps_ += o_.batch;
  p.steps = steps_;
  p.mean_return = p.episodes ? return_sum / p.episodes : 0.0;
  return p;
}

void ActorCritic::collect(const std::vector<TrainEnv*>& envs, Rollout& r, TrainProgress& p) {
  const int n = o_.batch, k = static_cast<int>(envs.size());
  size_rollout(r);
  std::vector<Segment> segs(static_cast<size_t>(k));
  parallel_for(k, threads_ > 0 ? threads_ : k, [&](int w, int) {
    const auto i = static_cast<size_t>(w);
    segs[i] = collect_segment(*envs[i], workers_[i], r, w * n / k, (w + 1) * n / k);
  });
  p = account(segs);
}

void ActorCritic::update(const Rollout& r) {
  const int n = o_.batch;
  const double mean = std::accumulate(r.advantages.begin(), r.advantages.end(), 0.0) / n;
  double var = 0;
  for (double a : r.advantages) var += (a - mean) * (a - mean);
  const double sd = std::sqrt(var / n) + 1e-8;
  std::vector<int> idx(static_cast<size_t>(n));
  std::iota(idx.begin(), idx.end(), 0);
  for (int epoch = 0; epoch < o_.epochs; ++epoch) {
    std::shuffle(idx.begin(), idx.end(), workers_[0].rng);
    for (int start = 0; start < n; start += o_.minibatch) {
      const int m = std::min(o_.minibatch, n - start);
      update_minibatch(r, std::vector<int>(idx.begin() + start, idx.begin() + start + m), mean, sd);
    }
  }
}

void ActorCritic::update_minibatch(const Rollout& r, const std::vector<int>& rows, double mean, double sd) {
  const int m = static_cast<int>(rows.size());
  Eigen::MatrixXd x(m, r.obs.cols()), cx(m, r.critic_obs.cols());
  for (int k = 0; k < m; ++k) {
    x.row(k) = r.obs.row(rows[static_cast<size_t>(k)]);
    cx.row(k) = r.critic_obs.row(rows[static_cast<size_t>(k)]);
  }
  // The encoder runs once per distinct state graph of the minibatch.
  std::vector<const GnnGraph*> graphs;
  std::vector<int> slot(static_cast<size_t>(m));
  Eigen::MatrixXd embedding;
  if (!encoder_.empty()) {
    std::unordered_map<const GnnGraph*, int> seen;
    for (int k = 0; k < m; ++k) {
      const GnnGraph* g = r.graphs[static_cast<size_t>(rows[static_cast<size_t>(k)])].get();
      auto [it, fresh] = seen.emplace(g, static_cast<int>(graphs.size()));
      if (fresh) graphs.push_back(g);
      slot[static_cast<size_t>(k)] = it->second;
    }
    const Eigen::MatrixXd& unique = encoder_.forward(graphs);
    embedding.resize(m, unique.cols());
    for (int k = 0; k < m; ++k) embedding.row(k) = unique.row(slot[static_cast<size_t>(k)]);
    x = with_embedding(x, embedding), cx = with_embedding(cx, embedding);
  }
  const Eigen::MatrixXd logits = policy_.forward(x);
  Eigen::MatrixXd g_logits = Eigen::MatrixXd::Zero(m, logits.cols());
  for (int k = 0; k < m; ++k) {
    const int i = rows[static_cast<size_t>(k)];
    const Eigen::RowVectorXd p = softmax(logits.row(k));
    const int a = r.actions[static_cast<size_t>(i)];
    const double adv = (r.advantages[static_cast<size_t>(i)] - mean) / sd;
    const double ratio = std::exp(std::log(std::max(p(a), 1e-12)) - r.logp[static_cast<size_t>(i)]);
    // d(-min(ratio*A, clip(ratio)*A))/dlogp: zero where the clipped branch is active.
    const bool clipped =
        o_.algo == "ppo" && ((adv >= 0 && ratio > 1 + o_.clip) || (adv < 0 && ratio < 1 - o_.clip));
    const double dlogp = clipped ? 0.0 : -ratio * adv;
    Eigen::RowVectorXd onehot = Eigen::RowVectorXd::Zero(p.size());
    onehot(a) = 1;
    const double entropy = -(p.array() * (p.array().max(1e-12)).log()).sum();
    // d(-beta * H)/dlogits_j = beta * p_j (log p_j + H)
    const Eigen::RowVectorXd g_ent = o_.entropy * (p.array() * ((p.array().max(1e-12)).log() + entropy)).matrix();
    g_logits.row(k) = (dlogp * (onehot - p) + g_ent) / m;
  }
  const bool encode = !encoder_.empty();
  const Eigen::MatrixXd g_x = policy_.backward(g_logits, encode);
  policy_.adam_step(o_.lr, o_.max_grad_norm);
  const Eigen::MatrixXd v = value_.forward(cx);
  Eigen::MatrixXd g_v(m, 1);
  for (int k = 0; k < m; ++k) g_v(k, 0) = (v(k, 0) - r.returns[static_cast<size_t>(rows[static_cast<size_t>(k)])]) / m;
  const Eigen::MatrixXd g_cx = value_.backward(g_v, encode);
  value_.adam_step(o_.lr, o_.max_grad_norm);
  if (encode) {
    const int e = embedding_size();
    Eigen::MatrixXd g_unique = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(graphs.size()), e);
    for (int k = 0; k < m; ++k)
      g_unique.row(slot[static_cast<size_t>(k)]) += g_x.row(k).tail(e) + kValueShareInEncoder * g_cx.row(k).tail(e);
    encoder_.backward(g_unique);
    encoder_.adam_step(o_.lr, o_.max_grad_norm);
  }
}

void ActorCritic::train(TrainEnv& env, int64_t steps, const ProgressFn& progress) { train({&env}, steps, progress); }

void ActorCritic::check_envs(const std::vector<TrainEnv*>& envs, int total) const {
  if (envs.empty()) throw Error(o_.algo + ": no environment to train on");
  for (const TrainEnv* e : envs)
    if (e->observation_size() != observation_size()) throw Error("environment observation size differs from the policy's");
  if (total > o_.batch) throw Error(o_.algo + ": more workers than steps per rollout");
}

void ActorCritic::train(const std::vector<TrainEnv*>& envs, int64_t steps, const ProgressFn& progress) {
  check_envs(envs, static_cast<int>(envs.size()));
  set_workers(static_cast<int>(envs.size()));
  Rollout r;
  const int64_t target = steps_ + steps;
  while (steps_ < target) {
    TrainProgress p;
    collect(envs, r, p);
    update(r);
    if (progress) progress(p);
  }
}

// Worker 0's RNG is the agent's own (it also shuffles minibatches), so one worker is the
// plain sequential algorithm; worker w > 0 draws from a stream seeded by (seed, w).
void ActorCritic::set_workers(int k) {
  if (static_cast<int>(workers_.size()) == k) return;
  workers_.resize(static_cast<size_t>(k));
  for (int w = 1; w < k; ++w) {
    workers_[static_cast<size_t>(w)] = Worker{substream(o_.seed, w), {}, 0, true};
  }
}

void ActorCritic::save(std::ostream& out) const {
  // Version 3 adds the graph encoder after the networks; without one the file stays version 2.
  out << std::setprecision(17) << o_.algo << (encoder_.empty() ? " 2\n" : " 3\n");
  out << o_.lr << ' ' << o_.gamma << ' ' << o_.lambda << ' ' << o_.clip << ' ' << o_.entropy << ' ' << o_.max_grad_norm
      << ' ' << o_.batch << ' ' << o_.epochs << ' ' << o_.minibatch << ' ' << o_.seed << ' ' << steps_ << ' '
      << episodes_ << ' ' << o_.critic_features << '\n';
  out << "workers " << workers_.size() << '\n';
  for (const Worker& w : workers_) {
    out << w.need_reset << ' ' << w.episode_return << ' ' << w.obs.size();
    for (double x : w.obs) out << ' ' << x;
    out << '\n' << w.rng << '\n';
  }
  policy_.save(out);
  value_.save(out);
  if (!encoder_.empty()) encoder_.save(out);
}

namespace {
void read_worker_tail(std::istream& in, std::vector<double>& obs, std::mt19937_64& rng) {
  size_t n = 0;
  if (!(in >> n) || n > (1u << 20)) throw Error("policy file: bad observation");
  obs.resize(n);
  for (double& x : obs)
    if (!(in >> x)) throw Error("policy file: truncated observation");
  if (!(in >> rng)) throw Error("policy file: bad random state");
}
}  // namespace

// Version 1 (PPO, one worker) has the worker's state inside the settings line and no
// critic features; version 2 adds A2C, critic features and a worker list.
ActorCritic ActorCritic::load_body(std::istream& in, const std::string& algo, int version) {
  if (!((algo == "ppo" && version >= 1 && version <= 3) || (algo == "a2c" && (version == 2 || version == 3))))
    throw Error("agent '" + algo + " " + std::to_string(version) + "' is not supported (this build reads ppo 1-3, a2c 2-3)");
  ActorCriticOptions o;
  o.algo = algo;
  ActorCritic p(1, 1, ActorCriticOptions{});
  if (!(in >> o.lr >> o.gamma >> o.lambda >> o.clip >> o.entropy >> o.max_grad_norm >> o.batch >> o.epochs >>
        o.minibatch >> o.seed >> p.steps_ >> p.episodes_))
    throw Error("policy file: bad " + algo + " settings");
  if (version == 1) {
    Worker& w = p.workers_[0];
    if (!(in >> w.need_reset >> w.episode_return)) throw Error("policy file: bad ppo settings");
    read_worker_tail(in, w.obs, w.rng);
  } else {
    std::string key;
    size_t k = 0;
    if (!(in >> o.critic_features) || o.critic_features < 0) throw Error("policy file: bad critic feature count");
    if (!(in >> key >> k) || key != "workers" || k < 1 || k > 1024) throw Error("policy file: bad worker count");
    p.workers_.resize(k);
    for (Worker& w : p.workers_) {
      if (!(in >> w.need_reset >> w.episode_return)) throw Error("policy file: bad worker state");
      read_worker_tail(in, w.obs, w.rng);
    }
  }
  p.policy_ = Mlp::load(in);
  p.value_ = Mlp::load(in);
  if (version == 3) p.encoder_ = GnnEncoder::load(in);
  o.gnn_hidden = p.encoder_.empty() ? 0 : p.encoder_.hidden();
  if (p.policy_.input_size() <= p.embedding_size())
    throw Error("policy file: the policy network's input is not wider than the graph encoder's output");
  if (p.value_.input_size() != p.policy_.input_size() + o.critic_features)
    throw Error("policy file: the value network's input does not match the observation and critic features");
  o.hidden.assign(p.policy_.sizes().begin() + 1, p.policy_.sizes().end() - 1);
  p.o_ = o;
  // The environments are not part of the file: a resumed run starts fresh episodes where the
  // saved ones were mid-way (identical to the straight run whenever it stopped between episodes).
  for (Worker& w : p.workers_)
    if (!w.need_reset) w.need_reset = true, w.episode_return = 0;
  return p;
}

bool ActorCritic::same_state(const Agent& other) const {
  const auto* o = dynamic_cast<const ActorCritic*>(&other);
  if (!o || o_.algo != o->o_.algo || !(policy_ == o->policy_) || !(value_ == o->value_) ||
      !(encoder_ == o->encoder_) || steps_ != o->steps_ ||
      workers_.size() != o->workers_.size())
    return false;
  for (size_t w = 0; w < workers_.size(); ++w)
    if (workers_[w].rng != o->workers_[w].rng) return false;
  return true;
}

}  // namespace hlsgym::rl
