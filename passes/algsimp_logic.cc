// Unary and logic rules of the algebraic simplifier: not(not x), and/or/xor with 0,
// all-ones and themselves, abs of non-negative values, compares with a known answer,
// max/min with the type's extreme (integers only: the 2023 CPU pipeline runs with
// minmax_propagate_nan=false), max(lo, min(x, hi)) -> clamp, select with a constant
// predicate, equal arms or a negated predicate, and converts that change nothing.
#include <cmath>

#include "passes/algsimp_rules.h"

namespace hlsgym::passes::algsimp {
namespace {
using ir::ComparisonDirection;

const std::vector<int64_t>& dims_of(const Rewriter& r, InstrId i) { return r.m.shape(i).dims(); }

bool has_bits(const ir::Module& m, InstrId i, uint64_t bits) {
  auto v = uniform_bits(m, i);
  return v && *v == bits;
}

InstrId pred_splat(Rewriter& r, bool value, const std::vector<int64_t>& dims) {
  return r.splat_int(ElementType::kPred, value ? 1 : 0, dims);
}

// Mantissa digits of the float types whose widening conversions are exact.
int float_digits(ElementType t) {
  switch (t) {
    case ElementType::kF16: return 11;
    case ElementType::kBF16: return 8;
    case ElementType::kF32: return 24;
    case ElementType::kF64: return 53;
    default: return 0;
  }
}

// True if converting any value of `from` to `to` keeps it exactly (XLA's CastPreservesValues).
bool preserves_values(ElementType from, ElementType to) {
  if (from == to) return true;
  if (ir::is_complex(from) || ir::is_complex(to) || to == ElementType::kPred) return false;
  if (from == ElementType::kPred) return ir::is_integral(to) || float_digits(to) > 0;
  if (ir::is_integral(from)) {
    const int wf = ir::bit_width(from), wt = ir::bit_width(to);
    const bool sf = ir::is_signed_integral(from);
    if (ir::is_integral(to)) return ir::is_signed_integral(to) ? (sf ? wt >= wf : wt > wf) : (!sf && wt >= wf);
    return float_digits(to) >= (sf ? wf - 1 : wf);
  }
  // Floats widen exactly only into a type with more digits and a wider exponent range
  // (bf16 and f16 do not contain each other).
  if (to == ElementType::kF64) return from == ElementType::kF32 || from == ElementType::kF16 || from == ElementType::kBF16;
  return to == ElementType::kF32 && (from == ElementType::kF16 || from == ElementType::kBF16);
}

// convert(convert(x:T, T1), T2) == convert(x, T2) given T -> T1 keeps values: the
// interpreter converts the same value the same way, except that integer -> float goes
// through double for unsigned sources and through float for signed ones, which rounds
// twice for wide values; and a float intermediate saturates where integers wrap.
bool chain_collapses(ElementType t, ElementType t1, ElementType t2) {
  if (!preserves_values(t, t1) || ir::is_complex(t2)) return false;
  if (t2 == t) return true;
  if (ir::is_floating(t) && ir::is_floating(t1)) return true;
  if (!is_int_like(t) || !is_int_like(t1)) return false;
  if (!ir::is_floating(t2)) return true;
  return ir::is_unsigned_integral(t) == ir::is_unsigned_integral(t1) || ir::bit_width(t) <= 16;
}

bool less_or_equal(ElementType t, uint64_t a, uint64_t b) {
  if (ir::is_unsigned_integral(t)) return a <= b;
  if (ir::is_signed_integral(t)) {
    const int w = ir::bit_width(t);
    auto sext = [w](uint64_t v) {
      if (w >= 64) return static_cast<int64_t>(v);
      const uint64_t s = uint64_t{1} << (w - 1);
      return static_cast<int64_t>((v ^ s) - s);
    };
    return sext(a) <= sext(b);
  }
  return false;
}

// lo <= hi for two uniform integer constant-likes; lo < hi for real floats (NaN excluded).
bool ordered_bounds(const ir::Module& m, InstrId lo, InstrId hi) {
  const ElementType t = type_of(m, lo);
  if (ir::is_integral(t)) {
    auto a = uniform_bits(m, lo), b = uniform_bits(m, hi);
    return a && b && less_or_equal(t, *a, *b);
  }
  auto a = uniform_float(m, lo), b = uniform_float(m, hi);
  return a && b && !std::isnan(*a) && !std::isnan(*b) && *a < *b;
}

// The operand of `i` (a binary op) that is uniform constant-like, and the other one.
// On a tie, max and min return their first operand, and clamp returns x; for floats a
// tie between different zeros matters, so a zero constant must come second.
bool split_constant(const ir::Module& m, InstrId i, InstrId& constant, InstrId& other) {
  const InstrId a = m.operand(i, 0), b = m.operand(i, 1);
  if (uniform_bits(m, b)) { constant = b; other = a; return true; }
  if (!uniform_bits(m, a)) return false;
  if (ir::is_floating(type_of(m, a)) && is_all_value(m, a, 0)) return false;
  constant = a;
  other = b;
  return true;
}

// max(lo, min(x, hi)) and min(hi, max(x, lo)) -> clamp(lo, x, hi) when lo <= hi.
bool form_clamp(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const Opcode op = m.opcode(i);
  const Opcode inner_op = op == Opcode::kMaximum ? Opcode::kMinimum : Opcode::kMaximum;
  const ElementType t = type_of(m, i);
  if (!ir::is_integral(t) && !is_ieee_float(t)) return false;
  InstrId outer_c, inner, inner_c, x;
  if (!split_constant(m, i, outer_c, inner) || m.opcode(inner) != inner_op) return false;
  if (!split_constant(m, inner, inner_c, x)) return false;
  if (is_constant_like(m, x)) return false;
  const InstrId lo = op == Opcode::kMaximum ? outer_c : inner_c;
  const InstrId hi = op == Opcode::kMaximum ? inner_c : outer_c;
  if (!ordered_bounds(m, lo, hi)) return false;
  const InstrId ops[] = {lo, x, hi};
  return r.replace(i, r.make(Opcode::kClamp, ops));
}

bool is_non_negative(const ir::Module& m, InstrId x) {
  const ElementType t = type_of(m, x);
  if (ir::is_unsigned_integral(t)) return true;
  const Opcode op = m.opcode(x);
  if (op == Opcode::kAbs && !ir::is_signed_integral(t)) return true;  // abs(INT_MIN) < 0
  if (!ir::is_floating(t)) return false;
  // exp(x) >= +0 and x*x >= +0 (or NaN, which abs keeps NaN).
  return op == Opcode::kExp || (op == Opcode::kMultiply && m.operand(x, 0) == m.operand(x, 1));
}

// An integer iota all of whose values are >= 0 (no wrap-around in its type).
bool is_non_negative_iota(const ir::Module& m, InstrId x) {
  if (m.opcode(x) != Opcode::kIota) return false;
  const ElementType t = type_of(m, x);
  const int64_t d = m.attrs(x).iota_dimension;
  if (d < 0 || d >= m.shape(x).rank()) return false;
  if (ir::is_floating(t)) return true;
  if (!ir::is_signed_integral(t)) return false;
  return static_cast<uint64_t>(m.shape(x).dim(d)) <= int_max_bits(t) + 1;
}

// A compare of x with a uniform integer constant, as "x dir c" (the constant moved to the
// right, the direction flipped with it).
struct Bound { InstrId x; ComparisonDirection dir; int64_t c; };
std::optional<Bound> bound_of(const ir::Module& m, InstrId cmp) {
  if (m.opcode(cmp) != Opcode::kCompare || !m.attrs(cmp).direction) return std::nullopt;
  const InstrId a = m.operand(cmp, 0), b = m.operand(cmp, 1);
  if (!ir::is_integral(type_of(m, a))) return std::nullopt;
  // A type= that reorders the values (UNSIGNED on a signed type, ...) is not the order
  // the constants are compared in below.
  const std::string& order = m.attrs(cmp).comparison_type;
  if (!order.empty() && order != (ir::is_unsigned_integral(type_of(m, a)) ? "UNSIGNED" : "SIGNED")) return std::nullopt;
  ComparisonDirection d = *m.attrs(cmp).direction;
  if (auto c = uniform_int(m, b); c && !is_constant_like(m, a)) return Bound{a, d, *c};
  auto c = uniform_int(m, a);
  if (!c || is_constant_like(m, b)) return std::nullopt;
  switch (d) {
    case ComparisonDirection::kLt: d = ComparisonDirection::kGt; break;
    case ComparisonDirection::kLe: d = ComparisonDirection::kGe; break;
    case ComparisonDirection::kGt: d = ComparisonDirection::kLt; break;
    case ComparisonDirection::kGe: d = ComparisonDirection::kLe; break;
    default: return std::nullopt;
  }
  return Bound{b, d, *c};
}

// and(x < c1, x < c2) is the tighter compare (x < min), and(x > c1, x > c2) likewise
// (same for <= and >=); unsigned constants compare as their values.
bool and_of_bounds(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId p = m.operand(i, 0), q = m.operand(i, 1);
  const auto a = bound_of(m, p), b = bound_of(m, q);
  if (!a || !b || a->x != b->x || a->dir != b->dir) return false;
  const bool unsigned_x = ir::is_unsigned_integral(type_of(m, a->x));
  auto less = [&](int64_t u, int64_t v) { return unsigned_x ? static_cast<uint64_t>(u) < static_cast<uint64_t>(v) : u < v; };
  switch (a->dir) {
    case ComparisonDirection::kLt: case ComparisonDirection::kLe: return r.replace(i, less(b->c, a->c) ? q : p);
    case ComparisonDirection::kGt: case ComparisonDirection::kGe: return r.replace(i, less(a->c, b->c) ? q : p);
    default: return false;
  }
}

}  // namespace

bool simplify_clamp(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId lo = m.operand(i, 0), x = m.operand(i, 1), hi = m.operand(i, 2);
  // clamp(lo, clamp(lo, y, hi), hi): the inner result is already within the bounds (or
  // is hi when hi < lo, which the outer clamp gives again), NaN stays NaN.
  if (m.opcode(x) == Opcode::kClamp && m.operand(x, 0) == lo && m.operand(x, 2) == hi) return r.replace(i, x);
  return false;
}

bool simplify_not(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId a = m.operand(i, 0);
  if (m.opcode(a) == Opcode::kNot && same_shape(m, m.operand(a, 0), i)) return r.replace(i, m.operand(a, 0));
  return false;
}

bool simplify_and_or_xor(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const Opcode op = m.opcode(i);
  const ElementType t = type_of(m, i);
  if (!is_int_like(t)) return false;
  const InstrId a = m.operand(i, 0), b = m.operand(i, 1);
  if (a == b) return op == Opcode::kXor ? r.replace(i, r.splat_int(t, 0, dims_of(r, i))) : r.replace(i, a);
  if (op == Opcode::kAnd && and_of_bounds(r, i)) return true;
  const uint64_t ones = width_mask(t);
  for (auto [c, x] : {std::pair{b, a}, std::pair{a, b}}) {
    if (has_bits(m, c, 0)) return r.replace(i, op == Opcode::kAnd ? c : x);
    if (op != Opcode::kXor && has_bits(m, c, ones)) return r.replace(i, op == Opcode::kAnd ? x : c);
  }
  return constants_to_the_right(r, i);
}

bool simplify_abs(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId a = m.operand(i, 0);
  if (!same_shape(m, a, i)) return false;  // complex abs is real-valued
  if (is_non_negative(m, a)) return r.replace(i, a);
  return false;
}

bool simplify_compare(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId a = m.operand(i, 0), b = m.operand(i, 1);
  const ElementType t = type_of(m, a);
  if (!m.attrs(i).direction) return false;
  const ComparisonDirection d = *m.attrs(i).direction;
  const bool reflexive = d == ComparisonDirection::kEq || d == ComparisonDirection::kLe ||
                         d == ComparisonDirection::kGe;
  if (a == b && is_int_like(t)) return r.replace(i, pred_splat(r, reflexive, dims_of(r, i)));
  // x < 0 is false and x >= 0 true when x cannot be negative (unsigned or an iota).
  const bool non_negative_a = ir::is_unsigned_integral(t) || is_non_negative_iota(m, a);
  const bool non_negative_b = ir::is_unsigned_integral(t) || is_non_negative_iota(m, b);
  if (non_negative_a && is_all_value(m, b, 0)) {
    if (d == ComparisonDirection::kLt) return r.replace(i, pred_splat(r, false, dims_of(r, i)));
    if (d == ComparisonDirection::kGe) return r.replace(i, pred_splat(r, true, dims_of(r, i)));
  }
  if (non_negative_b && is_all_value(m, a, 0)) {
    if (d == ComparisonDirection::kGt) return r.replace(i, pred_splat(r, false, dims_of(r, i)));
    if (d == ComparisonDirection::kLe) return r.replace(i, pred_splat(r, true, dims_of(r, i)));
  }
  return false;
}

bool simplify_min_max(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId a = m.operand(i, 0), b = m.operand(i, 1);
  const ElementType t = type_of(m, i);
  if (a == b) return r.replace(i, a);
  if (ir::is_integral(t)) {
    // max(x, MIN) = x and min(x, MAX) = x.
    const uint64_t neutral = m.opcode(i) == Opcode::kMaximum ? int_min_bits(t) : int_max_bits(t);
    if (has_bits(m, b, neutral)) return r.replace(i, a);
    if (has_bits(m, a, neutral)) return r.replace(i, b);
  }
  if (form_clamp(r, i)) return true;
  return constants_to_the_right(r, i);
}

bool simplify_select(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId p = m.operand(i, 0), a = m.operand(i, 1), b = m.operand(i, 2);
  if (a == b) return r.replace(i, a);
  if (has_bits(m, p, 1) && same_shape(m, a, i)) return r.replace(i, a);
  if (has_bits(m, p, 0) && same_shape(m, b, i)) return r.replace(i, b);
  if (m.opcode(p) == Opcode::kNot) {
    const InstrId ops[] = {m.operand(p, 0), b, a};
    return r.replace(i, r.make(Opcode::kSelect, ops));
  }
  return false;
}

bool simplify_convert(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId a = m.operand(i, 0);
  const ElementType t2 = type_of(m, i);
  if (type_of(m, a) == t2) return r.replace(i, a);
  if (m.opcode(a) != Opcode::kConvert) return false;
  const InstrId x = m.operand(a, 0);
  const ElementType t = type_of(m, x);
  if (!chain_collapses(t, type_of(m, a), t2)) return false;
  if (t == t2) return r.replace(i, x);
  const InstrId ops[] = {x};
  return r.replace(i, r.make_shaped(Opcode::kConvert, Shape(t2, m.shape(x).dims()), ops));
}

}  // namespace hlsgym::passes::algsimp
