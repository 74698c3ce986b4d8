#include "rl/dqn.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <istream>
#include <ostream>
#include <string>

#include "ir/error.h"
#include "rl/random.h"

namespace hlsgym::rl {
namespace {

std::vector<int> layer_sizes(int in, const std::vector<int>& hidden, int out) {
  std::vector<int> s{in};
  s.insert(s.end(), hidden.begin(), hidden.end());
  s.push_back(out);
  return s;
}

}  // namespace

Dqn::Dqn(int observation_size, int action_count, DqnOptions o)
    : o_(std::move(o)),
      q_(layer_sizes(observation_size, o_.hidden, action_count), o_.seed * 2 + 1),
      target_(q_),
      rng_(o_.seed) {
  if (observation_size <= 0 || action_count <= 0) throw Error("dqn needs a positive observation and action count");
  if (o_.buffer <= 0 || o_.batch <= 0 || o_.train_every <= 0 || o_.target_update <= 0 || o_.exploration_steps < 0)
    throw Error("dqn buffer, batch, train_every and target_update must be positive");
}

double Dqn::epsilon() const {
  if (o_.exploration_steps == 0 || steps_ >= o_.exploration_steps) return o_.eps_end;
  const double f = static_cast<double>(steps_) / static_cast<double>(o_.exploration_steps);
  return o_.eps_start + f * (o_.eps_end - o_.eps_start);
}

std::vector<double> Dqn::action_scores(const std::vector<double>& observation) {
  const Eigen::MatrixXd& q = q_.forward(as_row(observation));
  return {q.data(), q.data() + q.size()};
}

void Dqn::remember(Transition t) {
  if (replay_.size() < static_cast<size_t>(o_.buffer)) {
    replay_.push_back(std::move(t));
    return;
  }
  replay_[replay_next_] = std::move(t);
  replay_next_ = (replay_next_ + 1) % replay_.size();
}

void Dqn::learn() {
  const int m = o_.batch;
  const Eigen::Index n_obs = q_.input_size();
  Eigen::MatrixXd s(m, n_obs), s2(m, n_obs);
  std::vector<const Transition*> batch(static_cast<size_t>(m));
  for (int k = 0; k < m; ++k) {
    const Transition& t = replay_[rng_() % replay_.size()];
    batch[static_cast<size_t>(k)] = &t;
    s.row(k) = as_row(t.observation);
    s2.row(k) = as_row(t.next_observation);
  }
  // Double DQN: the online network picks the next action, the target network values it.
  Eigen::VectorXi pick(m);
  {
    const Eigen::MatrixXd& q_next = q_.forward(s2);
    for (int k = 0; k < m; ++k) q_next.row(k).maxCoeff(&pick(k));
  }
  const Eigen::MatrixXd target_next = target_.forward(s2);
  const Eigen::MatrixXd& q = q_.forward(s);
  Eigen::MatrixXd grad = Eigen::MatrixXd::Zero(m, q.cols());
  for (int k = 0; k < m; ++k) {
    const Transition& t = *batch[static_cast<size_t>(k)];
    const double y = t.reward + (t.done ? 0.0 : o_.gamma * target_next(k, pick(k)));
    const double err = q(k, t.action) - y;
    grad(k, t.action) = std::clamp(err, -1.0, 1.0) / m;  // Huber loss, delta 1
  }
  q_.backward(grad);
  q_.adam_step(o_.lr, o_.max_grad_norm);
  if (++updates_ % o_.target_update == 0) target_ = q_;
}

void Dqn::train(TrainEnv& env, int64_t steps, const ProgressFn& progress) {
  if (env.observation_size() != q_.input_size()) throw Error("environment observation size differs from the policy's");
  if (env.action_count() != q_.output_size()) throw Error("environment action count differs from the policy's");
  TrainProgress p;
  double return_sum = 0;
  const int64_t target = steps_ + steps;
  while (steps_ < target) {
    if (need_reset_) obs_ = env.reset(rng_()), need_reset_ = false, episode_return_ = 0;
    const bool explore = unit_interval(rng_) < epsilon();
    const int a = explore ? static_cast<int>(rng_() % static_cast<uint64_t>(q_.output_size())) : act(obs_);
    TrainEnv::Step st = env.step(a);
    episode_return_ += st.reward;
    remember({obs_, a, st.reward, st.observation, st.done});
    obs_ = std::move(st.observation);
    if (st.done) need_reset_ = true, return_sum += episode_return_, ++p.episodes;
    ++steps_;
    if (steps_ > o_.learning_starts && steps_ % o_.train_every == 0 && static_cast<int>(replay_.size()) >= o_.batch)
      learn();
    if (steps_ % 256 == 0 || steps_ == target) {
      p.steps = steps_;
      p.mean_return = p.episodes ? return_sum / p.episodes : 0.0;
      if (progress) progress(p);
      p = TrainProgress{};
      return_sum = 0;
    }
  }
}

void Dqn::train_offline(std::vector<Transition> data, int64_t gradient_steps, const ProgressFn& progress) {
  if (data.empty()) throw Error("dqn offline: no transitions");
  for (const auto& t : data)
    if (static_cast<int>(t.observation.size()) != q_.input_size() ||
        static_cast<int>(t.next_observation.size()) != q_.input_size() || t.action < 0 || t.action >= q_.output_size())
      throw Error("dqn offline: a transition does not fit the network (observation size or action index)");
  replay_ = std::move(data);  // by value: a dataset built for the call is moved, not copied again
  replay_next_ = 0;
  for (int64_t g = 1; g <= gradient_steps; ++g) {
    learn();
    if (progress && (g % 256 == 0 || g == gradient_steps)) progress({steps_ + g, 0.0, 0});
  }
  steps_ += gradient_steps;
  replay_.clear();
}

void Dqn::save(std::ostream& out) const {
  out << std::setprecision(17) << "dqn 1\n";
  out << o_.lr << ' ' << o_.gamma << ' ' << o_.max_grad_norm << ' ' << o_.buffer << ' ' << o_.batch << ' '
      << o_.learning_starts << ' ' << o_.train_every << ' ' << o_.target_update << ' ' << o_.eps_start << ' '
      << o_.eps_end << ' ' << o_.exploration_steps << ' ' << o_.seed << ' ' << steps_ << ' ' << updates_ << '\n';
  out << rng_ << '\n';
  q_.save(out);
  target_.save(out);
}

Dqn Dqn::load_body(std::istream& in, int version) {
  if (version != 1) throw Error("agent 'dqn " + std::to_string(version) + "' is not supported (this build reads dqn 1)");
  DqnOptions o;
  Dqn d(1, 1, DqnOptions{});
  if (!(in >> o.lr >> o.gamma >> o.max_grad_norm >> o.buffer >> o.batch >> o.learning_starts >> o.train_every >>
        o.target_update >> o.eps_start >> o.eps_end >> o.exploration_steps >> o.seed >> d.steps_ >> d.updates_))
    throw Error("policy file: bad dqn settings");
  if (!(in >> d.rng_)) throw Error("policy file: bad random state");
  d.q_ = Mlp::load(in);
  d.target_ = Mlp::load(in);
  if (d.q_.sizes() != d.target_.sizes()) throw Error("policy file: the target network's shape differs from the Q-network's");
  o.hidden.assign(d.q_.sizes().begin() + 1, d.q_.sizes().end() - 1);
  d.o_ = o;
  return d;
}

namespace {

template <class T>
void put(std::ostream& out, T x) {
  out.write(reinterpret_cast<const char*>(&x), sizeof x);
}

template <class T>
T take(std::istream& in) {
  T x{};
  if (!in.read(reinterpret_cast<char*>(&x), sizeof x)) throw Error("replay buffer: truncated");
  return x;
}

// Nonzeros only: an opcount observation has a handful among ~100 opcodes.
void put_sparse(std::ostream& out, const std::vector<double>& v) {
  const auto nonzeros = static_cast<uint32_t>(std::count_if(v.begin(), v.end(), [](double x) { return x != 0; }));
  put(out, nonzeros);
  for (uint32_t i = 0; i < v.size(); ++i)
    if (v[i] != 0) put(out, i), put(out, v[i]);
}

std::vector<double> take_sparse(std::istream& in, size_t size) {
  std::vector<double> v(size, 0.0);
  const auto nonzeros = take<uint32_t>(in);
  if (nonzeros > size) throw Error("replay buffer: bad observation");
  for (uint32_t k = 0; k < nonzeros; ++k) {
    const auto i = take<uint32_t>(in);
    if (i >= size) throw Error("replay buffer: bad observation index");
    v[i] = take<double>(in);
  }
  return v;
}

}  // namespace

// A text header line, then native-endian binary records: a checkpoint for this machine.
void Dqn::save_resume_state(std::ostream& out) const {
  out << "hlsgym-replay 1 " << steps_ << ' ' << replay_.size() << ' ' << q_.input_size() << ' ' << replay_next_ << '\n';
  for (const Transition& t : replay_) {
    put(out, static_cast<int32_t>(t.action)), put(out, t.reward), put(out, static_cast<uint8_t>(t.done));
    put_sparse(out, t.observation), put_sparse(out, t.next_observation);
  }
}

void Dqn::load_resume_state(std::istream& in) {
  std::string magic;
  int version = 0;
  int64_t steps = 0;
  size_t count = 0, observation_size = 0, next = 0;
  if (!(in >> magic >> version >> steps >> count >> observation_size >> next) || magic != "hlsgym-replay" || version != 1)
    throw Error("replay buffer: not an 'hlsgym-replay 1' file");
  // A checkpoint interrupted between its two files pairs a policy with another step's buffer.
  if (steps != steps_)
    throw Error("replay buffer: saved at step " + std::to_string(steps) + ", the agent is at step " + std::to_string(steps_));
  if (count > static_cast<size_t>(o_.buffer) || observation_size != static_cast<size_t>(q_.input_size()) ||
      (next != 0 && next >= count))
    throw Error("replay buffer: does not fit this agent (size or observation width)");
  in.get();  // the header's newline
  std::vector<Transition> replay(count);
  for (Transition& t : replay) {
    t.action = take<int32_t>(in);
    t.reward = take<double>(in);
    t.done = take<uint8_t>(in) != 0;
    if (t.action < 0 || t.action >= q_.output_size()) throw Error("replay buffer: bad action");
    t.observation = take_sparse(in, observation_size);
    t.next_observation = take_sparse(in, observation_size);
  }
  replay_ = std::move(replay);
  replay_next_ = next;
}

bool Dqn::same_state(const Agent& other) const {
  const auto* o = dynamic_cast<const Dqn*>(&other);
  return o && q_ == o->q_ && target_ == o->target_ && steps_ == o->steps_ && updates_ == o->updates_ && rng_ == o->rng_;
}

}  // namespace hlsgym::rl
