// Elementwise ops with HLO's rules: integers wrap at their width, division by zero and
// overflow follow XLA's defined results, shifts by >= the bit width saturate; floats are
// computed in float (f32 and narrower, then rounded to the type) or double (f64).
#include <bit>
#include <cmath>
#include <complex>
#include <limits>

#include "ir/atan2_unit.h"
#include "ir/evaluate_internal.h"
#include "ir/float_formats.h"
#include "ir/integer_power_unit.h"
#include "ir/power_unit.h"
#include "ir/reduce_precision_unit.h"
#include "ir/transcendental_units.h"

namespace hlsgym::ir::eval {
namespace {
using T = ElementType;

bool is_fp(T t) { return is_floating(t); }

int64_t sext(uint64_t v, int w) {
  if (w >= 64) return static_cast<int64_t>(v);
  const uint64_t m = uint64_t{1} << (w - 1);
  v &= (uint64_t{1} << w) - 1;
  return static_cast<int64_t>((v ^ m) - m);
}
uint64_t mask(int w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

// Integer binary op on values read as int64 (signed) or uint64 bits (unsigned).
uint64_t int_binary(Opcode op, uint64_t a, uint64_t b, int w, bool is_signed) {
  const int64_t sa = sext(a, w), sb = sext(b, w);
  const uint64_t ua = a & mask(w), ub = b & mask(w);
  const int64_t smin = w >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (w - 1));
  switch (op) {
    case Opcode::kAdd: return ua + ub;
    case Opcode::kSubtract: return ua - ub;
    case Opcode::kMultiply: return ua * ub;
    case Opcode::kDivide:
      if (ub == 0) return ~uint64_t{0};  // XLA: x / 0 = -1 (all ones)
      if (is_signed) return sa == smin && sb == -1 ? static_cast<uint64_t>(smin) : static_cast<uint64_t>(sa / sb);
      return ua / ub;
    case Opcode::kRemainder:
      if (ub == 0) return ua;  // XLA: x % 0 = x
      if (is_signed) return sa == smin && sb == -1 ? 0 : static_cast<uint64_t>(sa % sb);
      return ua % ub;
    case Opcode::kMaximum: return is_signed ? static_cast<uint64_t>(std::max(sa, sb)) : std::max(ua, ub);
    case Opcode::kMinimum: return is_signed ? static_cast<uint64_t>(std::min(sa, sb)) : std::min(ua, ub);
    case Opcode::kAnd: return ua & ub;
    case Opcode::kOr: return ua | ub;
    case Opcode::kXor: return ua ^ ub;
    case Opcode::kShiftLeft: return ub >= static_cast<uint64_t>(w) ? 0 : ua << ub;
    case Opcode::kShiftRightLogical: return ub >= static_cast<uint64_t>(w) ? 0 : ua >> ub;
    case Opcode::kShiftRightArithmetic:
      return static_cast<uint64_t>(ub >= static_cast<uint64_t>(w) ? (sa < 0 ? -1 : 0) : sa >> ub);
    case Opcode::kPower: {
      if (is_signed && sb < 0) return sa == 1 ? 1 : sa == -1 ? (sb % 2 ? ~uint64_t{0} : 1) : 0;
      uint64_t r = 1, base = ua, e = ub;
      while (e) {
        if (e & 1) r *= base;
        base *= base;
        e >>= 1;
      }
      return r;
    }
    case Opcode::kAtan2: default: return 0;
  }
}

// When both operands are NaN, x86 (SSE) returns the first source operand's, quieted; but the
// compiler may swap the operands of + and * (g++ does at -O2, not at -O0), so `a + b` alone
// would make the result depend on the build. A NaN `a` goes through a + a instead: a's NaN,
// quieted, in every build, as for - and / whose operands cannot be swapped.
template <typename F>
F fp_binary(Opcode op, F a, F b) {
  switch (op) {
    case Opcode::kAdd: return std::isnan(a) ? a + a : a + b;
    case Opcode::kSubtract: return a - b;
    case Opcode::kMultiply: return std::isnan(a) ? a * a : a * b;
    case Opcode::kDivide: return a / b;
    case Opcode::kRemainder: return std::fmod(a, b);
    case Opcode::kMaximum: return (std::isnan(a) || std::isnan(b)) ? std::numeric_limits<F>::quiet_NaN() : std::max(a, b);
    case Opcode::kMinimum: return (std::isnan(a) || std::isnan(b)) ? std::numeric_limits<F>::quiet_NaN() : std::min(a, b);
    case Opcode::kPower: return std::pow(a, b);
    case Opcode::kAtan2: return std::atan2(a, b);
    default: return std::numeric_limits<F>::quiet_NaN();
  }
}

template <typename F>
F fp_unary(Opcode op, F x) {
  switch (op) {
    case Opcode::kAbs: return std::fabs(x);
    case Opcode::kNegate: return -x;
    case Opcode::kExp: return std::exp(x);
    case Opcode::kExpm1: return std::expm1(x);
    case Opcode::kLog: return std::log(x);
    case Opcode::kLog1p: return std::log1p(x);
    case Opcode::kSqrt: return std::sqrt(x);
    case Opcode::kRsqrt: return F(1) / std::sqrt(x);
    case Opcode::kCbrt: return std::cbrt(x);
    case Opcode::kTanh: return std::tanh(x);
    case Opcode::kLogistic: return F(1) / (F(1) + std::exp(-x));
    case Opcode::kSin: return std::sin(x);
    case Opcode::kCos: return std::cos(x);
    case Opcode::kTan: return std::tan(x);
    case Opcode::kAtan: return std::atan(x);
    case Opcode::kAsin: return std::asin(x);
    case Opcode::kAcos: return std::acos(x);
    case Opcode::kSinh: return std::sinh(x);
    case Opcode::kCosh: return std::cosh(x);
    case Opcode::kAsinh: return std::asinh(x);
    case Opcode::kAcosh: return std::acosh(x);
    case Opcode::kAtanh: return std::atanh(x);
    case Opcode::kErf: return std::erf(x);
    case Opcode::kFloor: return std::floor(x);
    case Opcode::kCeil: return std::ceil(x);
    case Opcode::kRoundNearestAfz: return std::round(x);
    case Opcode::kRoundNearestEven: return std::nearbyint(x);  // default rounding mode: to even
    case Opcode::kSign: return std::isnan(x) ? x : x > 0 ? F(1) : x < 0 ? F(-1) : x;
    case Opcode::kCopy: case Opcode::kReducePrecision: return x;
    default: return std::numeric_limits<F>::quiet_NaN();
  }
}

uint64_t int_unary(Opcode op, uint64_t a, int w, bool is_signed) {
  const int64_t s = sext(a, w);
  const uint64_t u = a & mask(w);
  switch (op) {
    case Opcode::kNegate: return static_cast<uint64_t>(-static_cast<uint64_t>(u));
    case Opcode::kAbs: return is_signed && s < 0 ? static_cast<uint64_t>(-s) : u;
    case Opcode::kNot: return ~u;
    case Opcode::kSign: return is_signed ? static_cast<uint64_t>(s > 0 ? 1 : s < 0 ? -1 : 0) : (u != 0);
    case Opcode::kPopulationCount: return static_cast<uint64_t>(std::popcount(u));
    case Opcode::kClz: return static_cast<uint64_t>(std::countl_zero(u) - (64 - w));
    case Opcode::kCopy: return u;
    default: return u;
  }
}

// reduce-precision: round the mantissa to `mbits` bits and clamp the exponent range.
double reduce_precision(double x, int ebits, int mbits) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return x;
  float f = static_cast<float>(x);
  uint32_t u = std::bit_cast<uint32_t>(f);
  if (mbits < 23) {
    const uint32_t drop = 23 - static_cast<uint32_t>(mbits);
    const uint32_t half = 1u << (drop - 1);
    const uint32_t lsb = (u >> drop) & 1u;
    u += half - 1 + lsb;
    u &= ~((1u << drop) - 1);
  }
  f = std::bit_cast<float>(u);
  if (ebits < 8) {
    const int max_exp = (1 << (ebits - 1)) - 1;
    const int e = std::ilogb(f);
    if (e > max_exp) return std::signbit(f) ? -INFINITY : INFINITY;
    if (e < 1 - max_exp) return std::signbit(f) ? -0.0 : 0.0;
  }
  return f;
}

template <typename V>
bool compare_ordered(ComparisonDirection d, V a, V b) {
  switch (d) {
    case ComparisonDirection::kEq: return a == b;
    case ComparisonDirection::kNe: return a != b;
    case ComparisonDirection::kLt: return a < b;
    case ComparisonDirection::kLe: return a <= b;
    case ComparisonDirection::kGt: return a > b;
    case ComparisonDirection::kGe: return a >= b;
  }
  return false;
}

// TOTALORDER: -NaN < -inf < ... < -0 < +0 < ... < inf < NaN, via sign-magnitude bits.
int64_t total_order_key(const Literal& l, int64_t i) {
  const T t = l.shape().element_type();
  const int w = bit_width(t);
  const uint64_t bits = l.get_bits(i) & mask(w);
  const int64_t s = sext(bits, w);
  return s < 0 ? static_cast<int64_t>(static_cast<uint64_t>(s) ^ (mask(w) >> 1)) : s;
}

double fp_round_to(T t, double v) {
  return t == T::kF64 ? v : float_bits_to_double(t, double_to_float_bits(t, v));
}

// float -> integer conversion as XLA defines it: NaN -> 0, saturate at the range.
int64_t float_to_int(double v, T t) {
  if (std::isnan(v)) return 0;
  const int w = bit_width(t);
  if (is_unsigned_integral(t)) {
    if (v <= 0) return 0;
    const double hi = w >= 64 ? 18446744073709551615.0 : static_cast<double>(mask(w));
    if (v >= hi) return static_cast<int64_t>(mask(w));
    return static_cast<int64_t>(static_cast<uint64_t>(v));
  }
  const double lo = w >= 64 ? -9223372036854775808.0 : -std::ldexp(1.0, w - 1);
  const double hi = w >= 64 ? 9223372036854775807.0 : std::ldexp(1.0, w - 1) - 1;
  if (v <= lo) return static_cast<int64_t>(lo);
  if (v >= hi) return w >= 64 ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(hi);
  return static_cast<int64_t>(v);
}


Literal bitcast_convert(const OpContext& c) {
  const Literal& in = *c.args[0];
  Literal out(c.shape());
  auto src = in.bytes();
  auto dst = out.bytes();
  if (src.size() != dst.size()) c.fail("bitcast-convert between different total sizes");
  std::copy(src.begin(), src.end(), dst.begin());
  return out;
}

Literal complex_op(const OpContext& c) {
  const Opcode op = c.m.opcode(c.i);
  Literal out(c.shape());
  const int64_t n = out.element_count();
  auto get = [&](const Literal& l, int64_t k) -> std::complex<double> {
    const T t = l.shape().element_type();
    if (t == T::kC64) return std::complex<double>(l.data<std::complex<float>>()[k]);
    if (t == T::kC128) return l.data<std::complex<double>>()[k];
    return {l.get_double(k), 0};
  };
  auto put = [&](int64_t k, std::complex<double> v) {
    const T t = out.shape().element_type();
    if (t == T::kC64) out.data<std::complex<float>>()[k] = std::complex<float>(v);
    else if (t == T::kC128) out.data<std::complex<double>>()[k] = v;
    else out.set_double(k, v.real());
  };
  for (int64_t k = 0; k < n; ++k) {
    std::complex<double> a = get(*c.args[0], k), b = c.args.size() > 1 ? get(*c.args[1], k) : 0.0;
    switch (op) {
      case Opcode::kComplex: put(k, {c.args[0]->get_double(k), c.args[1]->get_double(k)}); break;
      case Opcode::kReal: put(k, a.real()); break;
      case Opcode::kImag: put(k, a.imag()); break;
      case Opcode::kAbs: put(k, std::abs(a)); break;
      case Opcode::kNegate: put(k, -a); break;
      case Opcode::kAdd: put(k, a + b); break;
      case Opcode::kSubtract: put(k, a - b); break;
      case Opcode::kMultiply: put(k, a * b); break;
      case Opcode::kDivide: put(k, a / b); break;
      case Opcode::kExp: put(k, std::exp(a)); break;
      case Opcode::kCompare: {
        const bool eq = a == b;
        out.set_int(k, *c.attrs().direction == ComparisonDirection::kEq ? eq : !eq);
        break;
      }
      default: c.fail("unsupported on complex numbers");
    }
  }
  return out;
}
}  // namespace

void convert_element(const Literal& in, int64_t i, Literal& out, int64_t k) {
  const T from = in.shape().element_type(), to = out.shape().element_type();
  if (is_complex(from) || is_complex(to)) {
    std::complex<double> v = from == T::kC64 ? std::complex<double>(in.data<std::complex<float>>()[i])
                             : from == T::kC128 ? in.data<std::complex<double>>()[i]
                                                : std::complex<double>(in.get_double(i), 0);
    if (to == T::kC64) out.data<std::complex<float>>()[k] = std::complex<float>(v);
    else if (to == T::kC128) out.data<std::complex<double>>()[k] = v;
    else out.set_double(k, v.real());
    return;
  }
  if (to == T::kPred) return out.set_int(k, is_fp(from) ? in.get_double(i) != 0 : in.get_int(i) != 0);
  if (is_fp(to)) {
    if (is_unsigned_integral(from)) return out.set_double(k, static_cast<double>(static_cast<uint64_t>(in.get_int(i))));
    if (is_fp(from)) return out.set_double(k, in.get_double(i));
    // int64 -> f32 must round once, directly (via double could round twice).
    if (to == T::kF32 || to == T::kF16 || to == T::kBF16) {
      const float f = static_cast<float>(in.get_int(i));
      return out.set_double(k, f);
    }
    return out.set_double(k, static_cast<double>(in.get_int(i)));
  }
  if (is_fp(from)) return out.set_int(k, float_to_int(in.get_double(i), to));
  out.set_int(k, in.get_int(i));
}

void binary_element(Opcode op, const Literal& a, int64_t i, const Literal& b, int64_t j, Literal& out,
                    int64_t k) {
  const T t = a.shape().element_type();
  if (is_fp(t)) {
    double v;
    if (t == T::kF64) v = fp_binary(op, a.get_double(i), b.get_double(j));
    else v = fp_binary(op, static_cast<float>(a.get_double(i)), static_cast<float>(b.get_double(j)));
    out.set_double(k, fp_round_to(t, v));
    return;
  }
  const int w = t == T::kPred ? 1 : bit_width(t);
  uint64_t v = int_binary(op, a.get_bits(i), b.get_bits(j), w, is_signed_integral(t));
  out.set_bits(k, t == T::kPred ? (v & 1) : (v & mask(w)));
}

bool handles_elementwise(Opcode op) {
  return info(op).elementwise || op == Opcode::kCopy;
}

Literal eval_elementwise(const OpContext& c) {
  const Opcode op = c.m.opcode(c.i);
  const Shape& shape = c.shape();
  const T in_t = c.args[0]->shape().element_type();
  if (op == Opcode::kBitcastConvert) return bitcast_convert(c);
  // real/imag of a real float are x and 0 (XLA's evaluator), not an unknown unary op.
  if (is_complex(in_t) || op == Opcode::kComplex || op == Opcode::kReal || op == Opcode::kImag ||
      (c.args.size() > 1 && is_complex(c.args[1]->shape().element_type())))
    if (op != Opcode::kConvert) return complex_op(c);
  Literal out(shape);
  const int64_t n = out.element_count();
  const T out_t = shape.element_type();
  if (op == Opcode::kConvert) {
    for (int64_t k = 0; k < n; ++k) convert_element(*c.args[0], k, out, k);
    return out;
  }
  // Scalars broadcast in select's predicate and clamp's bounds.
  auto idx = [&](size_t a, int64_t k) { return c.args[a]->element_count() == 1 ? 0 : k; };
  if (op == Opcode::kSelect) {
    for (int64_t k = 0; k < n; ++k)
      copy_element(c.args[0]->get_int(idx(0, k)) ? *c.args[1] : *c.args[2], k, out, k);
    return out;
  }
  if (op == Opcode::kClamp) {
    for (int64_t k = 0; k < n; ++k) {
      if (is_fp(out_t)) {
        double lo = c.args[0]->get_double(idx(0, k)), x = c.args[1]->get_double(k), hi = c.args[2]->get_double(idx(2, k));
        out.set_double(k, std::isnan(x) || std::isnan(lo) || std::isnan(hi) ? NAN : std::min(std::max(x, lo), hi));
      } else if (is_unsigned_integral(out_t)) {
        uint64_t lo = c.args[0]->get_bits(idx(0, k)), x = c.args[1]->get_bits(k), hi = c.args[2]->get_bits(idx(2, k));
        out.set_bits(k, std::min(std::max(x, lo), hi));
      } else {
        int64_t lo = c.args[0]->get_int(idx(0, k)), x = c.args[1]->get_int(k), hi = c.args[2]->get_int(idx(2, k));
        out.set_int(k, std::min(std::max(x, lo), hi));
      }
    }
    return out;
  }
  if (op == Opcode::kCompare) {
    const ComparisonDirection d = c.attrs().direction.value_or(ComparisonDirection::kEq);
    const bool total = c.attrs().comparison_type == "TOTALORDER";
    for (int64_t k = 0; k < n; ++k) {
      bool r;
      if (is_fp(in_t)) r = total ? compare_ordered(d, total_order_key(*c.args[0], k), total_order_key(*c.args[1], k))
                                 : compare_ordered(d, c.args[0]->get_double(k), c.args[1]->get_double(k));
      else if (is_unsigned_integral(in_t)) r = compare_ordered(d, c.args[0]->get_bits(k), c.args[1]->get_bits(k));
      else r = compare_ordered(d, c.args[0]->get_int(k), c.args[1]->get_int(k));
      out.set_int(k, r);
    }
    return out;
  }
  if (op == Opcode::kIsFinite) {
    for (int64_t k = 0; k < n; ++k) out.set_int(k, std::isfinite(c.args[0]->get_double(k)));
    return out;
  }
  if (c.options && c.options->transcendentals == TranscendentalEval::kUnit && has_transcendental_unit(in_t))
    if (const std::optional<TranscendentalOp> unit = transcendental_op(op)) {
      for (int64_t k = 0; k < n; ++k) out.set_bits(k, transcendental_unit(*unit, in_t, c.args[0]->get_bits(k)));
      return out;
    }
  const bool fp = is_fp(in_t);
  const int w = in_t == T::kPred ? 1 : bit_width(in_t);
  const bool sgn = is_signed_integral(in_t);
  for (int64_t k = 0; k < n; ++k) {
    if (fp) {
      if (op == Opcode::kReducePrecision && has_transcendental_unit(in_t)) {  // bits: XLA keeps a NaN as it is
        out.set_bits(k, reduce_precision_bits(in_t, c.args[0]->get_bits(k), static_cast<int>(c.attrs().exponent_bits),
                                              static_cast<int>(c.attrs().mantissa_bits)));
        continue;
      }
      if (op == Opcode::kReducePrecision) {
        out.set_double(k, reduce_precision(c.args[0]->get_double(k), static_cast<int>(c.attrs().exponent_bits),
                                           static_cast<int>(c.attrs().mantissa_bits)));
        continue;
      }
      double v;
      if (in_t == T::kF64) {
        const double a = c.args[0]->get_double(k);
        v = c.args.size() == 1 ? fp_unary(op, a) : fp_binary(op, a, c.args[1]->get_double(k));
      } else {
        const float a = static_cast<float>(c.args[0]->get_double(k));
        v = c.args.size() == 1 ? fp_unary(op, a) : fp_binary(op, a, static_cast<float>(c.args[1]->get_double(k)));
      }
      out.set_double(k, fp_round_to(out_t, v));
    } else {
      const uint64_t a = c.args[0]->get_bits(k);
      uint64_t v = c.args.size() == 1 ? int_unary(op, a, w, sgn) : int_binary(op, a, c.args[1]->get_bits(k), w, sgn);
      if (in_t == T::kPred) v &= 1;
      out.set_bits(k, v & mask(bit_width(out_t) == 0 ? 8 : std::min(64, out_t == T::kPred ? 8 : bit_width(out_t))));
    }
  }
  // atan2: the unit's algorithm (ir/atan2_unit.h) in the unit mode
  if (op == Opcode::kAtan2 && c.options && c.options->transcendentals == TranscendentalEval::kUnit &&
      has_transcendental_unit(in_t)) {
    for (int64_t k = 0; k < n; ++k) out.set_bits(k, atan2_unit(in_t, c.args[0]->get_bits(k), c.args[1]->get_bits(k)));
    return out;
  }
  // power: the integer power unit (x^3, ...) for the exponents the hardware takes it for,
  // the general power unit for the rest (EvalOptions::power_exponent_of)
  if (op == Opcode::kPower && c.options && c.options->transcendentals == TranscendentalEval::kUnit &&
      has_transcendental_unit(in_t)) {
    std::optional<std::optional<int>> fixed;
    if (c.options->power_exponent_of) fixed = c.options->power_exponent_of(c.i);
    for (int64_t k = 0; k < n; ++k) {
      const uint64_t x = c.args[0]->get_bits(k), y = c.args[1]->get_bits(k);
      const std::optional<int> e = fixed ? *fixed : integer_power_exponent(in_t, c.args[1]->get_double(k));
      out.set_bits(k, e ? integer_power_unit(in_t, *e, x) : power_unit(in_t, x, y));
    }
  }
  return out;
}

}  // namespace hlsgym::ir::eval
