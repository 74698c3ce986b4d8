// One Adam update of a parameter block (Kingma & Ba), shared by the MLP and the graph
// encoder so both optimize alike: the gradient scaled by the network's global-norm clip
// factor, the moments updated, the step taken with bias correction c1, c2.
#pragma once
#include <cmath>
#include <cstdint>

namespace hlsgym::rl {

struct AdamStep {
  static constexpr double b1 = 0.9, b2 = 0.999, eps = 1e-8;
  double lr, clip, c1, c2;
  // After incrementing the step count t (from 1).
  AdamStep(double lr_, double clip_, int64_t t)
      : lr(lr_), clip(clip_), c1(1 - std::pow(b1, static_cast<double>(t))), c2(1 - std::pow(b2, static_cast<double>(t))) {}
  // The clip factor for a gradient of squared norm norm2 under max_grad_norm (<= 0: none).
  static double clip_factor(double norm2, double max_grad_norm) {
    return max_grad_norm > 0 && std::sqrt(norm2) > max_grad_norm ? max_grad_norm / std::sqrt(norm2) : 1.0;
  }
  template <class P, class G, class M, class V>
  void operator()(P& p, G& g, M& m, V& v) const {
    g *= clip;
    m = b1 * m + (1 - b1) * g;
    v = b2 * v + (1 - b2) * g.cwiseProduct(g);
    p.array() -= lr * (m.array() / c1) / ((v.array() / c2).sqrt() + eps);
  }
};

}  // namespace hlsgym::rl
