// Ops outside the arithmetic core: JAX's threefry custom-call (exact), identity-like
// custom-calls, deterministic placeholders for opaque ops, batch normalization, and
// collectives under "every participant holds the same value" semantics.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "ir/evaluate_internal.h"

namespace hlsgym::ir::eval {
namespace {

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t hash_bytes(uint64_t h, std::span<const std::byte> b) {
  for (std::byte x : b) h = (h ^ static_cast<uint64_t>(x)) * 0x100000001b3ull;
  return h;
}

uint64_t hash_literal(uint64_t h, const Literal& l) {
  if (l.is_tuple()) {
    for (const auto& e : l.tuple_elements()) h = hash_literal(h, e);
    return h;
  }
  return hash_bytes(h, l.bytes());
}

void fill(Literal& l, uint64_t& state) {
  if (l.is_tuple()) {
    for (auto& e : l.tuple_elements()) fill(e, state);
    return;
  }
  const ElementType t = l.shape().element_type();
  for (int64_t k = 0; k < l.element_count(); ++k) {
    const uint64_t r = splitmix(state);
    if (is_floating(t)) l.set_double(k, static_cast<double>(r >> 11) * 0x1.0p-52 - 1.0);
    else if (is_complex(t)) l.set_double(k, static_cast<double>(r >> 11) * 0x1.0p-52 - 1.0);
    else l.set_bits(k, t == ElementType::kPred ? (r & 1) : r);
  }
}

// The operand elements a placeholder may read, flattened across operand leaves.
struct PlaceholderSource {
  const std::vector<const Literal*>& leaves;
  const std::vector<int64_t>& ends;
  bool integer_operands;
  const Literal& leaf_of(int64_t flat, int64_t& k) const {
    const size_t l = static_cast<size_t>(std::upper_bound(ends.begin(), ends.end(), flat) - ends.begin());
    k = flat - (l == 0 ? 0 : ends[l - 1]);
    return *leaves[l];
  }
};

void collect_leaves(const Literal& l, std::vector<const Literal*>& out) {
  if (!l.is_tuple()) {
    out.push_back(&l);
    return;
  }
  for (const auto& e : l.tuple_elements()) collect_leaves(e, out);
}

double unit(uint64_t& s) { return static_cast<double>(splitmix(s) >> 11) * 0x1.0p-53; }  // [0, 1)

void fill_smooth(Literal& l, uint64_t h, const PlaceholderSource& src, uint64_t& position) {
  if (l.is_tuple()) {
    for (auto& e : l.tuple_elements()) fill_smooth(e, h, src, position);
    return;
  }
  constexpr int kTaps = 3;
  const ElementType t = l.shape().element_type();
  const bool exact = src.integer_operands && !is_floating(t) && !is_complex(t);
  for (int64_t k = 0; k < l.element_count(); ++k, ++position) {
    uint64_t s = h ^ (position * 0x9e3779b97f4a7c15ull);
    double v = unit(s) - 0.5;
    uint64_t bits = splitmix(s);
    for (int tap = 0; tap < kTaps; ++tap) {
      int64_t at = 0;
      const Literal& leaf = src.leaf_of(static_cast<int64_t>(splitmix(s) % static_cast<uint64_t>(src.ends.back())), at);
      if (exact) {
        bits = (bits ^ leaf.get_bits(at)) * 0x100000001b3ull;
        bits ^= bits >> 29;
      } else {
        const double gain = 2 * unit(s) - 1, slope = 0.1 + unit(s);
        v += gain * std::tanh(slope * leaf.get_double(at));
      }
    }
    if (exact) l.set_bits(k, t == ElementType::kPred ? (splitmix(bits) & 1) : splitmix(bits));
    else if (t == ElementType::kPred) l.set_bits(k, v > 0);
    else if (is_floating(t) || is_complex(t)) l.set_double(k, v);
    else l.set_double(k, std::floor(v * 16));
  }
}

uint32_t rotl(uint32_t v, int r) { return (v << r) | (v >> (32 - r)); }

}  // namespace

void threefry2x32(uint32_t k0, uint32_t k1, uint32_t& x0, uint32_t& x1) {
  static constexpr int kRot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const uint32_t ks[3] = {k0, k1, 0x1BD11BDAu ^ k0 ^ k1};
  x0 += ks[0];
  x1 += ks[1];
  for (int i = 0; i < 20; ++i) {
    x0 += x1;
    x1 = rotl(x1, kRot[i % 8]);
    x1 ^= x0;
    if (i % 4 == 3) {
      const uint32_t s = static_cast<uint32_t>(i / 4 + 1);
      x0 += ks[s % 3];
      x1 += ks[(s + 1) % 3] + s;
    }
  }
}

Literal eval_threefry(const OpContext& c) {
  if (c.args.size() != 4) c.fail("cuda_threefry2x32 takes key0, key1, x0, x1");
  Literal out(c.shape());
  if (!out.is_tuple() || out.tuple_elements().size() != 2) c.fail("cuda_threefry2x32 returns a pair");
  Literal& y0 = out.tuple_elements()[0];
  Literal& y1 = out.tuple_elements()[1];
  const int64_t n = y0.element_count();
  auto at = [&](size_t a, int64_t k) {
    return static_cast<uint32_t>(c.args[a]->get_bits(c.args[a]->element_count() == 1 ? 0 : k));
  };
  for (int64_t k = 0; k < n; ++k) {
    uint32_t x0 = at(2, k), x1 = at(3, k);
    threefry2x32(at(0, k), at(1, k), x0, x1);
    y0.set_bits(k, x0);
    y1.set_bits(k, x1);
  }
  return out;
}

// Placeholder values must depend on the operand values (so a pass that changes what
// reaches an opaque op is caught) and must be continuous in float operands: a pass that
// may reround floats moves an operand by an ulp, and a hash of the bytes would then
// give an unrelated output, a false mismatch. So each output element is a smooth
// function, sum_i c_i * tanh(s_i * x_i) + d, of a few operand elements chosen (with
// c, s, d) from a hash of the op's identity and the element's position. Integer and
// pred outputs of integer-only operands hash those elements' bits instead (exact).
Literal placeholder_value(const OpContext& c) {
  uint64_t h = 0xcbf29ce484222325ull;
  const std::string& target = c.attrs().custom_call_target;
  const std::string_view op = name(c.m.opcode(c.i));
  h = hash_bytes(h, std::as_bytes(std::span(target.data(), target.size())));
  h = hash_bytes(h, std::as_bytes(std::span(op.data(), op.size())));
  std::vector<const Literal*> leaves;
  for (const Literal* a : c.args) collect_leaves(*a, leaves);
  std::vector<int64_t> ends;  // cumulative element counts of the operand leaves
  bool integer_operands = true;
  for (const Literal* l : leaves) {
    ends.push_back((ends.empty() ? 0 : ends.back()) + l->element_count());
    integer_operands &= !is_floating(l->shape().element_type()) && !is_complex(l->shape().element_type());
  }
  Literal out(c.shape());
  if (ends.empty() || ends.back() == 0) {  // nothing to depend on (or an elided constant)
    if (c.m.opcode(c.i) == Opcode::kConstant) {
      // The literal's own seed where it has one, so clones and renames keep the values.
      const uint64_t seed = c.m.literal(c.i).elided_seed();
      if (seed != 0) h = hash_bytes(h, std::as_bytes(std::span(&seed, 1)));
      else h = hash_bytes(h, std::as_bytes(std::span(c.m.name(c.i).data(), c.m.name(c.i).size())));
    }
    fill(out, h);
    return out;
  }
  PlaceholderSource src{leaves, ends, integer_operands};
  uint64_t position = 0;
  fill_smooth(out, h, src, position);
  return out;
}

Literal eval_batch_norm(const OpContext& c) {
  const Opcode op = c.m.opcode(c.i);
  const Literal& x = *c.args[0];
  const int64_t fi = c.attrs().feature_index;
  const double eps = c.attrs().epsilon;
  const auto& dims = x.shape().dims();
  const int64_t nf = dims[fi];
  const int64_t per = nf == 0 ? 0 : x.element_count() / nf;
  auto feat = [&](int64_t k) { return eval::unravel(k, dims)[fi]; };
  std::vector<double> mean(nf, 0), var(nf, 0);
  if (op == Opcode::kBatchNormInference) {
    for (int64_t f = 0; f < nf; ++f) mean[f] = c.args[3]->get_double(f), var[f] = c.args[4]->get_double(f);
  } else {
    for (int64_t k = 0; k < x.element_count(); ++k) mean[feat(k)] += x.get_double(k);
    for (auto& m : mean) m /= static_cast<double>(std::max<int64_t>(per, 1));
    for (int64_t k = 0; k < x.element_count(); ++k) {
      const double d = x.get_double(k) - mean[feat(k)];
      var[feat(k)] += d * d;
    }
    for (auto& v : var) v /= static_cast<double>(std::max<int64_t>(per, 1));
  }
  const Shape& xs = c.shape().is_tuple() ? c.shape().tuple_element(0) : c.shape();
  Literal y(xs);
  if (op == Opcode::kBatchNormGrad) {
    // grad_operand, grad_scale, grad_offset from (operand, scale, mean, var, grad_output).
    const Literal& scale = *c.args[1];
    const Literal& gy = *c.args[4];
    for (int64_t f = 0; f < nf; ++f) mean[f] = c.args[2]->get_double(f), var[f] = c.args[3]->get_double(f);
    std::vector<double> sum_gy(nf, 0), sum_gy_xc(nf, 0);
    for (int64_t k = 0; k < x.element_count(); ++k) {
      sum_gy[feat(k)] += gy.get_double(k);
      sum_gy_xc[feat(k)] += gy.get_double(k) * (x.get_double(k) - mean[feat(k)]);
    }
    Literal gs(c.shape().tuple_element(1)), go(c.shape().tuple_element(2));
    for (int64_t k = 0; k < x.element_count(); ++k) {
      const int64_t f = feat(k);
      const double inv = 1.0 / std::sqrt(var[f] + eps);
      const double xc = x.get_double(k) - mean[f];
      const double n = static_cast<double>(per);
      y.set_double(k, scale.get_double(f) * inv / n * (n * gy.get_double(k) - sum_gy[f] - xc * inv * inv * sum_gy_xc[f]));
    }
    for (int64_t f = 0; f < nf; ++f) {
      gs.set_double(f, sum_gy_xc[f] / std::sqrt(var[f] + eps));
      go.set_double(f, sum_gy[f]);
    }
    Literal t(c.shape());
    t.tuple_elements() = {std::move(y), std::move(gs), std::move(go)};
    return t;
  }
  const Literal& scale = *c.args[1];
  const Literal& offset = *c.args[2];
  for (int64_t k = 0; k < x.element_count(); ++k) {
    const int64_t f = feat(k);
    y.set_double(k, (x.get_double(k) - mean[f]) / std::sqrt(var[f] + eps) * scale.get_double(f) + offset.get_double(f));
  }
  if (op == Opcode::kBatchNormInference) return y;
  Literal m(c.shape().tuple_element(1)), v(c.shape().tuple_element(2));
  for (int64_t f = 0; f < nf; ++f) m.set_double(f, mean[f]), v.set_double(f, var[f]);
  Literal t(c.shape());
  t.tuple_elements() = {std::move(y), std::move(m), std::move(v)};
  return t;
}

}  // namespace hlsgym::ir::eval
