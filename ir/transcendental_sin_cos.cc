// sine and cosine over the whole float range, Payne-Hanek style: y = |x| 2/pi mod 4 is
// the product of x's significand S and a window of 2/pi's bits that x's exponent selects
// (a table of one window per exponent field), so no x is too large. With x = S 2^q:
// 2/pi 2^q's bits of weight 4 and above make multiples of 4 (S is an integer) and drop out;
// those below 2^-(F + p + 4) add less than 2^-(F + 4) in all. y = k + r, r in [-1/2, 1/2),
// then sin(|x|) = +-sin(r pi/2) or +-cos(r pi/2) by k (cosine: k + 1).
//
// F, y's fraction bits, bounds the absolute error of r (below 2^-F x 1.07); sin(r pi/2)
// needs r to p + 6 bits relative, so F covers p + 6 bits plus the zeros a float closest
// to a multiple of pi/2 puts in front of r: about as many bits as the format has values
// (f32: r > 2^-32 for every |x| >= 1/2); F = 74 for f32, 46 for bf16, 52 for f16.
// |r| is normalized before the product with sin(u pi/2) / u, so r's leading zeros cost
// no precision. Below |x| = 1/2, sine is x (sin(x) / x) with x's own significand (the
// reduction's absolute precision would not do for tiny x); cosine there is the reduction's
// k = 0 case, cos near 1 needing only absolute precision.
#include <cmath>
#include <stdexcept>

#include "ir/transcendental_internal.h"

namespace hlsgym::ir::transcendental {
namespace {

constexpr int kG = Format::kGuard;

// 2/pi's first 384 fraction bits (2/pi = 0.a2f9836e... in hex), from Machin's formula in
// integer arithmetic (a wrong bit fails the sin/cos error bounds of
// tests/ir/transcendental_units_test.cc for the exponents that read it).
constexpr const char* kTwoOverPi =
    "a2f9836e4e441529fc2757d1f534ddc0db6295993c439041fe5163abdebbc561b7246e3a424dd2e006492eea09d1921c";

// Fraction bit i (i >= 1: weight 2^-i) of 2/pi; 0 past the bits above.
int two_over_pi_bit(int i) {
  const int digits = 96;
  if (i < 1 || i > digits * 4) {
    if (i > digits * 4) throw std::logic_error("sin/cos: 2/pi needed past its 384 stored bits");
    return 0;
  }
  const char c = kTwoOverPi[(i - 1) / 4];
  const int nibble = c <= '9' ? c - '0' : c - 'a' + 10;
  return (nibble >> (3 - (i - 1) % 4)) & 1;
}

// floor(2/pi 2^n) mod 2^width.
u128 two_over_pi_window(int n, int width) {
  u128 w = 0;
  for (int i = n - width + 1; i <= n; ++i) w = (w << 1) | static_cast<u128>(two_over_pi_bit(i));
  return w;
}

// F: the reduction's fraction bits (the file comment); the product S x window fits 128 bits.
int sin_cos_fraction_bits(const Format& f) { return std::min(2 * f.p() + kG + 24, 128 - 2 * f.p() - 6); }

}  // namespace

FxProgram build_sin_cos(const Format& f, bool cosine) {
  FxBuilder b(f.width());
  const Decoded d = decode(b, f);
  const int p = f.p(), F = sin_cos_fraction_bits(f), W = F + p + 6, ew = f.e + 4;
  // y = S 2^q 2/pi mod 4, q = eexp - bias - (p - 1): the window of 2/pi 2^(q + F + p + 4)
  std::vector<u128> windows(static_cast<size_t>(1) << f.e);
  for (int e = 1; e < (1 << f.e); ++e)
    windows[static_cast<size_t>(e)] = two_over_pi_window(e - f.bias() - (p - 1) + F + p + 4, W);
  const V window = b.table(d.eexp, std::move(windows), W);
  const int start = b.stage();
  b.next_stage();
  const V y = b.slice(b.mul(d.sig, window), W - 1, p + 4);  // 2 integer bits, F fraction bits
  b.next_stage();
  const V frac = b.slice(y, F - 1, 0), up = b.bit(frac, F - 1);  // frac >= 1/2: k one more, r < 0
  const V k = b.add(b.slice(y, F + 1, F), b.resize(up, 2), 2);
  const V quadrant = cosine ? b.add(k, b.constant(2, 1), 2) : k;
  const V r = b.mux(up, b.sub(b.constant(F + 1, u128{1} << F), frac, F), frac, F);  // |r| <= 1/2
  const V lz = b.leading_zeros(r);
  const int P = p + kG + 2, s = p >= 24 ? 6 : 4, tb = p + kG + 2;
  const V mantissa = b.slice(b.shl_var(r, lz, F), F - 1, F - P);
  const V index = b.slice(r, F - 1, F - s), t = b.slice(r, F - 1 - s, F - s - tb);
  auto segment = [&](long double (*fn)(long double)) -> SegmentFn {
    return [&, fn](int64_t j, long double tt) -> std::optional<long double> {
      if (std::ldexp(static_cast<long double>(j), -s) > 0.5L) return std::nullopt;  // |r| <= 1/2
      return fn(std::max(std::ldexp(static_cast<long double>(j) + tt, -s), 1e-30L));
    };
  };
  static long double (*const sin_over)(long double) = [](long double u) {
    return std::sin(u * std::acos(-1.0L) / 2) / u;
  };
  static long double (*const cos_of)(long double) = [](long double u) { return std::cos(u * std::acos(-1.0L) / 2); };
  const int cf = p + kG + s + 1;
  b.next_stage();
  const int poly_start = b.stage();
  const Polynomial hs = segment_polynomial(b, index, t, segment(sin_over), cf, p + kG, cosine ? "cos" : "sin");
  const int hs_done = b.stage();
  b.set_stage(poly_start);
  const Polynomial hc = segment_polynomial(b, index, t, segment(cos_of), cf, p + kG, cosine ? "cos" : "sin");
  b.set_stage(std::max(b.stage(), hs_done));
  b.next_stage();
  // quadrant even: +-sin(r pi/2) = +-|r| h(|r|), |r| = mantissa 2^-(1 + lz) with the top
  // bit 2^-1-lz: the product's top bit stands for 2^-lz; odd: +-cos(r pi/2), top bit 2^0
  const int sw = P + cf + 1;
  const V on_sin = b.not_(b.bit(quadrant, 0));
  const V sin_sig = b.mul(mantissa, b.slice(hs.value, cf, 0));
  const V cos_sig = b.concat(b.slice(hc.value, cf, 0), b.constant(P, 0));
  V sig = b.mux(on_sin, sin_sig, cos_sig, sw);
  V top = b.mux(on_sin, b.sub(b.constant(ew, static_cast<u128>(f.bias())), b.resize(lz, ew), ew),
                b.constant(ew, static_cast<u128>(f.bias())), ew);
  V negative = xor_(b, b.bit(quadrant, 1), b.and_(on_sin, up));
  if (!cosine) {
    negative = xor_(b, negative, d.sign);
    // |x| < 1/2: x (sin(x) / x)
    const int end = b.stage();
    b.set_stage(start);
    const Scaled near = times_own_significand(b, f, d, [](long double x) { return std::sin(x) / x; }, true, "sin");
    const int nw = std::max(sw, b.width(near.sig));
    b.set_stage(std::max(b.stage(), end));
    const V small = b.not_(at_least(b, d.eexp, f.bias() - 1));
    sig = b.mux(small, widen(b, near.sig, nw), widen(b, sig, nw));
    top = b.mux(small, near.top, top);
    negative = b.mux(small, d.sign, negative);
  }
  b.next_stage();
  const V rounded = b.round_pack(negative, sig, top, b.constant(1, 0), f.e, f.f);
  return b.finish(select_special(b, d, f, d.inf, default_nan(b, f), rounded));
}

}  // namespace hlsgym::ir::transcendental
