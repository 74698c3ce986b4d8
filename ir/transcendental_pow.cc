// x^y for any y (a variable or a constant that is no small integer): 2^(y log2|x|) in
// extended fixed point, the IEEE special cases as C99's pow (the interpreter's powf).
//
// log2|x| = E + log2(m), x = 2^E m, m in [1, 2). Near 1 the sum cancels, so there the unit
// works from the exact distance to 1: E = 0: v = m - 1, log2 x = v g(v); E = -1:
// v = 1 - x, log2 x = -v g'(v), each g a polynomial (g(v) = log2(1 + v) / v, g'(v) =
// -log2(1 - v) / v); elsewhere |log2 x| >= 1 and E + v g(v) in fixed point is precise
// enough. log2|x| is then normalized (its leading zeros cost nothing) and multiplied by
// y's significand: z = y log2|x| to p + 6 fraction bits, |z| < 2^9 (beyond: over- or
// underflow in every format). 2^z is exp's core (ir/transcendental_units.cc).
// log2's relative precision is 2^-(p + 16): 9 bits for z's integer part, 7 to spare.
#include <cmath>
#include <string>

#include "ir/power_unit.h"
#include "ir/transcendental_internal.h"

namespace hlsgym::ir::transcendental {
namespace {

constexpr int kG = Format::kGuard;

}  // namespace

FxProgram build_pow(const Format& f) {
  const int w = f.width(), p = f.p(), ew = f.e + 4;
  FxBuilder b(2 * w);
  const Decoded x = decode(b, f, b.slice(b.input(), w - 1, 0));
  const Decoded y = decode(b, f, b.slice(b.input(), 2 * w - 1, w));
  // ---- log2|x| ----
  const V lz = b.leading_zeros(x.sig);
  const V m = b.shl_var(x.sig, lz, p);
  const V e = b.sub(b.sub(b.resize(x.eexp, ew), b.constant(ew, static_cast<u128>(f.bias())), ew), b.resize(lz, ew), ew);
  const V e_zero = b.is(e, 0), e_minus_one = b.is(e, (u128{1} << ew) - 1);
  // v with p fraction bits: 1 - m/2 (E = -1), else m - 1
  const V v = b.mux(e_minus_one, b.sub(b.constant(p + 1, u128{1} << p), m, p), b.shl(b.slice(m, p - 2, 0), 1), p);
  const int s = p >= 24 ? 8 : 5, cf = p + kG + 18 + s;
  const V index = b.concat(e_minus_one, b.slice(v, p - 1, p - s)), t = b.slice(v, p - s - 1, 0);
  const int64_t per_path = int64_t{1} << s;
  const SegmentFn g = [&](int64_t j, long double tt) -> std::optional<long double> {
    const bool below = j >= per_path;
    const int64_t seg = j % per_path;
    if (below && std::ldexp(static_cast<long double>(seg), -s) > 0.5L) return std::nullopt;  // 1 - x <= 1/2
    const long double vv = std::max(std::ldexp(static_cast<long double>(seg) + tt, -s), 1e-30L);
    return (below ? -std::log1p(-vv) : std::log1p(vv)) / (vv * std::log(2.0L));
  };
  b.next_stage();
  const Polynomial poly = segment_polynomial(b, index, t, g, cf, p + kG + 16, "pow");
  b.next_stage();
  const int hf = p + cf;  // h = v g(v) < 1, hf fraction bits
  const V h = b.mul(v, b.slice(poly.value, cf + 1, 0), hf + 1);
  const int lw = ew + hf;
  const V sum = b.add(b.concat(e, b.constant(hf, 0)), b.resize(h, lw), lw);  // E + h, two's complement
  const V near = b.or_(e_zero, e_minus_one);
  const V l_negative = b.mux(near, e_minus_one, b.bit(e, ew - 1));
  const V l_mag = b.mux(near, b.resize(h, lw), b.mux(l_negative, b.sub(b.constant(lw, 0), sum, lw), sum));
  b.next_stage();
  const int pl = p + kG + 12;
  const V l_lz = b.leading_zeros(l_mag);
  const V l_sig = b.slice(b.shl_var(l_mag, l_lz, lw), lw - 1, lw - pl);
  // ---- z = y log2|x|: y.sig l_sig 2^sh, sh = (ey - (p - 1)) + (lw - 1 - hf - l_lz - (pl - 1)) ----
  const int aw = ew + 4;
  const int zf = p + kG, zi = 9;
  const V sh = b.sub(b.sub(b.resize(y.eexp, aw),
                           b.constant(aw, static_cast<u128>(f.bias() + (p - 1) - (lw - 1 - hf) + (pl - 1))), aw),
                     b.resize(l_lz, aw), aw);
  // right shift by -(sh + zf); a left shift means |z| >= 2^9
  const V amount = b.sub(b.constant(aw, 0), b.add(sh, b.constant(aw, static_cast<u128>(zf)), aw), aw);
  b.next_stage();
  const V product = b.mul(y.sig, l_sig);
  const V shifted = b.shr_var(product, amount);
  const int pw = b.width(product);
  // (log2|x| = 0, x = -1: z = 0 for any y)
  const V overflow = b.and_(b.not_(b.is(l_sig, 0)),
                            b.or_(b.bit(amount, aw - 1), b.not_(b.is(b.slice(shifted, pw - 1, zi + zf), 0))));
  const V z = b.slice(shifted, zi + zf - 1, 0);
  const V z_negative = xor_(b, y.sign, l_negative);
  const ExpCore c = exp2_core(b, f, z_negative, z, zi);
  // ---- the sign: x < 0 and y an odd integer ----
  const V y_ge_one = at_least(b, y.eexp, f.bias());
  const int cw = fx_bits_for(static_cast<u128>(p));
  const V ey = b.mux(at_least(b, y.eexp, f.bias() + p), b.constant(cw, static_cast<u128>(p)),
                     b.resize(b.sub(y.eexp, b.constant(f.e, static_cast<u128>(f.bias())), f.e), cw));
  const V y_shifted = b.shl_var(b.resize(y.sig, 2 * p + 1), ey, 2 * p + 1);
  const V y_integer = b.mux(y_ge_one, b.is(b.slice(y_shifted, p - 2, 0), 0), y.zero);
  const V y_odd = b.and_(y_integer, b.and_(y_ge_one, b.bit(y_shifted, p - 1)));
  const V negative = b.and_(x.sign, y_odd);
  const V top = b.add(b.sext(c.k, ew + 2), b.constant(ew + 2, static_cast<u128>(f.bias() + 1)), ew + 2);
  b.next_stage();
  const V rounded = b.round_pack(negative, c.res, top, b.constant(1, 0), f.e, f.f);
  // ---- special cases, lowest priority first ----
  const V zero = b.mux(negative, float_constant(b, f, -0.0L), b.constant(w, 0));
  const V inf = b.mux(negative, infinity(b, f, true), infinity(b, f, false));
  const V one = float_constant(b, f, 1);
  V r = b.mux(overflow, b.mux(z_negative, zero, inf), rounded);
  // x < 0 finite, y finite and no integer: invalid
  r = b.mux(b.and_(b.and_(x.sign, b.not_(b.or_(x.inf, x.zero))), b.and_(b.not_(y_integer), b.not_(y.inf))),
            default_nan(b, f), r);
  // x = +-0: y < 0 gives inf, y > 0 zero; x = +-inf: the other way round (signed when y is odd)
  r = b.mux(x.zero, b.mux(y.sign, inf, zero), r);
  r = b.mux(x.inf, b.mux(y.sign, zero, inf), r);
  // y = +-inf: |x| = 1: 1; |x| < 1: y = -inf gives +inf; |x| > 1: y = +inf gives +inf; else +0
  const V x_below_one = b.not_(at_least(b, x.eexp, f.bias()));
  const V x_abs_one = b.and_(b.is(x.field, static_cast<u128>(f.bias())), b.is(x.frac, 0));
  r = b.mux(y.inf, b.mux(x_abs_one, one, b.mux(xor_(b, x_below_one, y.sign), b.constant(w, 0), infinity(b, f, false))), r);
  r = b.mux(y.nan, quiet_nan(b, f, y.bits), r);
  r = b.mux(x.nan, quiet_nan(b, f, x.bits), r);
  // pow(+1, y) and pow(x, +-0) are 1, NaNs included
  r = b.mux(b.or_(b.and_(x_abs_one, b.not_(x.sign)), y.zero), one, r);
  return b.finish(r);
}

}  // namespace hlsgym::ir::transcendental

namespace hlsgym::ir {

const FxProgram& power_program(ElementType t) {
  const transcendental::Format f = transcendental::format_of(t);
  return transcendental::cached_program("pow " + std::string(element_type_name(t)), [&] { return transcendental::build_pow(f); });
}

uint64_t power_unit(ElementType t, uint64_t x_bits, uint64_t y_bits) {
  return transcendental::run_pair_unit(power_program(t), transcendental::format_of(t), x_bits, y_bits);
}

}  // namespace hlsgym::ir
