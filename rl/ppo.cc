#include "rl/ppo.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <istream>
#include <numeric>
#include <ostream>
#include <sstream>

#include "ir/error.h"

namespace hlsgym::rl {

struct Ppo::Rollout {
  Eigen::MatrixXd obs;
  std::vector<int> actions;
  std::vector<double> rewards, values, logp, advantages, returns;
  std::vector<bool> done;
};

namespace {

Eigen::RowVectorXd softmax(const Eigen::RowVectorXd& z) {
  Eigen::RowVectorXd e = (z.array() - z.maxCoeff()).exp();
  return e / e.sum();
}

Eigen::MatrixXd row(const std::vector<double>& v) {
  return Eigen::Map<const Eigen::RowVectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

}  // namespace

Ppo::Ppo(int observation_size, int action_count, PpoOptions o) : o_(std::move(o)), rng_(o_.seed) {
  if (observation_size <= 0 || action_count <= 0) throw Error("PPO needs a positive observation and action count");
  if (o_.batch <= 0 || o_.minibatch <= 0 || o_.epochs <= 0) throw Error("PPO batch, minibatch and epochs must be positive");
  std::vector<int> p{observation_size}, v{observation_size};
  p.insert(p.end(), o_.hidden.begin(), o_.hidden.end());
  v.insert(v.end(), o_.hidden.begin(), o_.hidden.end());
  p.push_back(action_count);
  v.push_back(1);
  policy_ = Mlp(p, o_.seed * 2 + 1, 0.01);  // small output layer: a near-uniform initial policy
  value_ = Mlp(v, o_.seed * 2 + 2, 1.0);
}

std::vector<double> Ppo::probabilities(const std::vector<double>& observation) {
  const Eigen::RowVectorXd pr = softmax(policy_.forward(row(observation)).row(0));
  return {pr.data(), pr.data() + pr.size()};
}

int Ppo::act(const std::vector<double>& observation, bool greedy) {
  const std::vector<double> p = probabilities(observation);
  if (greedy) return static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
  std::discrete_distribution<int> d(p.begin(), p.end());
  return d(rng_);
}

void Ppo::collect(TrainEnv& env, Rollout& r, TrainProgress& p) {
  const int n = o_.batch;
  r.obs.resize(n, policy_.input_size());
  r.actions.assign(n, 0), r.rewards.assign(n, 0), r.values.assign(n + 1, 0), r.logp.assign(n, 0);
  r.done.assign(n, false);
  double return_sum = 0;
  for (int t = 0; t < n; ++t) {
    if (need_reset_) obs_ = env.reset(rng_()), need_reset_ = false, episode_return_ = 0;
    r.obs.row(t) = row(obs_);
    const std::vector<double> probs = probabilities(obs_);
    std::discrete_distribution<int> d(probs.begin(), probs.end());
    const int a = d(rng_);
    r.actions[t] = a;
    r.logp[t] = std::log(std::max(probs[static_cast<size_t>(a)], 1e-12));
    r.values[t] = value_.forward(row(obs_))(0, 0);
    const TrainEnv::Step s = env.step(a);
    r.rewards[t] = s.reward;
    r.done[t] = s.done;
    episode_return_ += s.reward;
    obs_ = s.observation;
    if (s.done) need_reset_ = true, return_sum += episode_return_, ++p.episodes, ++episodes_;
  }
  // Bootstrap from the state after the rollout unless the episode just ended.
  r.values[n] = need_reset_ ? 0.0 : value_.forward(row(obs_))(0, 0);
  r.advantages.assign(n, 0), r.returns.assign(n, 0);
  double gae = 0;
  for (int t = n - 1; t >= 0; --t) {
    const double next = r.done[t] ? 0.0 : r.values[t + 1];
    const double delta = r.rewards[t] + o_.gamma * next - r.values[t];
    gae = delta + (r.done[t] ? 0.0 : o_.gamma * o_.lambda * gae);
    r.advantages[t] = gae;
    r.returns[t] = gae + r.values[t];
  }
  steps_ += n;
  p.steps = steps_;
  p.mean_return = p.episodes ? return_sum / p.episodes : 0.0;
}

void Ppo::update(const Rollout& r) {
  const int n = o_.batch;
  const double mean = std::accumulate(r.advantages.begin(), r.advantages.end(), 0.0) / n;
  double var = 0;
  for (double a : r.advantages) var += (a - mean) * (a - mean);
  const double sd = std::sqrt(var / n) + 1e-8;
  std::vector<int> idx(static_cast<size_t>(n));
  std::iota(idx.begin(), idx.end(), 0);
  for (int epoch = 0; epoch < o_.epochs; ++epoch) {
    std::shuffle(idx.begin(), idx.end(), rng_);
    for (int start = 0; start < n; start += o_.minibatch) {
      const int m = std::min(o_.minibatch, n - start);
      Eigen::MatrixXd x(m, r.obs.cols());
      for (int k = 0; k < m; ++k) x.row(k) = r.obs.row(idx[static_cast<size_t>(start + k)]);
      const Eigen::MatrixXd logits = policy_.forward(x);
      Eigen::MatrixXd g_logits = Eigen::MatrixXd::Zero(m, logits.cols());
      for (int k = 0; k < m; ++k) {
        const int i = idx[static_cast<size_t>(start + k)];
        const Eigen::RowVectorXd p = softmax(logits.row(k));
        const int a = r.actions[static_cast<size_t>(i)];
        const double adv = (r.advantages[static_cast<size_t>(i)] - mean) / sd;
        const double ratio = std::exp(std::log(std::max(p(a), 1e-12)) - r.logp[static_cast<size_t>(i)]);
        // d(-min(ratio*A, clip(ratio)*A))/dlogp: zero where the clipped branch is active.
        const bool clipped = (adv >= 0 && ratio > 1 + o_.clip) || (adv < 0 && ratio < 1 - o_.clip);
        const double dlogp = clipped ? 0.0 : -ratio * adv;
        Eigen::RowVectorXd onehot = Eigen::RowVectorXd::Zero(p.size());
        onehot(a) = 1;
        const double entropy = -(p.array() * (p.array().max(1e-12)).log()).sum();
        // d(-beta * H)/dlogits_j = beta * p_j (log p_j + H)
        const Eigen::RowVectorXd g_ent = o_.entropy * (p.array() * ((p.array().max(1e-12)).log() + entropy)).matrix();
        g_logits.row(k) = (dlogp * (onehot - p) + g_ent) / m;
      }
      policy_.backward(g_logits);
      policy_.adam_step(o_.lr, o_.max_grad_norm);
      const Eigen::MatrixXd v = value_.forward(x);
      Eigen::MatrixXd g_v(m, 1);
      for (int k = 0; k < m; ++k) g_v(k, 0) = (v(k, 0) - r.returns[static_cast<size_t>(idx[static_cast<size_t>(start + k)])]) / m;
      value_.backward(g_v);
      value_.adam_step(o_.lr, o_.max_grad_norm);
    }
  }
}

void Ppo::train(TrainEnv& env, int64_t steps, const std::function<void(const TrainProgress&)>& progress) {
  if (env.observation_size() != policy_.input_size()) throw Error("environment observation size differs from the policy's");
  Rollout r;
  const int64_t target = steps_ + steps;
  while (steps_ < target) {
    TrainProgress p;
    collect(env, r, p);
    update(r);
    if (progress) progress(p);
  }
}

void Ppo::save(std::ostream& out) const {
  out << std::setprecision(17) << "ppo 1\n";
  out << o_.lr << ' ' << o_.gamma << ' ' << o_.lambda << ' ' << o_.clip << ' ' << o_.entropy << ' ' << o_.max_grad_norm
      << ' ' << o_.batch << ' ' << o_.epochs << ' ' << o_.minibatch << ' ' << o_.seed << ' ' << steps_ << ' '
      << episodes_ << ' ' << need_reset_ << ' ' << episode_return_ << '\n';
  out << obs_.size();
  for (double x : obs_) out << ' ' << x;
  out << '\n' << rng_ << '\n';
  policy_.save(out);
  value_.save(out);
}

Ppo Ppo::load(std::istream& in) {
  std::string tag;
  int version = 0;
  if (!(in >> tag >> version) || tag != "ppo" || version != 1) throw Error("policy file: expected a 'ppo 1' agent");
  PpoOptions o;
  Ppo p(1, 1, PpoOptions{});
  if (!(in >> o.lr >> o.gamma >> o.lambda >> o.clip >> o.entropy >> o.max_grad_norm >> o.batch >> o.epochs >>
        o.minibatch >> o.seed >> p.steps_ >> p.episodes_ >> p.need_reset_ >> p.episode_return_))
    throw Error("policy file: bad PPO settings");
  size_t n = 0;
  if (!(in >> n) || n > (1u << 20)) throw Error("policy file: bad observation");
  p.obs_.resize(n);
  for (double& x : p.obs_)
    if (!(in >> x)) throw Error("policy file: truncated observation");
  if (!(in >> p.rng_)) throw Error("policy file: bad random state");
  p.policy_ = Mlp::load(in);
  p.value_ = Mlp::load(in);
  o.hidden.assign(p.policy_.sizes().begin() + 1, p.policy_.sizes().end() - 1);
  p.o_ = o;
  // The environment is not part of the file: a resumed run starts a fresh episode where the
  // saved one was mid-way (identical to the straight run whenever it stopped between episodes).
  if (!p.need_reset_) p.need_reset_ = true, p.episode_return_ = 0;
  return p;
}

bool Ppo::same_state(const Ppo& o) const {
  return policy_ == o.policy_ && value_ == o.value_ && steps_ == o.steps_ && rng_ == o.rng_;
}

}  // namespace hlsgym::rl
