// log1p and expm1: the functions that exist for their precision near 0, where log(1 + x)
// and exp(x) - 1 cancel. Below |x| = 1/2 each is x (f(x) / x): a polynomial in |x| (one
// set of tables per sign) times x's own significand, so tiny and subnormal x keep full
// relative precision. Beyond, the result is at least 0.39 in magnitude and nothing
// cancels: log1p is log(1 + x) with 1 + x exact in fixed point, expm1 is exp's core minus 1.
#include <cmath>

#include "ir/transcendental_internal.h"

namespace hlsgym::ir::transcendental {
namespace {

constexpr int kG = Format::kGuard;

// Index bits of the segments of [0, 1) (half of them used: |x| < 1/2).
int near_segment_bits(const Format& f) { return f.p() >= 24 ? 7 : 5; }


// The exponent width of the tops (two's complement, room for the format's range and more).
int top_width(const Format& f) { return f.e + 4; }

}  // namespace

Scaled times_own_significand(FxBuilder& b, const Format& f, const Decoded& d, long double (*g)(long double), bool even,
                             const char* what) {
  const int p = f.p(), s = near_segment_bits(f), uf = p + kG + s, cf = p + kG + s + 1;
  const V u = fixed_magnitude(b, f, d, 0, uf);
  const V magnitude_index = b.slice(u, uf - 1, uf - s), t = b.slice(u, uf - s - 1, 0);
  const V index = even ? magnitude_index : b.concat(d.sign, magnitude_index);
  const SegmentFn fn = [&](int64_t j, long double tt) -> std::optional<long double> {
    const int64_t seg = j & ((int64_t{1} << s) - 1);
    if (std::ldexp(static_cast<long double>(seg), -s) >= 0.5L) return std::nullopt;
    const long double x = std::max(std::ldexp(static_cast<long double>(seg) + tt, -s), 1e-30L);
    return g((j >> s) ? -x : x);
  };
  b.next_stage();
  const Polynomial poly = segment_polynomial(b, index, t, fn, cf, p + kG, what);
  b.next_stage();
  const int ew = top_width(f);
  return {b.mul(d.sig, b.slice(poly.value, cf, 0)), b.add(b.resize(d.eexp, ew), b.constant(ew, 1), ew)};
}

namespace {

V below_half(FxBuilder& b, const Format& f, const Decoded& d) { return b.not_(at_least(b, d.eexp, f.bias() - 1)); }

long double log1p_over_x(long double x) { return std::log1p(x) / x; }
long double expm1_over_x(long double x) { return std::expm1(x) / x; }

}  // namespace

FxProgram build_log1p(const Format& f) {
  FxBuilder b(f.width());
  const Decoded d = decode(b, f);
  const int p = f.p(), ew = top_width(f), start = b.stage();
  const Scaled near = times_own_significand(b, f, d, log1p_over_x, false, "log1p");
  const int near_done = b.stage();
  // v = 1 + x for 1/2 <= |x| < 2^K, exact with K integer and p fraction bits (x's lowest
  // bit there is 2^-p or above); from 2^K on, x alone (1/x is far below the rounding)
  b.set_stage(start);
  const int K = p + kG + 2, vw = K + p;
  const V xm = fixed_magnitude(b, f, d, K, p);
  const V one = b.constant(vw, u128{1} << p);
  const V v = b.mux(d.sign, b.sub(one, xm, vw), b.add(xm, one, vw));
  const V huge = at_least(b, d.eexp, f.bias() + K);
  const V lz = b.leading_zeros(v);
  const V m = b.mux(huge, b.concat(d.sig, b.constant(vw - p, 0)), b.shl_var(v, lz, vw));
  // E: the exponent of v's leading one
  const V e = b.mux(huge, b.sub(b.resize(d.eexp, ew), b.constant(ew, static_cast<u128>(f.bias())), ew),
                    b.sub(b.constant(ew, static_cast<u128>(K - 1)), b.resize(lz, ew), ew));
  // log v = E ln2 + log1p(z), z = m / 2^(vw - 1) - 1 in [0, 1); |log v| >= log 1.5 (E = 0
  // means x >= 1/2), so absolute precision is enough
  const int s = f.p() >= 24 ? 6 : 4, zb = p + kG + 2, cf = p + kG + s + 2;
  const V index = b.slice(m, vw - 2, vw - 1 - s), t = b.slice(m, vw - 2 - s, vw - 1 - s - zb);
  const SegmentFn fn = [&](int64_t j, long double tt) -> std::optional<long double> {
    return std::log1p(std::ldexp(static_cast<long double>(j) + tt, -s));
  };
  b.next_stage();
  const Polynomial poly = segment_polynomial(b, index, t, fn, cf, p + kG, "log1p");
  b.next_stage();
  const int mw = cf + 9;  // |log v| < 2^8 with cf fraction bits, and a sign
  const V ln2 = b.constant(cf + 2, static_cast<u128>(std::llroundl(std::ldexp(std::log(2.0L), cf))));
  const V sum = b.add(b.mul_signed(e, ln2, mw), b.resize(b.slice(poly.value, cf, 0), mw), mw);
  const V negative = b.bit(sum, mw - 1);
  const V magnitude = b.mux(negative, b.sub(b.constant(mw, 0), sum, mw), sum);
  b.set_stage(std::max(b.stage(), near_done));
  b.next_stage();
  const int sw = std::max(b.width(near.sig), mw);
  const V small = below_half(b, f, d);
  const V sig = b.mux(small, widen(b, near.sig, sw), widen(b, magnitude, sw));
  const V top = b.mux(small, near.top, b.constant(ew, static_cast<u128>(f.bias() + mw - 1 - cf)));
  const V rounded = b.round_pack(b.mux(small, d.sign, negative), sig, top, b.constant(1, 0), f.e, f.f);
  // x = -1: -inf; x < -1 and -inf: the invalid NaN; +inf: +inf
  const V minus_one = b.and_(b.and_(d.sign, b.is(d.field, static_cast<u128>(f.bias()))), b.is(d.frac, 0));
  const V below = b.and_(b.and_(d.sign, at_least(b, d.eexp, f.bias())), b.not_(minus_one));
  const V special_value =
      b.mux(minus_one, infinity(b, f, true), b.mux(below, default_nan(b, f), infinity(b, f, false)));
  return b.finish(select_special(b, d, f, b.or_(b.or_(minus_one, below), d.inf), special_value, rounded));
}

FxProgram build_expm1(const Format& f) {
  FxBuilder b(f.width());
  const Decoded d = decode(b, f);
  const int p = f.p(), ew = top_width(f), ib = exp_int_bits(f), uf = p + kG, start = b.stage();
  const Scaled near = times_own_significand(b, f, d, expm1_over_x, false, "expm1");
  const int near_done = b.stage();
  b.set_stage(start);
  const V big = at_least(b, d.eexp, f.bias() + ib);
  const ExpCore c = exp_core(b, f, d.sign, fixed_magnitude(b, f, d, ib, uf), ib, uf);
  b.next_stage();
  // x >= 1/2 (k >= 0): 2^k (r - 2^-k), r with two more fraction bits; the top bit of the
  // (cf + 4)-bit r stands for 2^(k + 1)
  const int cf = c.fraction, rw = cf + 4, kw = b.width(c.k);
  const V r = b.concat(c.res, b.constant(2, 0));
  const V k_abs = b.mux(d.sign, b.sub(b.constant(kw, 0), c.k, kw), c.k);
  const V minus = b.shr_var(b.constant(rw, u128{1} << (cf + 2)), k_abs);
  const V up_sig = b.sub(r, minus, rw);
  const V up_top = b.add(b.sext(c.k, ew), b.constant(ew, static_cast<u128>(f.bias() + 1)), ew);
  // x <= -1/2 (k <= -1): -(1 - r 2^k), 1 - r 2^k in [0.39, 1), cf fraction bits, its
  // (rw-bit) top bit standing for 2^3
  const V down_sig = b.sub(b.constant(rw, u128{1} << cf), b.shr_var(b.resize(c.res, rw), k_abs), rw);
  const V far_sig = b.mux(d.sign, down_sig, up_sig);
  const V far_top = b.mux(d.sign, b.constant(ew, static_cast<u128>(f.bias() + 3)), up_top);
  b.set_stage(std::max(b.stage(), near_done));
  b.next_stage();
  const int sw = std::max(b.width(near.sig), rw);
  const V small = below_half(b, f, d);
  const V sig = b.mux(small, widen(b, near.sig, sw), widen(b, far_sig, sw));
  const V top = b.mux(small, near.top, far_top);
  const V rounded = b.round_pack(d.sign, sig, top, b.constant(1, 0), f.e, f.f);
  // |x| >= 2^ib (and the infinities): +inf above, -1 below
  const V saturated = b.mux(d.sign, float_constant(b, f, -1), infinity(b, f, false));
  return b.finish(select_special(b, d, f, b.and_(big, b.not_(small)), saturated, rounded));
}

}  // namespace hlsgym::ir::transcendental
