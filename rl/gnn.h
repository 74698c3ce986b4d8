// A message-passing network over the HLO graph (issue 18 item 2, the paper's future work),
// trained end to end with the actor-critic learner: the `gnn` observation space
// (`--observation opcount+graph-wl+gnn`) puts its graph embedding next to the flat
// observation at the input of the policy and the value networks (rl/actor_critic.h).
//
// Input, one per state (GnnGraph, built once per state by gnn_graph(), shared by every
// step and rollout row that sees the state):
//   - each live instruction's opcode as two hashed labels of its name (kGnnBuckets each;
//     as graph_wl's labels, a new opcode renumbering the enum moves nothing, and the sum of
//     two hashed embeddings tells apart opcodes that collide in one table);
//   - kGnnDenseFeatures numbers: byte width, element class (float, integer, pred, complex),
//     rank, log elements, tuple, computation root, in the entry computation;
//   - operand edges (one per operand position, and the root of each called computation to
//     its caller) and, their mirror, user edges, as CSR lists.
// Network (hidden width H, kGnnRounds rounds):
//   h0    = relu(E1[label1] + E2[label2] + x W_in + b_in)
//   h_k+1 = relu([h_k, mean over operands h_k, mean over users h_k] W_k + b_k)
//           (separate weights for the node itself, its operands and its users; a node
//           without operands or users gets zeros there)
//   out   = [mean over nodes h_K, max over nodes h_K]          (2H values)
// so the output depends on the graph, not on instruction ids or their order.
//
// Several graphs run as one batch (their nodes stacked, one matrix product per round), so
// a minibatch costs one pass over all of its nodes. backward() takes dLoss/dOut per graph
// of the last forward() and accumulates every parameter's gradient (manual backprop,
// checked by finite differences in tests/rl/gnn_test.cc); adam_step() as Mlp's.
#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <vector>

#include "ir/module.h"

namespace hlsgym::rl {

inline constexpr int kGnnBuckets = 128;
inline constexpr int kGnnDenseFeatures = 10;
inline constexpr int kGnnRounds = 2;
// `train --observation ...+gnn`'s width: small, since the encoder runs on every state of
// the RL hot path (bench/gnn_bench.cc).
inline constexpr int kGnnDefaultHidden = 16;

struct GnnGraph {
  std::vector<int32_t> label1, label2;  // per node, in [0, kGnnBuckets)
  Eigen::MatrixXd dense;                // nodes x kGnnDenseFeatures
  // CSR: node i's operands are op_col[op_ptr[i] .. op_ptr[i+1]), its users likewise.
  std::vector<int32_t> op_ptr, op_col, user_ptr, user_col;
  int nodes() const { return static_cast<int>(label1.size()); }
};

// The graph of every live instruction of `m`, in instruction-slot order.
std::shared_ptr<const GnnGraph> gnn_graph(const ir::Module& m);

class GnnEncoder {
 public:
  GnnEncoder() = default;
  GnnEncoder(int hidden, uint64_t seed);

  int hidden() const { return hidden_; }
  int output_size() const { return 2 * hidden_; }
  bool empty() const { return hidden_ == 0; }

  // One row per graph; keeps what backward() needs.
  const Eigen::MatrixXd& forward(const std::vector<const GnnGraph*>& graphs);
  // forward()'s numbers without keeping anything (const: rollout threads share it).
  Eigen::MatrixXd predict(const std::vector<const GnnGraph*>& graphs) const;
  void backward(const Eigen::MatrixXd& grad_out);  // graphs x output_size()
  void adam_step(double lr, double max_grad_norm);
  void zero_grad();

  // Parameter groups (E1, E2, W_in, b_in, then W_k, b_k per round), for the gradient check.
  std::vector<Eigen::MatrixXd>& parameters() { return p_; }
  const std::vector<Eigen::MatrixXd>& gradients() const { return g_; }
  int64_t parameter_count() const;

  void save(std::ostream& out) const;   // "gnn H rounds buckets features adam_t", then values
  static GnnEncoder load(std::istream& in);  // throws hlsgym::Error
  bool operator==(const GnnEncoder& o) const;

 private:
  struct Pass;  // one batch's activations
  void run(const std::vector<const GnnGraph*>& graphs, Pass& s) const;

  int hidden_ = 0;
  std::vector<Eigen::MatrixXd> p_, g_, m_, v_;
  int64_t adam_t_ = 0;
  std::shared_ptr<Pass> last_;  // forward()'s activations
  std::vector<const GnnGraph*> last_graphs_;
};

}  // namespace hlsgym::rl
