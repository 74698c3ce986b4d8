// dot and convolution. In the reference order, integer products accumulate with
// wrap-around in 64 bits and are truncated to the result width (order does not matter);
// floating-point products accumulate in double and round once to the result type. In
// the hardware order (EvalOptions::accumulation) every output goes through LaneAccumulator.
#include <algorithm>
#include <optional>

#include "ir/evaluate_internal.h"

namespace hlsgym::ir::eval {
namespace {

struct Accumulator {
  bool fp;
  double f = 0;
  uint64_t i = 0;
  void add(const Literal& a, int64_t ai, const Literal& b, int64_t bi) {
    if (fp) f += a.get_double(ai) * b.get_double(bi);
    else i += static_cast<uint64_t>(a.get_int(ai)) * static_cast<uint64_t>(b.get_int(bi));
  }
  // n products a[ai + j*as] * b[bi + j*bs], in order; typed loops for f32 and f64.
  void add_strided(const Literal& a, int64_t ai, int64_t as, const Literal& b, int64_t bi, int64_t bs, int64_t n) {
    const ElementType ta = a.shape().element_type(), tb = b.shape().element_type();
    if (fp && ta == ElementType::kF32 && tb == ElementType::kF32) {
      const float* pa = a.data<float>().data() + ai;
      const float* pb = b.data<float>().data() + bi;
      for (int64_t j = 0; j < n; ++j) f += static_cast<double>(pa[j * as]) * static_cast<double>(pb[j * bs]);
      return;
    }
    if (fp && ta == ElementType::kF64 && tb == ElementType::kF64) {
      const double* pa = a.data<double>().data() + ai;
      const double* pb = b.data<double>().data() + bi;
      for (int64_t j = 0; j < n; ++j) f += pa[j * as] * pb[j * bs];
      return;
    }
    for (int64_t j = 0; j < n; ++j) add(a, ai + j * as, b, bi + j * bs);
  }
  void store(Literal& out, int64_t k) const {
    if (fp) out.set_double(k, f);
    else out.set_int(k, static_cast<int64_t>(i));
  }
};

// One output as the FPGA's multiply-accumulate lanes compute it (AccumulationOrder::
// kHardware): both operands converted to the result type (rtl mac_operand), each product
// and each sum rounded to it as the units do (binary_element: integers wrap, f16/bf16
// round from f32), every chunk's sum starting from +0 (the accumulator is cleared on a
// chunk's first term, rtl emit_accumulate), the chunks joined by the adder tree.
class LaneAccumulator {
 public:
  LaneAccumulator(ElementType type, const TermOrder& order)
      : order_(order), a_(Shape::scalar(type)), b_(Shape::scalar(type)), partials_(Shape(type, {order.chunks})) {}
  void begin() {
    for (int64_t k = 0; k < order_.chunks; ++k) partials_.set_int(k, 0);
  }
  // Term `term` (in the RTL's visiting order): a[ai] * b[bi].
  void add(int64_t term, const Literal& a, int64_t ai, const Literal& b, int64_t bi) {
    convert_element(a, ai, a_, 0);
    convert_element(b, bi, b_, 0);
    binary_element(Opcode::kMultiply, a_, 0, b_, 0, a_, 0);
    const int64_t ch = order_.chunk_of(term);
    binary_element(Opcode::kAdd, partials_, ch, a_, 0, partials_, ch);
  }
  void store(Literal& out, int64_t o) {
    order_.for_each_join([&](int64_t l, int64_t r) { binary_element(Opcode::kAdd, partials_, l, partials_, r, partials_, l); });
    copy_element(partials_, 0, out, o);
  }

 private:
  TermOrder order_;
  Literal a_, b_;     // the operands of the current product, in the result type
  Literal partials_;  // one per chunk
};

// The hardware order of an op with `terms` terms per output, or nullopt for the reference.
std::optional<LaneAccumulator> lane_accumulator(const OpContext& c, int64_t terms) {
  const TermOrder order = term_order(c, terms);
  if (!order.hardware) return std::nullopt;
  if (is_complex(c.shape().element_type())) c.fail("no hardware accumulation order for complex numbers");
  return LaneAccumulator(c.shape().element_type(), order);
}

// An operand of a float dot with one contracting dimension (of length n, stride `step`),
// copied as doubles with that dimension innermost: row r holds the n terms one output
// element sums. Walking the right operand of a row-major matmul by its stride misses the
// cache on every product; the packed rows are contiguous, and the sum reads the same
// values (get_double, as the accumulator does) in the same order, so the same result.
struct Packed {
  std::vector<double> v;
  int64_t step = 1, n = 0;
  bool ok = false;
  // The row whose contracting coordinate 0 is at linear index `base`.
  const double* row(int64_t base) const { return v.data() + (base / (step * n) * step + base % step) * n; }
};

// Operands above this many elements are not packed (the copy would take 8 bytes each,
// outside the interpreter's memory budget); they take the strided path.
constexpr int64_t kMaxPackedElements = int64_t{1} << 25;

Packed pack(const Literal& x, int64_t step, int64_t n) {
  Packed p;
  p.step = step, p.n = n;
  const int64_t total = x.element_count();
  if (n <= 0 || step <= 0 || total > kMaxPackedElements) return p;
  p.v.resize(static_cast<size_t>(total));
  for (int64_t r = 0; r < total / n; ++r) {
    const int64_t base = r / step * step * n + r % step;
    for (int64_t c = 0; c < n; ++c) p.v[static_cast<size_t>(r * n + c)] = x.get_double(base + c * step);
  }
  p.ok = true;
  return p;
}

bool uses_fp(const Literal& a, const Literal& b, const Shape& out) {
  return is_floating(a.shape().element_type()) || is_floating(b.shape().element_type()) ||
         is_floating(out.element_type());
}

Literal dot(const OpContext& c) {
  const Literal& l = *c.args[0];
  const Literal& r = *c.args[1];
  const DotDims d = c.attrs().dot_dims.value_or(DotDims{});
  auto free_dims = [](const Shape& s, const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    std::vector<int64_t> f;
    for (int64_t x = 0; x < s.rank(); ++x)
      if (std::count(a.begin(), a.end(), x) == 0 && std::count(b.begin(), b.end(), x) == 0) f.push_back(x);
    return f;
  };
  const auto lfree = free_dims(l.shape(), d.lhs_batch, d.lhs_contracting);
  const auto rfree = free_dims(r.shape(), d.rhs_batch, d.rhs_contracting);
  std::vector<int64_t> csizes;
  for (int64_t x : d.lhs_contracting) csizes.push_back(l.shape().dim(x));
  int64_t cn = 1;
  for (int64_t s : csizes) cn *= s;
  const auto ls = row_major_strides(l.shape().dims()), rs = row_major_strides(r.shape().dims());
  Literal out(c.shape());
  const bool fp = uses_fp(l, r, c.shape());
  std::vector<int64_t> li(l.shape().rank()), ri(r.shape().rank());
  std::optional<LaneAccumulator> lane = lane_accumulator(c, cn);
  // Calls visit(term, lhs index, rhs index) for every term of the output li/ri point at,
  // row-major over the contracting dimensions (the RTL's term order, plan_dot).
  auto for_each_term = [&](auto&& visit) {
    std::vector<int64_t> ci(csizes.size(), 0);
    for (int64_t k = 0; k < cn; ++k, next_index(ci, csizes)) {
      for (size_t j = 0; j < ci.size(); ++j) li[d.lhs_contracting[j]] = ri[d.rhs_contracting[j]] = ci[j];
      visit(k, ravel(li, ls), ravel(ri, rs));
    }
  };
  Packed lp, rp;
  if (fp && !lane && csizes.size() == 1 && out.element_count() > 0) {
    lp = pack(l, ls[d.lhs_contracting[0]], cn);
    rp = pack(r, rs[d.rhs_contracting[0]], cn);
  }
  for (int64_t o = 0; o < out.element_count(); ++o) {
    auto oi = unravel(o, c.shape().dims());
    size_t q = 0;
    for (size_t k = 0; k < d.lhs_batch.size(); ++k, ++q) li[d.lhs_batch[k]] = ri[d.rhs_batch[k]] = oi[q];
    for (int64_t x : lfree) li[x] = oi[q++];
    for (int64_t x : rfree) ri[x] = oi[q++];
    if (lane) {
      lane->begin();
      for_each_term([&](int64_t k, int64_t la, int64_t ra) { lane->add(k, l, la, r, ra); });
      lane->store(out, o);
      continue;
    }
    Accumulator acc{fp};
    if (csizes.size() == 1) {
      // One contracting dimension (nearly every real dot): walk both operands by stride.
      const int64_t lstep = ls[d.lhs_contracting[0]], rstep = rs[d.rhs_contracting[0]];
      li[d.lhs_contracting[0]] = ri[d.rhs_contracting[0]] = 0;
      const int64_t lb = ravel(li, ls), rb = ravel(ri, rs);
      if (lp.ok && rp.ok) {
        const double *pa = lp.row(lb), *pb = rp.row(rb);
        for (int64_t j = 0; j < cn; ++j) acc.f += pa[j] * pb[j];
      } else {
        acc.add_strided(l, lb, lstep, r, rb, rstep, cn);
      }
    } else {
      for_each_term([&](int64_t, int64_t la, int64_t ra) { acc.add(l, la, r, ra); });
    }
    acc.store(out, o);
  }
  return out;
}

Literal convolution(const OpContext& c) {
  const Literal& in = *c.args[0];
  const Literal& ker = *c.args[1];
  const ConvDims& d = *c.attrs().conv_dims;
  const Window& w = *c.attrs().window;
  const int64_t fg = c.attrs().feature_group_count, bg = c.attrs().batch_group_count;
  const Shape& os = c.shape();
  const size_t ns = d.input_spatial.size();
  const int64_t in_feat = in.shape().dim(d.input_feature);
  const int64_t kin = ker.shape().dim(d.kernel_input_feature);
  const int64_t out_feat = ker.shape().dim(d.kernel_output_feature);
  const int64_t out_batch = os.dim(d.output_batch);
  const int64_t feats_per_group = out_feat / fg;
  const int64_t out_feats_per_bgroup = out_feat / bg;
  const auto is = row_major_strides(in.shape().dims()), ks = row_major_strides(ker.shape().dims());
  std::vector<int64_t> ksizes;
  for (size_t s = 0; s < ns; ++s) ksizes.push_back(ker.shape().dim(d.kernel_spatial[s]));
  int64_t kn = 1;
  for (int64_t s : ksizes) kn *= s;
  Literal out(os);
  const bool fp = uses_fp(in, ker, os);
  std::vector<int64_t> ii(in.shape().rank()), ki(ker.shape().rank());
  std::optional<LaneAccumulator> lane = lane_accumulator(c, kin * kn);
  (void)in_feat;
  for (int64_t o = 0; o < out.element_count(); ++o) {
    auto oi = unravel(o, os.dims());
    const int64_t b = oi[d.output_batch], f = oi[d.output_feature];
    const int64_t group = f / std::max<int64_t>(feats_per_group, 1);
    const int64_t bgroup = f / std::max<int64_t>(out_feats_per_bgroup, 1);
    // Calls visit(term, input index, kernel index) for every term of output o that is not
    // padding: input feature outer, kernel spatial positions row-major inner (the RTL's
    // term order, plan_convolution), a term numbered by its place in that order.
    auto for_each_term = [&](auto&& visit) {
      for (int64_t ci = 0; ci < kin; ++ci) {
        ii[d.input_feature] = group * kin + ci;
        ii[d.input_batch] = bgroup * out_batch + b;
        ki[d.kernel_input_feature] = ci;
        ki[d.kernel_output_feature] = f;
        std::vector<int64_t> kk(ksizes.size(), 0);
        for (int64_t k = 0; k < kn; ++k, next_index(kk, ksizes)) {
          bool inside = true;
          for (size_t s = 0; s < ns && inside; ++s) {
            const WindowDim& wd = w[s];
            const int64_t kpos = wd.reversal ? ksizes[s] - 1 - kk[s] : kk[s];
            const int64_t x = window_source(wd, oi[d.output_spatial[s]], kk[s], in.shape().dim(d.input_spatial[s]));
            inside = x >= 0;
            ii[d.input_spatial[s]] = x;
            ki[d.kernel_spatial[s]] = kpos;
          }
          if (inside) visit(ci * kn + k, ravel(ii, is), ravel(ki, ks));
        }
      }
    };
    if (lane) {
      lane->begin();
      for_each_term([&](int64_t t, int64_t ia, int64_t ka) { lane->add(t, in, ia, ker, ka); });
      lane->store(out, o);
      continue;
    }
    Accumulator acc{fp};
    for_each_term([&](int64_t, int64_t ia, int64_t ka) { acc.add(in, ia, ker, ka); });
    acc.store(out, o);
  }
  return out;
}

}  // namespace

Literal eval_contraction(const OpContext& c) {
  if (c.m.opcode(c.i) == Opcode::kDot) return dot(c);
  return convolution(c);
}

}  // namespace hlsgym::ir::eval
