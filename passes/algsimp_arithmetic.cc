// Arithmetic rules of the algebraic simplifier: identities and constant operands of
// add, subtract, multiply, divide, remainder and power, negate(negate x), integer
// A*C + B*C -> (A+B)*C, abs(A)*abs(A) -> A*A, and float (A*c1)*c2 -> A*(c1*c2) where
// c1 is a power of two and both are at least 1 in magnitude.
//
// Exactness: A*1, A/1 and A-(+0) hold for every float; A+(+0) turns A = -0 into +0, so
// it is applied to floats only where A cannot be -0 (a later divide would tell -inf from
// +inf), and A+(-0) always. A*0, A-A, reassociation of constants
// and the shift/and forms of divide/remainder are integer-only. A float division by a
// power of two becomes a multiply by its exactly representable reciprocal (both round
// the same real number once). pow(A,2) -> A*A and pow(A,-1) -> 1/A are applied to
// integers (A*A only) and f16, where pow's result is the exact value rounded once; for
// f32 and f64 the C library's pow differs from x*x and 1/x in the last bit on subnormal
// and near-overflow results, so those are left alone.
#include <cmath>

#include "passes/algsimp_rules.h"

namespace hlsgym::passes::algsimp {
namespace {

const std::vector<int64_t>& dims_of(const Rewriter& r, InstrId i) { return r.m.shape(i).dims(); }

// The k with v == 2^k (k >= 0) for a positive integer v; nullopt otherwise.
std::optional<int> log2_exact(int64_t v) {
  if (v <= 0 || (v & (v - 1)) != 0) return std::nullopt;
  int k = 0;
  while ((int64_t{1} << k) != v) ++k;
  return k;
}

// The positive power of two 2^k a uniform integer constant `c` holds, read as the type's
// value (a negative signed value never qualifies).
std::optional<int> power_of_two_divisor(const ir::Module& m, InstrId c) {
  const ElementType t = type_of(m, c);
  if (!ir::is_integral(t)) return std::nullopt;
  auto v = uniform_int(m, c);
  if (!v) return std::nullopt;
  if (!ir::is_signed_integral(t) && *v < 0) return std::nullopt;  // u64 above 2^63
  return log2_exact(*v);
}

InstrId compare_with(Rewriter& r, InstrId a, InstrId b, ir::ComparisonDirection d) {
  ir::Attributes attrs;
  attrs.direction = d;
  const InstrId ops[] = {a, b};
  return r.make(Opcode::kCompare, ops, std::move(attrs));
}

InstrId unary(Rewriter& r, Opcode op, InstrId a) {
  const InstrId ops[] = {a};
  return r.make(op, ops);
}

InstrId select(Rewriter& r, InstrId p, InstrId a, InstrId b) {
  const InstrId ops[] = {p, a, b};
  return r.make(Opcode::kSelect, ops);
}

// (A op c1) op c2 -> A op (c1 op c2) for integer add and multiply with uniform constants.
bool fold_integer_constants(Rewriter& r, InstrId i, Opcode op) {
  const ir::Module& m = r.m;
  const InstrId inner = m.operand(i, 0), c2 = m.operand(i, 1);
  const ElementType t = type_of(m, i);
  if (!ir::is_integral(t) || m.opcode(inner) != op) return false;
  auto v1 = uniform_int(m, m.operand(inner, 1));
  auto v2 = uniform_int(m, c2);
  if (!v1 || !v2) return false;
  const uint64_t a = static_cast<uint64_t>(*v1), b = static_cast<uint64_t>(*v2);
  const uint64_t folded = (op == Opcode::kAdd ? a + b : a * b) & width_mask(t);  // wraps like the type
  const InstrId x = m.operand(inner, 0);
  if (folded == (op == Opcode::kAdd ? 0u : 1u) && same_shape(m, x, i)) return r.replace(i, x);
  const InstrId c = r.splat_int(t, static_cast<int64_t>(folded), dims_of(r, i));
  return r.replace(i, r.binary(op, x, c));
}

// (A * c1) * c2 -> A * (c1*c2) for IEEE floats when c1 is a power of two with |c1| >= 1
// and |c2| >= 1: A * c1 is exact (it cannot underflow; it overflows only where A*c1*c2
// does too, as |c2| >= 1), so both sides round the same real number once. With the power
// of two second, A * c1 could round in the subnormal range first; with |c2| < 1, A * c1
// could overflow where the merged product does not. XLA merges any two constants.
bool fold_float_scalings(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId inner = m.operand(i, 0);
  const ElementType t = type_of(m, i);
  if (!is_ieee_float(t) || m.opcode(inner) != Opcode::kMultiply) return false;
  const auto v1 = uniform_float(m, m.operand(inner, 1)), v2 = uniform_float(m, m.operand(i, 1));
  if (!v1 || !v2 || !std::isfinite(*v1) || !std::isfinite(*v2) || std::fabs(*v1) < 1 || std::fabs(*v2) < 1)
    return false;
  int exponent = 0;
  if (std::frexp(std::fabs(*v1), &exponent) != 0.5) return false;  // c1 is not a power of two
  ir::Literal folded = ir::Literal::scalar_double(t, *v1 * *v2);  // exact in double
  if (!std::isfinite(folded.get_double(0))) return false;  // c1*c2 overflows the type
  return r.replace(i, r.binary(Opcode::kMultiply, m.operand(inner, 0), r.splat_literal(std::move(folded), dims_of(r, i))));
}

// A*C + B*C -> (A+B)*C (either operand order of each multiply) for integers, where
// wrap-around arithmetic is a ring. XLA also factors floats when C is a power of two;
// that overflows where the original does not (A+B can reach inf while A*C+B*C, for
// C < 1, stays finite), so floats are left alone. Only when both multiplies die: with
// other users left they would stay and the rewrite would add an instruction.
bool factor_common_multiplicand(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0), y = m.operand(i, 1);
  if (!ir::is_integral(type_of(m, i)) || x == y || m.opcode(x) != Opcode::kMultiply ||
      m.opcode(y) != Opcode::kMultiply || m.users(x).size() != 1 || m.users(y).size() != 1)
    return false;
  for (size_t cx = 0; cx < 2; ++cx)
    for (size_t cy = 0; cy < 2; ++cy)
      if (m.operand(x, cx) == m.operand(y, cy))
        return r.replace(i, r.binary(Opcode::kMultiply,
                                     r.binary(Opcode::kAdd, m.operand(x, 1 - cx), m.operand(y, 1 - cy)),
                                     m.operand(x, cx)));
  return false;
}

}  // namespace

bool constants_to_the_right(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const Opcode op = m.opcode(i);
  const ElementType t = type_of(m, i);
  if (ir::is_complex(t)) return false;
  // Float max/min could pick the other zero of -0/+0; only add and multiply commute exactly.
  if (!is_int_like(t) && op != Opcode::kAdd && op != Opcode::kMultiply) return false;
  const InstrId a = m.operand(i, 0), b = m.operand(i, 1);
  if (!is_constant_like(m, a) || is_constant_like(m, b)) return false;
  return r.replace(i, r.binary(op, b, a));
}

bool simplify_add(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId a = m.operand(i, 0), b = m.operand(i, 1);
  if (adds_nothing(m, a, b) && same_shape(m, a, i)) return r.replace(i, a);
  if (adds_nothing(m, b, a) && same_shape(m, b, i)) return r.replace(i, b);
  if (constants_to_the_right(r, i)) return true;
  if (factor_common_multiplicand(r, i)) return true;
  return fold_integer_constants(r, i, Opcode::kAdd);
}

bool simplify_subtract(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId a = m.operand(i, 0), b = m.operand(i, 1);
  const ElementType t = type_of(m, i);
  // x - (+0) is x for every x; x - (-0) = x + (+0) needs x != -0.
  if (is_all_value(m, b, 0) && (!ir::is_floating(t) || uniform_bits(m, b) == uint64_t{0} || never_negative_zero(m, a)))
    return r.replace(i, a);
  if (a == b && ir::is_integral(t)) return r.replace(i, r.splat_int(t, 0, dims_of(r, i)));
  // A - c -> A + (-c): exact for integers (wrapping) and IEEE floats (x - y is x + -y).
  if (ir::is_integral(t)) {
    auto v = uniform_int(m, b);
    if (!v) return false;
    const int64_t neg = static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(*v));
    return r.replace(i, r.binary(Opcode::kAdd, a, r.splat_int(t, neg, dims_of(r, i))));
  }
  if (is_ieee_float(t)) {
    auto v = uniform_float(m, b);
    if (!v || std::isnan(*v)) return false;
    const InstrId c = r.splat_literal(ir::Literal::scalar_double(t, -*v), dims_of(r, i));
    return r.replace(i, r.binary(Opcode::kAdd, a, c));
  }
  return false;
}

bool simplify_multiply(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId a = m.operand(i, 0), b = m.operand(i, 1);
  const ElementType t = type_of(m, i);
  if (is_all_value(m, b, 1) && same_shape(m, a, i)) return r.replace(i, a);
  if (is_all_value(m, a, 1) && same_shape(m, b, i)) return r.replace(i, b);
  // abs(x) * abs(x) -> x * x: a square ignores the sign, exactly for floats and, modulo
  // 2^n, for integers (abs(INT_MIN) wraps to INT_MIN). Not complex abs (a real result).
  if (a == b && m.opcode(a) == Opcode::kAbs && type_of(m, m.operand(a, 0)) == t)
    return r.replace(i, r.binary(Opcode::kMultiply, m.operand(a, 0), m.operand(a, 0)));
  if (is_int_like(t)) {  // 0 * NaN is NaN for floats
    if (is_all_value(m, b, 0)) return r.replace(i, b);
    if (is_all_value(m, a, 0)) return r.replace(i, a);
  }
  if (constants_to_the_right(r, i)) return true;
  if (fold_float_scalings(r, i)) return true;
  return fold_integer_constants(r, i, Opcode::kMultiply);
}

bool simplify_divide(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId a = m.operand(i, 0), b = m.operand(i, 1);
  const ElementType t = type_of(m, i);
  if (is_all_value(m, b, 1)) return r.replace(i, a);
  const auto& dims = dims_of(r, i);
  if (auto k = power_of_two_divisor(m, b); k && *k > 0) {
    const InstrId shift = r.splat_int(t, *k, dims);
    if (!ir::is_signed_integral(t)) return r.replace(i, r.binary(Opcode::kShiftRightLogical, a, shift));
    // Truncation toward zero: -(|A| >> k) for negative A. |INT_MIN| wraps to INT_MIN,
    // whose bits shifted logically give exactly INT_MIN / 2^k.
    const InstrId magnitude = r.binary(Opcode::kShiftRightLogical, unary(r, Opcode::kAbs, a), shift);
    const InstrId negative = compare_with(r, a, r.splat_int(t, 0, dims), ir::ComparisonDirection::kLt);
    return r.replace(i, select(r, negative, unary(r, Opcode::kNegate, magnitude), magnitude));
  }
  // convert(pred) / broadcast(s) -> convert(pred) * broadcast(1 / s): for 1 it is 1 / s
  // itself, for 0 a zero of the same sign (or NaN for s = 0 or NaN) either way.
  if (is_ieee_float(t) && m.opcode(a) == Opcode::kConvert && type_of(m, m.operand(a, 0)) == ElementType::kPred &&
      is_scalar_broadcast(m, b)) {
    const InstrId s = m.operand(b, 0);
    const InstrId one = r.m.add_constant(r.comp, ir::Literal::scalar_double(t, 1.0));
    const InstrId reciprocal = r.broadcast_scalar(r.binary(Opcode::kDivide, one, s), dims);
    return r.replace(i, r.binary(Opcode::kMultiply, a, reciprocal));
  }
  if (is_ieee_float(t)) {
    auto v = uniform_float(m, b);
    if (!v || !std::isfinite(*v) || *v == 0) return false;
    int e = 0;
    if (std::abs(std::frexp(*v, &e)) != 0.5) return false;  // not a power of two
    const double reciprocal = 1.0 / *v;
    ir::Literal lit = ir::Literal::scalar_double(t, reciprocal);
    if (lit.get_double(0) != reciprocal) return false;  // 1/c not representable in t
    return r.replace(i, r.binary(Opcode::kMultiply, a, r.splat_literal(std::move(lit), dims)));
  }
  return false;
}

// The largest value of a signed integer iota (its dim size - 1), if it is one whose
// values are all >= 0 and representable.
static std::optional<int64_t> iota_max(const ir::Module& m, InstrId x) {
  if (m.opcode(x) != Opcode::kIota || !ir::is_signed_integral(type_of(m, x))) return std::nullopt;
  const int64_t d = m.attrs(x).iota_dimension;
  if (d < 0 || d >= m.shape(x).rank() || m.shape(x).dim(d) == 0) return std::nullopt;
  const int64_t top = m.shape(x).dim(d) - 1;
  if (static_cast<uint64_t>(top) > int_max_bits(type_of(m, x))) return std::nullopt;
  return top;
}

// remainder(iota, c) with 0 <= iota < c is the iota; remainder(iota + n, c) with n a
// non-negative multiple of c (and no overflow) is remainder(iota, c).
static bool remainder_of_iota(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId a = m.operand(i, 0), b = m.operand(i, 1);
  const auto c = uniform_int(m, b);
  if (!c || *c <= 0) return false;
  if (auto top = iota_max(m, a)) return *top < *c && r.replace(i, a);
  if (m.opcode(a) != Opcode::kAdd) return false;
  const InstrId x = m.operand(a, 0);
  const auto n = uniform_int(m, m.operand(a, 1));
  const auto top = iota_max(m, x);
  if (!top || !n || *n < 0 || *n % *c != 0) return false;
  if (static_cast<uint64_t>(*top) + static_cast<uint64_t>(*n) > int_max_bits(type_of(m, x))) return false;
  return r.replace(i, r.binary(Opcode::kRemainder, x, b));
}

bool simplify_remainder(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId a = m.operand(i, 0), b = m.operand(i, 1);
  const ElementType t = type_of(m, i);
  // (A % B) % B == A % B: |A % B| < |B|, and x % 0 == x keeps it for B == 0 too.
  if (m.opcode(a) == Opcode::kRemainder && m.operand(a, 1) == b) return r.replace(i, a);
  if (remainder_of_iota(r, i)) return true;
  auto k = power_of_two_divisor(m, b);
  if (!k) return false;
  const auto& dims = dims_of(r, i);
  const InstrId low_bits = r.splat_int(t, static_cast<int64_t>((uint64_t{1} << *k) - 1), dims);
  if (!ir::is_signed_integral(t)) return r.replace(i, r.binary(Opcode::kAnd, a, low_bits));
  // The remainder takes the dividend's sign: -(|A| & mask) for negative A (INT_MIN gives 0).
  const InstrId magnitude = r.binary(Opcode::kAnd, unary(r, Opcode::kAbs, a), low_bits);
  const InstrId negative = compare_with(r, a, r.splat_int(t, 0, dims), ir::ComparisonDirection::kLt);
  const InstrId positive = r.binary(Opcode::kAnd, a, low_bits);
  return r.replace(i, select(r, negative, unary(r, Opcode::kNegate, magnitude), positive));
}

bool simplify_power(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId a = m.operand(i, 0), b = m.operand(i, 1);
  const ElementType t = type_of(m, i);
  const bool integral = ir::is_integral(t);
  if (!integral && !is_ieee_float(t)) return false;
  std::optional<double> e;
  if (integral) {
    if (auto v = uniform_int(m, b)) e = static_cast<double>(*v);
  } else {
    e = uniform_float(m, b);
  }
  if (!e) return false;
  const auto& dims = dims_of(r, i);
  // pow(x, 0) is 1 for every x, quiet NaN included; only an f64 signalling NaN (which the
  // interpreter keeps as is, while narrower types pass through float and get quieted)
  // gives NaN. pow(x, 1) is x.
  if (*e == 0 && t != ElementType::kF64) {
    ir::Literal one = integral ? ir::Literal::scalar_int(t, 1) : ir::Literal::scalar_double(t, 1.0);
    return r.replace(i, r.splat_literal(std::move(one), dims));
  }
  if (*e == 1) return r.replace(i, a);
  // f16 and bf16 are evaluated in float, where x * x is exact, so powf and multiply give
  // the same value; an f32 x * x is rounded, and powf is not correctly rounded at ties.
  if (*e == 2 && (integral || t == ElementType::kF16 || t == ElementType::kBF16))
    return r.replace(i, r.binary(Opcode::kMultiply, a, a));
  if (*e == -1 && t == ElementType::kF16) {
    const InstrId one = r.splat_literal(ir::Literal::scalar_double(t, 1.0), dims);
    return r.replace(i, r.binary(Opcode::kDivide, one, a));
  }
  return false;
}

bool simplify_negate(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId a = m.operand(i, 0);
  if (m.opcode(a) == Opcode::kNegate && same_shape(m, m.operand(a, 0), i)) return r.replace(i, m.operand(a, 0));
  return false;
}

}  // namespace hlsgym::passes::algsimp
