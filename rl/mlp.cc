#include "rl/mlp.h"

#include <cmath>
#include <iomanip>
#include <istream>
#include <ostream>
#include <random>

#include "ir/error.h"
#include "rl/adam.h"
#include "rl/wire.h"

namespace hlsgym::rl {

Mlp::Mlp(std::vector<int> sizes, uint64_t seed, double output_scale) : sizes_(std::move(sizes)) {
  if (sizes_.size() < 2) throw Error("an MLP needs at least an input and an output size");
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  for (size_t l = 0; l + 1 < sizes_.size(); ++l) {
    const int in = sizes_[l], out = sizes_[l + 1];
    const double scale = std::sqrt(2.0 / (in + out)) * (l + 2 == sizes_.size() ? output_scale : 1.0);
    Eigen::MatrixXd w(in, out);
    for (int i = 0; i < in; ++i)
      for (int j = 0; j < out; ++j) w(i, j) = normal(rng) * scale;
    w_.push_back(w);
    b_.push_back(Eigen::RowVectorXd::Zero(out));
    gw_.push_back(Eigen::MatrixXd::Zero(in, out));
    mw_.push_back(Eigen::MatrixXd::Zero(in, out));
    vw_.push_back(Eigen::MatrixXd::Zero(in, out));
    gb_.push_back(Eigen::RowVectorXd::Zero(out));
    mb_.push_back(Eigen::RowVectorXd::Zero(out));
    vb_.push_back(Eigen::RowVectorXd::Zero(out));
  }
}

Eigen::MatrixXd Mlp::layer(size_t l, const Eigen::MatrixXd& in) const {
  Eigen::MatrixXd z = in * w_[l];
  z.rowwise() += b_[l];
  if (l + 1 < w_.size()) z = z.array().tanh().matrix();
  return z;
}

const Eigen::MatrixXd& Mlp::forward(const Eigen::MatrixXd& x) {
  if (x.cols() != input_size()) throw Error("MLP input has the wrong width");
  acts_.assign(1, x);
  for (size_t l = 0; l < w_.size(); ++l) acts_.push_back(layer(l, acts_.back()));
  return acts_.back();
}

Eigen::MatrixXd Mlp::predict(const Eigen::MatrixXd& x) const {
  if (x.cols() != input_size()) throw Error("MLP input has the wrong width");
  Eigen::MatrixXd a = x;
  for (size_t l = 0; l < w_.size(); ++l) a = layer(l, a);
  return a;
}

Eigen::MatrixXd Mlp::backward(const Eigen::MatrixXd& grad_out, bool want_input_grad) {
  Eigen::MatrixXd g = grad_out;
  for (size_t l = w_.size(); l-- > 0;) {
    if (l + 1 < w_.size()) g = (g.array() * (1.0 - acts_[l + 1].array().square())).matrix();  // tanh'
    gw_[l] += acts_[l].transpose() * g;
    gb_[l] += g.colwise().sum();
    if (l > 0 || want_input_grad) g = g * w_[l].transpose();
  }
  return want_input_grad ? g : Eigen::MatrixXd();
}

void Mlp::zero_grad() {
  for (auto& g : gw_) g.setZero();
  for (auto& g : gb_) g.setZero();
}

void Mlp::adam_step(double lr, double max_grad_norm) {
  double norm2 = 0;
  for (size_t l = 0; l < w_.size(); ++l) norm2 += gw_[l].squaredNorm() + gb_[l].squaredNorm();
  ++adam_t_;
  const AdamStep update(lr, AdamStep::clip_factor(norm2, max_grad_norm), adam_t_);
  for (size_t l = 0; l < w_.size(); ++l) {
    update(w_[l], gw_[l], mw_[l], vw_[l]);
    update(b_[l], gb_[l], mb_[l], vb_[l]);
  }
  zero_grad();
}

int64_t Mlp::parameter_count() const {
  int64_t n = 0;
  for (size_t l = 0; l < w_.size(); ++l) n += w_[l].size() + b_[l].size();
  return n;
}

namespace {
template <class M>
void write(std::ostream& out, const M& m) {
  for (Eigen::Index i = 0; i < m.size(); ++i) out << m.data()[i] << (i + 1 == m.size() ? "\n" : " ");
}
template <class M>
void read(std::istream& in, M& m) {
  for (Eigen::Index i = 0; i < m.size(); ++i)
    if (!(in >> m.data()[i])) throw Error("policy file: truncated network parameters");
}
}  // namespace

void Mlp::save(std::ostream& out) const {
  out << std::setprecision(17) << "mlp " << sizes_.size();
  for (int s : sizes_) out << ' ' << s;
  out << ' ' << adam_t_ << '\n';
  for (size_t l = 0; l < w_.size(); ++l) {
    write(out, w_[l]), write(out, b_[l]), write(out, mw_[l]), write(out, vw_[l]), write(out, mb_[l]), write(out, vb_[l]);
  }
}

Mlp Mlp::load(std::istream& in) {
  std::string tag;
  size_t n = 0;
  if (!(in >> tag >> n) || tag != "mlp" || n < 2 || n > 64) throw Error("policy file: expected an 'mlp' section");
  std::vector<int> sizes(n);
  for (int& s : sizes)
    if (!(in >> s) || s <= 0 || s > 1 << 16) throw Error("policy file: bad layer size");
  Mlp m(sizes, 0);
  if (!(in >> m.adam_t_)) throw Error("policy file: missing optimizer step");
  for (size_t l = 0; l < m.w_.size(); ++l) {
    read(in, m.w_[l]), read(in, m.b_[l]), read(in, m.mw_[l]), read(in, m.vw_[l]), read(in, m.mb_[l]), read(in, m.vb_[l]);
  }
  return m;
}

std::string Mlp::weight_bytes() const {
  WireWriter out;
  for (size_t l = 0; l < w_.size(); ++l) out.pods(w_[l].data(), static_cast<size_t>(w_[l].size())), out.pods(b_[l].data(), static_cast<size_t>(b_[l].size()));
  return out.take();
}

void Mlp::set_weight_bytes(const std::string& bytes) {
  WireReader in(bytes);
  for (size_t l = 0; l < w_.size(); ++l) {
    const std::vector<double> w = in.pods<double>(), b = in.pods<double>();
    if (w.size() != static_cast<size_t>(w_[l].size()) || b.size() != static_cast<size_t>(b_[l].size()))
      throw Error("network weights from another process do not match this network's sizes");
    std::copy(w.begin(), w.end(), w_[l].data());
    std::copy(b.begin(), b.end(), b_[l].data());
  }
  if (!in.done()) throw Error("network weights from another process do not match this network's sizes");
}

bool Mlp::operator==(const Mlp& o) const {
  if (sizes_ != o.sizes_ || adam_t_ != o.adam_t_) return false;
  for (size_t l = 0; l < w_.size(); ++l)
    if (w_[l] != o.w_[l] || b_[l] != o.b_[l] || mw_[l] != o.mw_[l] || vw_[l] != o.vw_[l]) return false;
  return true;
}

}  // namespace hlsgym::rl
