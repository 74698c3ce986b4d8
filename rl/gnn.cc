#include "rl/gnn.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <istream>
#include <ostream>
#include <random>
#include <string>

#include "ir/error.h"
#include "rl/adam.h"

namespace hlsgym::rl {

namespace {

// Row-major: the message passing reads and writes whole node rows.
using NodeMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Two independent hashes (FNV-1a from two offsets) of each opcode's name; see gnn.h.
std::array<std::array<int32_t, ir::kOpcodeCount>, 2> opcode_labels() {
  std::array<std::array<int32_t, ir::kOpcodeCount>, 2> l{};
  for (int op = 0; op < ir::kOpcodeCount; ++op)
    for (int t = 0; t < 2; ++t) {
      uint64_t h = t == 0 ? 0xcbf29ce484222325ull : 0x84222325cbf29ce4ull;
      for (char ch : ir::name(static_cast<ir::Opcode>(op))) h = (h ^ static_cast<unsigned char>(ch)) * 0x100000001b3ull;
      h ^= h >> 29;  // FNV's low bits mix poorly
      l[static_cast<size_t>(t)][static_cast<size_t>(op)] = static_cast<int32_t>((h * 0x9E3779B97F4A7C15ull) >> 57);
    }
  static_assert(kGnnBuckets == 128, "the shift above takes 7 bits");
  return l;
}

// CSR of the reversed edges: users of each node, from the operand lists.
void transpose_csr(int n, const std::vector<int32_t>& ptr, const std::vector<int32_t>& col, std::vector<int32_t>& tptr,
                   std::vector<int32_t>& tcol) {
  tptr.assign(static_cast<size_t>(n) + 1, 0);
  for (int32_t j : col) ++tptr[static_cast<size_t>(j) + 1];
  for (int i = 0; i < n; ++i) tptr[static_cast<size_t>(i) + 1] += tptr[static_cast<size_t>(i)];
  tcol.resize(col.size());
  std::vector<int32_t> fill(tptr.begin(), tptr.end() - 1);
  for (int i = 0; i < n; ++i)
    for (int32_t e = ptr[static_cast<size_t>(i)]; e < ptr[static_cast<size_t>(i) + 1]; ++e)
      tcol[static_cast<size_t>(fill[static_cast<size_t>(col[static_cast<size_t>(e)])]++)] = i;
}

// f(row, first, last, base, at) for every node of a batch with operands (at = H: the
// operand block of its concatenated row) and every node with users (at = 2H): the stacked
// row, its neighbours' local ids [first, last), and its graph's first stacked row.
template <class F>
void for_each_neighbourhood(const std::vector<const GnnGraph*>& graphs, const std::vector<int>& offset, int H, F f) {
  for (size_t g = 0; g < graphs.size(); ++g) {
    const GnnGraph& gr = *graphs[g];
    const int base = offset[g];
    for (int i = 0; i < gr.nodes(); ++i) {
      const auto u = static_cast<size_t>(i);
      if (gr.op_ptr[u] < gr.op_ptr[u + 1]) f(base + i, &gr.op_col[static_cast<size_t>(gr.op_ptr[u])], gr.op_col.data() + gr.op_ptr[u + 1], base, H);
      if (gr.user_ptr[u] < gr.user_ptr[u + 1])
        f(base + i, &gr.user_col[static_cast<size_t>(gr.user_ptr[u])], gr.user_col.data() + gr.user_ptr[u + 1], base, 2 * H);
    }
  }
}

}  // namespace

std::shared_ptr<const GnnGraph> gnn_graph(const ir::Module& m) {
  static const auto labels = opcode_labels();
  auto g = std::make_shared<GnnGraph>();
  const size_t slots = m.instruction_slots();
  std::vector<int32_t> node_of(slots, -1);
  int n = 0;
  for (ir::InstrId i = 0; i < slots; ++i)
    if (!m.instr(i).dead) node_of[i] = n++;
  g->label1.reserve(static_cast<size_t>(n));
  g->label2.reserve(static_cast<size_t>(n));
  g->dense.resize(n, kGnnDenseFeatures);
  g->op_ptr.reserve(static_cast<size_t>(n) + 1);
  g->op_ptr.push_back(0);
  g->op_col.reserve(2 * static_cast<size_t>(n));
  for (ir::InstrId i = 0; i < slots; ++i) {
    const int v = node_of[i];
    if (v < 0) continue;
    const auto op = static_cast<size_t>(m.opcode(i));
    g->label1.push_back(labels[0][op]);
    g->label2.push_back(labels[1][op]);
    const ir::Shape& s = m.shape(i);
    const ir::ElementType t = s.element_type();
    const bool array = s.is_array();
    const double elements = array ? static_cast<double>(s.element_count()) : 0.0;
    auto row = g->dense.row(v);
    row << (array ? ir::byte_width(t) / 8.0 : 0.0), ir::is_floating(t) ? 1.0 : 0.0, ir::is_integral(t) ? 1.0 : 0.0,
        t == ir::ElementType::kPred ? 1.0 : 0.0, ir::is_complex(t) ? 1.0 : 0.0, s.rank() / 4.0, std::log1p(elements) / 16.0,
        s.is_tuple() ? 1.0 : 0.0, m.is_root(i) ? 1.0 : 0.0, m.computation_of(i) == m.entry() ? 1.0 : 0.0;
    for (ir::InstrId o : m.operands(i))
      if (node_of[o] >= 0) g->op_col.push_back(node_of[o]);
    for (ir::CompId callee : m.called(i)) {
      const ir::InstrId root = m.computation(callee).root;
      if (root != ir::kNoId && node_of[root] >= 0) g->op_col.push_back(node_of[root]);
    }
    g->op_ptr.push_back(static_cast<int32_t>(g->op_col.size()));
  }
  transpose_csr(n, g->op_ptr, g->op_col, g->user_ptr, g->user_col);
  return g;
}

// ---- the encoder ----

struct GnnEncoder::Pass {
  std::vector<int> offset;      // graph g's nodes are rows [offset[g], offset[g+1])
  NodeMat x;                    // stacked dense features
  std::vector<int32_t> l1, l2;  // stacked labels
  NodeMat z0;                   // round 0 pre-activation
  std::vector<NodeMat> cat, z;  // per round: [h, operand mean, user mean] and its pre-activation
  NodeMat h;                    // the last round's output
  Eigen::MatrixXd out;          // graphs x 2H
  Eigen::MatrixXi argmax;       // graphs x H: the node (stacked row) of each max
};

namespace {
enum { kE1, kE2, kWin, kBin, kRounds0 };  // parameter groups; round k: W at kRounds0 + 2k, b after it
}

GnnEncoder::GnnEncoder(int hidden, uint64_t seed) : hidden_(hidden) {
  if (hidden <= 0 || hidden > 4096) throw Error("gnn: the hidden width must be positive");
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  auto init = [&](int rows, int cols, double scale) {
    Eigen::MatrixXd w(rows, cols);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) w(i, j) = normal(rng) * scale;
    p_.push_back(w);
  };
  // He initialization (ReLU layers); the two label tables each give half the variance.
  init(kGnnBuckets, hidden, std::sqrt(0.5));
  init(kGnnBuckets, hidden, std::sqrt(0.5));
  init(kGnnDenseFeatures, hidden, std::sqrt(2.0 / kGnnDenseFeatures));
  init(1, hidden, 0.0);
  for (int k = 0; k < kGnnRounds; ++k) {
    init(3 * hidden, hidden, std::sqrt(2.0 / (3 * hidden)));
    init(1, hidden, 0.0);
  }
  for (const auto& p : p_) {
    g_.push_back(Eigen::MatrixXd::Zero(p.rows(), p.cols()));
    m_.push_back(g_.back());
    v_.push_back(g_.back());
  }
}

void GnnEncoder::run(const std::vector<const GnnGraph*>& graphs, Pass& s) const {
  const int H = hidden_, G = static_cast<int>(graphs.size());
  s.offset.assign(1, 0);
  for (const GnnGraph* g : graphs) s.offset.push_back(s.offset.back() + g->nodes());
  const int N = s.offset.back();
  s.x.resize(N, kGnnDenseFeatures);
  s.l1.resize(static_cast<size_t>(N));
  s.l2.resize(static_cast<size_t>(N));
  for (int g = 0; g < G; ++g) {
    const GnnGraph& gr = *graphs[static_cast<size_t>(g)];
    s.x.middleRows(s.offset[static_cast<size_t>(g)], gr.nodes()) = gr.dense;
    std::copy(gr.label1.begin(), gr.label1.end(), s.l1.begin() + s.offset[static_cast<size_t>(g)]);
    std::copy(gr.label2.begin(), gr.label2.end(), s.l2.begin() + s.offset[static_cast<size_t>(g)]);
  }
  s.z0.noalias() = s.x * p_[kWin];
  s.z0.rowwise() += p_[kBin].row(0);
  for (int i = 0; i < N; ++i) s.z0.row(i) += p_[kE1].row(s.l1[static_cast<size_t>(i)]) + p_[kE2].row(s.l2[static_cast<size_t>(i)]);
  s.h = s.z0.cwiseMax(0.0);
  s.cat.resize(kGnnRounds);
  s.z.resize(kGnnRounds);
  for (int k = 0; k < kGnnRounds; ++k) {
    NodeMat& c = s.cat[static_cast<size_t>(k)];
    c.resize(N, 3 * H);
    c.leftCols(H) = s.h;
    c.rightCols(2 * H).setZero();
    for_each_neighbourhood(graphs, s.offset, H, [&](int row, const int32_t* first, const int32_t* last, int base, int at) {
      auto dst = c.row(row).segment(at, H);
      for (const int32_t* t = first; t != last; ++t) dst += s.h.row(base + *t);
      dst /= static_cast<double>(last - first);
    });
    NodeMat& z = s.z[static_cast<size_t>(k)];
    z.noalias() = c * p_[static_cast<size_t>(kRounds0 + 2 * k)];
    z.rowwise() += p_[static_cast<size_t>(kRounds0 + 2 * k + 1)].row(0);
    s.h = z.cwiseMax(0.0);
  }
  s.out = Eigen::MatrixXd::Zero(G, 2 * H);
  s.argmax = Eigen::MatrixXi::Constant(G, H, -1);
  for (int g = 0; g < G; ++g) {
    const int b = s.offset[static_cast<size_t>(g)], n = s.offset[static_cast<size_t>(g) + 1] - b;
    if (n == 0) continue;  // an empty graph reads as zeros
    s.out.row(g).head(H) = s.h.middleRows(b, n).colwise().sum() / n;
    for (int j = 0; j < H; ++j) {
      Eigen::Index at = 0;
      s.out(g, H + j) = s.h.col(j).segment(b, n).maxCoeff(&at);
      s.argmax(g, j) = b + static_cast<int>(at);
    }
  }
}

const Eigen::MatrixXd& GnnEncoder::forward(const std::vector<const GnnGraph*>& graphs) {
  if (empty()) throw Error("gnn: the encoder has no parameters");
  last_ = std::make_shared<Pass>();
  last_graphs_ = graphs;
  run(graphs, *last_);
  return last_->out;
}

Eigen::MatrixXd GnnEncoder::predict(const std::vector<const GnnGraph*>& graphs) const {
  if (empty()) throw Error("gnn: the encoder has no parameters");
  Pass s;
  run(graphs, s);
  return std::move(s.out);
}

void GnnEncoder::backward(const Eigen::MatrixXd& grad_out) {
  if (!last_) throw Error("gnn: backward without forward");
  const Pass& s = *last_;
  const int H = hidden_, G = static_cast<int>(last_graphs_.size()), N = s.offset.back();
  if (grad_out.rows() != G || grad_out.cols() != 2 * H) throw Error("gnn: the output gradient has the wrong shape");
  NodeMat dh = NodeMat::Zero(N, H);
  for (int g = 0; g < G; ++g) {
    const int b = s.offset[static_cast<size_t>(g)], n = s.offset[static_cast<size_t>(g) + 1] - b;
    if (n == 0) continue;
    dh.middleRows(b, n).rowwise() += grad_out.row(g).head(H) / n;
    for (int j = 0; j < H; ++j) dh(s.argmax(g, j), j) += grad_out(g, H + j);
  }
  for (int k = kGnnRounds - 1; k >= 0; --k) {
    const NodeMat& z = s.z[static_cast<size_t>(k)];
    const NodeMat dz = (z.array() > 0.0).select(dh.array(), 0.0).matrix();
    const auto w = static_cast<size_t>(kRounds0 + 2 * k);
    g_[w].noalias() += s.cat[static_cast<size_t>(k)].transpose() * dz;
    g_[w + 1] += dz.colwise().sum();
    const NodeMat dcat = dz * p_[w].transpose();
    dh = dcat.leftCols(H);
    for_each_neighbourhood(last_graphs_, s.offset, H, [&](int row, const int32_t* first, const int32_t* last, int base, int at) {
      const Eigen::RowVectorXd d = dcat.row(row).segment(at, H) / static_cast<double>(last - first);
      for (const int32_t* t = first; t != last; ++t) dh.row(base + *t) += d;
    });
  }
  const NodeMat dz0 = (s.z0.array() > 0.0).select(dh.array(), 0.0).matrix();
  g_[kWin].noalias() += s.x.transpose() * dz0;
  g_[kBin] += dz0.colwise().sum();
  for (int i = 0; i < N; ++i) {
    g_[kE1].row(s.l1[static_cast<size_t>(i)]) += dz0.row(i);
    g_[kE2].row(s.l2[static_cast<size_t>(i)]) += dz0.row(i);
  }
}

void GnnEncoder::zero_grad() {
  for (auto& g : g_) g.setZero();
}

void GnnEncoder::adam_step(double lr, double max_grad_norm) {
  double norm2 = 0;
  for (const auto& g : g_) norm2 += g.squaredNorm();
  ++adam_t_;
  const AdamStep update(lr, AdamStep::clip_factor(norm2, max_grad_norm), adam_t_);
  for (size_t i = 0; i < p_.size(); ++i) update(p_[i], g_[i], m_[i], v_[i]);
  zero_grad();
  last_.reset();
}

int64_t GnnEncoder::parameter_count() const {
  int64_t n = 0;
  for (const auto& p : p_) n += p.size();
  return n;
}

void GnnEncoder::save(std::ostream& out) const {
  out << std::setprecision(17) << "gnn " << hidden_ << ' ' << kGnnRounds << ' ' << kGnnBuckets << ' ' << kGnnDenseFeatures
      << ' ' << adam_t_ << '\n';
  for (size_t i = 0; i < p_.size(); ++i)
    for (const Eigen::MatrixXd* m : {&p_[i], &m_[i], &v_[i]})
      for (Eigen::Index k = 0; k < m->size(); ++k) out << m->data()[k] << (k + 1 == m->size() ? "\n" : " ");
}

GnnEncoder GnnEncoder::load(std::istream& in) {
  std::string tag;
  int hidden = 0, rounds = 0, buckets = 0, features = 0;
  if (!(in >> tag >> hidden >> rounds >> buckets >> features) || tag != "gnn" || hidden <= 0 || hidden > 4096)
    throw Error("policy file: expected a 'gnn' section");
  if (rounds != kGnnRounds || buckets != kGnnBuckets || features != kGnnDenseFeatures)
    throw Error("policy file: its graph network has " + std::to_string(rounds) + " rounds, " + std::to_string(buckets) +
                " label buckets and " + std::to_string(features) + " node features; this build's has " +
                std::to_string(kGnnRounds) + ", " + std::to_string(kGnnBuckets) + " and " +
                std::to_string(kGnnDenseFeatures) + " (train it again)");
  GnnEncoder e(hidden, 0);
  if (!(in >> e.adam_t_)) throw Error("policy file: missing the graph network's optimizer step");
  for (size_t i = 0; i < e.p_.size(); ++i)
    for (Eigen::MatrixXd* m : {&e.p_[i], &e.m_[i], &e.v_[i]})
      for (Eigen::Index k = 0; k < m->size(); ++k)
        if (!(in >> m->data()[k])) throw Error("policy file: truncated graph network parameters");
  return e;
}

bool GnnEncoder::operator==(const GnnEncoder& o) const {
  return hidden_ == o.hidden_ && adam_t_ == o.adam_t_ && p_ == o.p_ && m_ == o.m_ && v_ == o.v_;
}

}  // namespace hlsgym::rl
