#include "ir/transcendental_units.h"

#include <cmath>
#include <string>

#include "ir/error.h"
#include "ir/transcendental_internal.h"

namespace hlsgym::ir {
namespace transcendental {
namespace {

constexpr int kG = Format::kGuard;

// Segment bits: 2^-S wide segments, fewer for the 16-bit formats.
int segment_bits(const Format& f, int int_bits, int f32_index_bits, int narrow_index_bits) {
  return std::max(2, (f.p() >= 24 ? f32_index_bits : narrow_index_bits) - int_bits);
}

}  // namespace

V select_special(FxBuilder& b, const Decoded& d, const Format& f, V special, V special_value, V value) {
  return b.mux(b.or_(d.nan, special), b.mux(d.nan, quiet_nan(b, f, d.bits), special_value), value);
}

ExpCore exp_core(FxBuilder& b, const Format& f, V negative, V u, int int_bits, int u_fraction) {
  const int ft = f.p() + kG, fl = f.p() + kG + int_bits;
  b.next_stage();
  const V log2e = b.constant(fl + 1, static_cast<u128>(std::llroundl(std::ldexp(1.0L / std::log(2.0L), fl))));
  const V scaled = b.shr(b.mul(u, log2e), u_fraction + fl - ft);  // int_bits + 1 integer, ft fraction bits
  return exp2_core(b, f, negative, scaled, int_bits + 1);
}

ExpCore exp2_core(FxBuilder& b, const Format& f, V negative, V scaled, int n_bits) {
  const int ft = f.p() + kG, cf = f.p() + kG, tb = f.p() >= 24 ? 6 : 4;
  b.next_stage();
  const V n = b.slice(scaled, n_bits + ft - 1, ft), phi = b.slice(scaled, ft - 1, 0);
  // x < 0: -(n + phi) = -(n + 1) + (1 - phi) when phi > 0
  const int kw = n_bits + 2;
  const V n_wide = b.resize(n, kw);
  const V up = b.add(n_wide, b.resize(b.not_(b.is(phi, 0)), kw), kw);
  const V k = b.mux(negative, b.sub(b.constant(kw, 0), up, kw), n_wide);
  const V frac = b.mux(negative, b.sub(b.constant(ft, 0), phi, ft), phi);
  const V j = b.slice(frac, ft - 1, ft - tb), r = b.slice(frac, ft - tb - 1, 0);
  const int rb = ft - tb;
  // 2^(r 2^-tb) - 1 = sum (ln2 2^-tb r')^i / i!, r' = r / 2^rb in [0, 1): enough terms for cf bits
  const long double step = std::log(2.0L) * std::ldexp(1.0L, -tb);
  int degree = 1;
  for (long double term = step * step / 2; term >= std::ldexp(1.0L, -(f.p() + kG + 1)); term *= step / (degree + 1)) ++degree;
  auto coefficient = [&](int i) {
    long double c = 1;
    for (int m = 1; m <= i; ++m) c *= step / m;
    return b.constant(cf, static_cast<u128>(std::llroundl(std::ldexp(c, cf))));
  };
  V h = coefficient(degree);
  for (int i = degree - 1; i >= 1; --i) {
    b.next_stage();
    h = b.add(coefficient(i), b.shr(b.mul(h, r), rb), cf);
  }
  b.next_stage();
  const V q = b.shr(b.mul(h, r), rb);
  b.next_stage();
  std::vector<u128> powers;
  for (int64_t i = 0; i < (int64_t{1} << tb); ++i)
    powers.push_back(static_cast<u128>(std::llroundl(std::ldexp(std::exp2(static_cast<long double>(i) / (1 << tb)), cf))));
  const V base = b.table(j, std::move(powers), cf + 1);
  const V res = b.add(base, b.shr(b.mul(base, q), cf), cf + 2);
  return {res, k, cf};
}

int exp_int_bits(const Format& f) {
  return ceil_log2((f.bias() + f.p() + 2) * std::log(2.0L) + 1);
}

namespace {

FxProgram build_exp(const Format& f) {
  FxBuilder b(f.width());
  const Decoded d = decode(b, f);
  const int ib = exp_int_bits(f), uf = f.p() + kG;
  const V big = at_least(b, d.eexp, f.bias() + ib);
  const ExpCore c = exp_core(b, f, d.sign, fixed_magnitude(b, f, d, ib, uf), ib, uf);
  const int ew = f.e + 3;
  const V top = b.add(b.sext(c.k, ew), b.constant(ew, static_cast<u128>(f.bias() + 1)), ew);
  const V rounded = b.round_pack(b.constant(1, 0), c.res, top, b.constant(1, 0), f.e, f.f);
  const V overflow = b.mux(d.sign, b.constant(f.width(), 0), infinity(b, f, false));
  return b.finish(select_special(b, d, f, big, overflow, rounded));
}

FxProgram build_log(const Format& f) {
  FxBuilder b(f.width());
  const Decoded d = decode(b, f);
  const int p = f.p(), ew = f.e + 2, s = f.p() >= 24 ? 6 : 4, cf = p + kG + s + 2;
  const V lz = b.leading_zeros(d.sig);
  const V m = b.shl_var(d.sig, lz, p);
  const V e = b.sub(b.sub(b.resize(d.eexp, ew), b.constant(ew, static_cast<u128>(f.bias())), ew), b.resize(lz, ew), ew);
  const V e_zero = b.is(e, 0), e_minus_one = b.is(e, (u128{1} << ew) - 1), negative = b.bit(e, ew - 1);
  // z in [0, 1) with p fraction bits: m - 1 (E != -1), or w = 1 - x = 1 - m / 2 (E = -1)
  const V w = b.sub(b.constant(p + 1, u128{1} << p), m, p);
  const V z = b.mux(e_minus_one, w, b.shl(b.slice(m, p - 2, 0), 1), p);
  const V index = b.concat(e_minus_one, b.slice(z, p - 1, p - s));
  const V t = b.slice(z, p - s - 1, 0);
  const int64_t per_path = int64_t{1} << s;
  const SegmentFn g = [&](int64_t j, long double tt) -> std::optional<long double> {
    const bool below = j >= per_path;
    const int64_t seg = j % per_path;
    const long double zz = std::max(std::ldexp(static_cast<long double>(seg) + tt, -s), 1e-30L);
    if (below && std::ldexp(static_cast<long double>(seg), -s) > 0.5L) return std::nullopt;  // w <= 1/2
    const long double v = below ? -std::log1p(-zz) : std::log1p(zz);
    return seg == 0 ? v / zz : v;  // the first segment: f(z) / z, multiplied by z below
  };
  b.next_stage();
  const Polynomial poly = segment_polynomial(b, index, t, g, cf, p + kG, "log");
  b.next_stage();
  // y = z h (first segment) or h, with p + cf fraction bits
  const V first = b.is(b.slice(index, s - 1, 0), 0);
  const V factor = b.mux(first, z, b.constant(p + 1, u128{1} << p), p + 1);
  const int fy = p + cf;
  const V y = b.resize(b.mul(factor, b.slice(poly.value, cf, 0)), fy + 1);
  b.next_stage();
  const V e_abs = b.mux(negative, b.sub(b.constant(ew, 0), e, ew), e);
  const V ln2 = b.constant(fy + 1, static_cast<u128>(std::llroundl(std::ldexp(std::log(2.0L), fy))));
  const int mw = fy + 8;  // |log x| < 2^8
  const V scaled = b.resize(b.mul(e_abs, ln2), mw);
  const V y_wide = b.resize(y, mw);
  const V sum = b.mux(negative, b.sub(scaled, y_wide, mw), b.add(scaled, y_wide, mw));
  const V magnitude = b.mux(b.or_(e_zero, e_minus_one), y_wide, sum);
  b.next_stage();
  const V rounded = b.round_pack(negative, magnitude, b.constant(ew + 1, static_cast<u128>(f.bias() + 7)), b.constant(1, 0),
                                 f.e, f.f);
  const V special_value = b.mux(d.zero, infinity(b, f, true), b.mux(d.sign, default_nan(b, f), infinity(b, f, false)));
  return b.finish(select_special(b, d, f, b.or_(b.or_(d.zero, d.sign), d.inf), special_value, rounded));
}

FxProgram build_rsqrt(const Format& f) {
  FxBuilder b(f.width());
  const Decoded d = decode(b, f);
  const int p = f.p(), ew = f.e + 2, s = f.p() >= 24 ? 5 : 3, cf = p + kG + 3;
  const V lz = b.leading_zeros(d.sig);
  const V m = b.shl_var(d.sig, lz, p);
  const V e = b.sub(b.sub(b.resize(d.eexp, ew), b.constant(ew, static_cast<u128>(f.bias())), ew), b.resize(lz, ew), ew);
  const V odd = b.bit(e, 0);
  // z = m or 2m in [1, 4): 2 integer bits, p - 1 fraction bits; x = 2^(e - odd) z
  const V z = b.mux(odd, b.concat(m, b.constant(1, 0)), b.concat(b.constant(1, 0), m));
  const V index = b.slice(z, p, p - 1 - s), t = b.slice(z, p - 2 - s, 0);
  const SegmentFn g = [&](int64_t j, long double tt) -> std::optional<long double> {
    if (j < (int64_t{1} << s)) return std::nullopt;
    return 1 / std::sqrt(std::ldexp(static_cast<long double>(j) + tt, -s));
  };
  b.next_stage();
  const Polynomial poly = segment_polynomial(b, index, t, g, cf, p + kG, "rsqrt");
  const V even = b.sub(e, b.resize(odd, ew), ew);
  const V top = b.sub(b.constant(ew, static_cast<u128>(f.bias())), b.sext(b.slice(even, ew - 1, 1), ew), ew);
  b.next_stage();
  const V rounded = b.round_pack(b.constant(1, 0), b.slice(poly.value, cf, 0), top, b.constant(1, 0), f.e, f.f);
  const V zero_result = b.mux(d.sign, infinity(b, f, true), infinity(b, f, false));
  const V special_value = b.mux(d.zero, zero_result, b.mux(d.sign, default_nan(b, f), b.constant(f.width(), 0)));
  return b.finish(select_special(b, d, f, b.or_(b.or_(d.zero, d.sign), d.inf), special_value, rounded));
}

// Integer bits of |x| beyond which f(|x|) rounds to 1 in format f.
int saturation_bits(const Format& f, long double (*fn)(long double)) {
  int i = 0;
  while (1 - fn(std::ldexp(1.0L, i)) >= std::ldexp(1.0L, -(f.p() + 1))) ++i;
  return i;
}

// tanh and erf: odd, f(x) ~ c x near 0, rounding to +-1 from 2^I on.
FxProgram build_odd_saturating(const Format& f, long double (*fn)(long double), const char* what) {
  FxBuilder b(f.width());
  const Decoded d = decode(b, f);
  const int p = f.p(), ib = saturation_bits(f, fn), s = segment_bits(f, ib, 7, 5), uf = p + kG + s, cf = p + kG + s + 1;
  const V big = at_least(b, d.eexp, f.bias() + ib);
  const V u = fixed_magnitude(b, f, d, ib, uf);
  const V index = b.slice(u, ib + uf - 1, uf - s), t = b.slice(u, uf - s - 1, 0);
  const SegmentFn g = [&](int64_t j, long double tt) -> std::optional<long double> {
    const long double x = std::max(std::ldexp(static_cast<long double>(j) + tt, -s), 1e-30L);
    return j == 0 ? fn(x) / x : fn(x);
  };
  b.next_stage();
  const Polynomial poly = segment_polynomial(b, index, t, g, cf, p + kG, what);
  b.next_stage();
  // first segment: x's own significand times f(x) / x; else 1 x f(x)
  const V first = b.is(index, 0);
  const V factor = b.mux(first, d.sig, b.constant(p, u128{1} << (p - 1)));
  const V product = b.mul(factor, b.slice(poly.value, cf, 0));
  const int ew = f.e + 2;
  const V top = b.add(b.mux(first, b.resize(d.eexp, ew), b.constant(ew, static_cast<u128>(f.bias()))), b.constant(ew, 1), ew);
  b.next_stage();
  const V rounded = b.round_pack(d.sign, product, top, b.constant(1, 0), f.e, f.f);
  const V one = b.mux(d.sign, float_constant(b, f, -1), float_constant(b, f, 1));
  return b.finish(select_special(b, d, f, big, one, rounded));
}

long double logistic(long double x) { return 1 / (1 + std::exp(-x)); }

FxProgram build_logistic(const Format& f) {
  FxBuilder b(f.width());
  const Decoded d = decode(b, f);
  const int p = f.p(), ib = saturation_bits(f, logistic), s = segment_bits(f, ib, 7, 5), uf = p + kG + 1, cf = p + kG + 1;
  const int eb = exp_int_bits(f), ef = p + kG;
  const V saturated = at_least(b, d.eexp, f.bias() + ib), exp_big = at_least(b, d.eexp, f.bias() + eb);
  const V ue = fixed_magnitude(b, f, d, eb, ef), us = fixed_magnitude(b, f, d, ib, uf);
  // s(|x|) on [0, 2^ib)
  const V index = b.slice(us, ib + uf - 1, uf - s), t = b.slice(us, uf - s - 1, 0);
  const SegmentFn g = [&](int64_t j, long double tt) -> std::optional<long double> {
    return logistic(std::ldexp(static_cast<long double>(j) + tt, -s));
  };
  const int start = b.stage();
  const Polynomial poly = segment_polynomial(b, index, t, g, cf, p + kG, "logistic");
  const int poly_done = b.stage();
  // x < 0: s(x) = exp(x) s(|x|), beside the polynomial
  b.set_stage(start);
  const ExpCore c = exp_core(b, f, b.constant(1, 1), ue, eb, ef);
  b.set_stage(std::max(poly_done, b.stage()));
  b.next_stage();
  const V sig = b.mux(saturated, b.constant(cf + 1, u128{1} << cf), b.slice(poly.value, cf, 0));
  const V factor = b.mux(d.sign, c.res, b.constant(c.fraction + 2, u128{1} << c.fraction));
  const V product = b.mul(factor, sig);
  const int ew = f.e + 3;
  const V top = b.add(b.mux(d.sign, b.sext(c.k, ew), b.constant(ew, 0)), b.constant(ew, static_cast<u128>(f.bias() + 2)), ew);
  b.next_stage();
  const V rounded = b.round_pack(b.constant(1, 0), product, top, b.constant(1, 0), f.e, f.f);
  // +inf: saturated to 1 by the datapath; x <= -2^eb (and -inf): 0
  return b.finish(select_special(b, d, f, b.and_(d.sign, exp_big), b.constant(f.width(), 0), rounded));
}

FxProgram build(TranscendentalOp op, const Format& f) {
  switch (op) {
    case TranscendentalOp::kExp: return build_exp(f);
    case TranscendentalOp::kLog: return build_log(f);
    case TranscendentalOp::kRsqrt: return build_rsqrt(f);
    case TranscendentalOp::kTanh: return build_odd_saturating(f, [](long double x) { return std::tanh(x); }, "tanh");
    case TranscendentalOp::kErf: return build_odd_saturating(f, [](long double x) { return std::erf(x); }, "erf");
    case TranscendentalOp::kLogistic: return build_logistic(f);
    case TranscendentalOp::kLog1p: return build_log1p(f);
    case TranscendentalOp::kExpm1: return build_expm1(f);
    case TranscendentalOp::kSin: return build_sin_cos(f, false);
    case TranscendentalOp::kCos: return build_sin_cos(f, true);
  }
  throw std::logic_error("transcendental units: unknown op");
}

}  // namespace
}  // namespace transcendental

std::optional<TranscendentalOp> transcendental_op(Opcode op) {
  switch (op) {
    case Opcode::kExp: return TranscendentalOp::kExp;
    case Opcode::kLog: return TranscendentalOp::kLog;
    case Opcode::kTanh: return TranscendentalOp::kTanh;
    case Opcode::kLogistic: return TranscendentalOp::kLogistic;
    case Opcode::kRsqrt: return TranscendentalOp::kRsqrt;
    case Opcode::kErf: return TranscendentalOp::kErf;
    case Opcode::kLog1p: return TranscendentalOp::kLog1p;
    case Opcode::kExpm1: return TranscendentalOp::kExpm1;
    case Opcode::kSin: return TranscendentalOp::kSin;
    case Opcode::kCos: return TranscendentalOp::kCos;
    default: return std::nullopt;
  }
}

Opcode opcode_of(TranscendentalOp op) {
  switch (op) {
    case TranscendentalOp::kExp: return Opcode::kExp;
    case TranscendentalOp::kLog: return Opcode::kLog;
    case TranscendentalOp::kTanh: return Opcode::kTanh;
    case TranscendentalOp::kLogistic: return Opcode::kLogistic;
    case TranscendentalOp::kRsqrt: return Opcode::kRsqrt;
    case TranscendentalOp::kErf: return Opcode::kErf;
    case TranscendentalOp::kLog1p: return Opcode::kLog1p;
    case TranscendentalOp::kExpm1: return Opcode::kExpm1;
    case TranscendentalOp::kSin: return Opcode::kSin;
    case TranscendentalOp::kCos: return Opcode::kCos;
  }
  return Opcode::kExp;
}

const char* transcendental_name(TranscendentalOp op) {
  static const char* const kNames[] = {"exp", "log", "tanh", "logistic", "rsqrt", "erf", "log1p", "expm1", "sin", "cos"};
  return kNames[static_cast<int>(op)];
}

bool has_transcendental_unit(ElementType t) {
  return t == ElementType::kF32 || t == ElementType::kF16 || t == ElementType::kBF16;
}

const FxProgram& transcendental_program(TranscendentalOp op, ElementType t) {
  const transcendental::Format f = transcendental::format_of(t);
  return transcendental::cached_program(std::string(transcendental_name(op)) + " " + std::string(element_type_name(t)),
                                        [&] { return transcendental::build(op, f); });
}

uint64_t transcendental_unit(TranscendentalOp op, ElementType t, uint64_t bits) {
  return transcendental::run_unit(transcendental_program(op, t), bits);
}

}  // namespace hlsgym::ir
