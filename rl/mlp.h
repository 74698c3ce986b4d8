// A small multilayer perceptron on Eigen with Adam, for the policy and value networks of
// the RL agents. Deterministic: weights come from a seeded std::mt19937_64 (scaled
// Gaussian init, as Glorot), and every operation runs in a fixed order.
#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace hlsgym::rl {

// One sample as a one-row batch (a view copied into a matrix), the networks' input form.
inline Eigen::MatrixXd as_row(const std::vector<double>& v) {
  return Eigen::Map<const Eigen::RowVectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

class Mlp {
 public:
  Mlp() = default;
  // sizes: input, hidden..., output. tanh between layers; the output layer is linear.
  Mlp(std::vector<int> sizes, uint64_t seed, double output_scale = 1.0);

  // One batch (rows = samples) forward; keeps the activations for backward().
  const Eigen::MatrixXd& forward(const Eigen::MatrixXd& x);
  // forward()'s numbers without keeping the activations: const, so rollout workers on
  // several threads share one network instead of copying it (weights and Adam moments) for
  // every rollout.
  Eigen::MatrixXd predict(const Eigen::MatrixXd& x) const;
  // Accumulates parameter gradients from dLoss/dOutput of the last forward() batch; with
  // want_input_grad, returns dLoss/dInput (for an encoder in front of the network, rl/gnn.h).
  Eigen::MatrixXd backward(const Eigen::MatrixXd& grad_out, bool want_input_grad = false);
  // One Adam step with the accumulated gradients (clipped to a global norm), then clears them.
  void adam_step(double lr, double max_grad_norm = 0.5);
  void zero_grad();

  int input_size() const { return sizes_.front(); }
  int output_size() const { return sizes_.back(); }
  const std::vector<int>& sizes() const { return sizes_; }
  int64_t parameter_count() const;

  // The weights and biases alone (no gradients, no Adam moments) as raw bytes, for sending
  // a learner's network to processes that only run it forward (rl::RolloutShards).
  std::string weight_bytes() const;
  void set_weight_bytes(const std::string& bytes);  // same sizes; throws hlsgym::Error

  // Text form: sizes, Adam step, then every weight, bias and Adam moment at full precision.
  void save(std::ostream& out) const;
  static Mlp load(std::istream& in);  // throws hlsgym::Error on malformed input
  bool operator==(const Mlp& o) const;

 private:
  Eigen::MatrixXd layer(size_t l, const Eigen::MatrixXd& in) const;  // the one place a layer is computed

  std::vector<int> sizes_;
  std::vector<Eigen::MatrixXd> w_, gw_, mw_, vw_;  // weights (in x out), grads, Adam moments
  std::vector<Eigen::RowVectorXd> b_, gb_, mb_, vb_;
  std::vector<Eigen::MatrixXd> acts_;  // inputs of each layer, then the output
  int64_t adam_t_ = 0;
};

}  // namespace hlsgym::rl
