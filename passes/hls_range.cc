#include "passes/hls_range.h"

#include <algorithm>

namespace hlsgym::passes::hls {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

namespace {

constexpr int64_t kMaxScannedConstant = 4096;  // larger constants count as their type's range

Int min_of(Int a, Int b) { return a < b ? a : b; }
Int max_of(Int a, Int b) { return a < b ? b : a; }

Range join(const Range& a, const Range& b) {
  if (!a.known() || !b.known()) return {};
  return {min_of(a.lo, b.lo), max_of(a.hi, b.hi)};
}

// `r` if it lies within the type (no wrap-around happened), else the whole type.
Range fit(const Range& r, ElementType t) {
  const Range full = type_range(t);
  return r.within(full) ? r : full;
}

// [2^bits - 1] for the smallest `bits` with 2^bits > v (v >= 0): every value made of
// v's bits or fewer.
Int all_ones_covering(Int v) {
  Int ones = 0;
  while (ones < v) ones = ones * 2 + 1;
  return ones;
}

bool product_overflows(Int a, Int b, Int* out) { return __builtin_mul_overflow(a, b, out); }

// The extreme products of two intervals; nullopt-like empty range on overflow.
Range product(const Range& a, const Range& b) {
  Int p[4];
  if (product_overflows(a.lo, b.lo, &p[0]) || product_overflows(a.lo, b.hi, &p[1]) ||
      product_overflows(a.hi, b.lo, &p[2]) || product_overflows(a.hi, b.hi, &p[3]))
    return {};
  return {*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
}

// The opcode of a reducer computation `(p0, p1) -> op(p0, p1)`, or kParameter if it is
// anything else.
Opcode simple_reducer(const ir::Module& m, ir::CompId c) {
  const ir::Computation& comp = m.computation(c);
  if (comp.params.size() != 2 || comp.root == ir::kNoId) return Opcode::kParameter;
  const InstrId r = comp.root;
  const Opcode op = m.opcode(r);
  if (op != Opcode::kAdd && op != Opcode::kMaximum && op != Opcode::kMinimum) return Opcode::kParameter;
  const InstrId a = m.operand(r, 0), b = m.operand(r, 1);
  const InstrId p0 = comp.params[0], p1 = comp.params[1];
  if ((a == p0 && b == p1) || (a == p1 && b == p0)) return op;
  return Opcode::kParameter;
}

}  // namespace

Range type_range(ElementType t) {
  if (t == ElementType::kPred) return {0, 1};
  if (!ir::is_integral(t)) return {};
  const int w = ir::bit_width(t);
  if (ir::is_signed_integral(t)) return {-(Int(1) << (w - 1)), (Int(1) << (w - 1)) - 1};
  return {0, (Int(1) << w) - 1};
}

Range RangeAnalysis::get(InstrId i) const {
  if (i < ranges_.size() && ranges_[i].known()) return ranges_[i];
  return type_range(m_.shape(i).element_type());
}

void RangeAnalysis::set(InstrId i, Range r) {
  if (i >= ranges_.size()) ranges_.resize(std::max<size_t>(i + 1, m_.instruction_slots()));
  ranges_[i] = r;
}

Range RangeAnalysis::compute(InstrId i) {
  set(i, evaluate(i));
  return ranges_[i];
}

Range RangeAnalysis::evaluate(InstrId i) const {
  const ir::Shape& shape = m_.shape(i);
  const ElementType t = shape.element_type();
  const Range full = type_range(t);
  if (!full.known() || !shape.is_array()) return {};
  auto same_type_operand = [&](size_t k) {
    const InstrId o = m_.operand(i, k);
    return m_.shape(o).element_type() == t ? get(o) : full;
  };
  switch (m_.opcode(i)) {
    case Opcode::kConstant: return constant(i);
    case Opcode::kConvert: {
      const ElementType from = m_.shape(m_.operand(i, 0)).element_type();
      return ir::is_integral(from) || from == ElementType::kPred ? fit(get(m_.operand(i, 0)), t) : full;
    }
    case Opcode::kBroadcast: case Opcode::kReshape: case Opcode::kTranspose: case Opcode::kSlice:
    case Opcode::kReverse: case Opcode::kCopy: case Opcode::kDynamicSlice: case Opcode::kGather:
    case Opcode::kBitcast:
      return same_type_operand(0);
    case Opcode::kPad: case Opcode::kDynamicUpdateSlice:
      return join(same_type_operand(0), same_type_operand(1));
    case Opcode::kConcatenate: {
      Range r = same_type_operand(0);
      for (size_t k = 1; k < m_.operands(i).size(); ++k) r = join(r, same_type_operand(k));
      return r;
    }
    case Opcode::kSelect: return join(same_type_operand(1), same_type_operand(2));
    case Opcode::kClamp: {
      const Range lo = get(m_.operand(i, 0)), x = get(m_.operand(i, 1)), hi = get(m_.operand(i, 2));
      const Range raised{max_of(x.lo, lo.lo), max_of(x.hi, lo.hi)};
      return {min_of(raised.lo, hi.lo), min_of(raised.hi, hi.hi)};
    }
    case Opcode::kMaximum: case Opcode::kMinimum: {
      const Range a = get(m_.operand(i, 0)), b = get(m_.operand(i, 1));
      if (m_.opcode(i) == Opcode::kMaximum) return {max_of(a.lo, b.lo), max_of(a.hi, b.hi)};
      return {min_of(a.lo, b.lo), min_of(a.hi, b.hi)};
    }
    case Opcode::kAdd: case Opcode::kSubtract: case Opcode::kMultiply: case Opcode::kNegate:
    case Opcode::kAbs:
      return arithmetic(i);
    case Opcode::kAnd: case Opcode::kOr: case Opcode::kXor: case Opcode::kNot:
      return bitwise(i);
    case Opcode::kShiftLeft: case Opcode::kShiftRightLogical: case Opcode::kShiftRightArithmetic:
      return shift(i);
    case Opcode::kDivide: case Opcode::kRemainder: return division(i);
    case Opcode::kIota: {
      const int64_t d = m_.attrs(i).iota_dimension;
      if (d < 0 || d >= shape.rank()) return full;
      return fit({0, max_of(0, Int(shape.dim(d)) - 1)}, t);
    }
    case Opcode::kPopulationCount: case Opcode::kClz: return fit({0, ir::bit_width(t)}, t);
    case Opcode::kSign: return ir::is_signed_integral(t) ? Range{-1, 1} : Range{0, 1};
    case Opcode::kReduce: case Opcode::kReduceWindow: return reduction(i);
    default: return full;
  }
}

Range RangeAnalysis::constant(InstrId i) const {
  const ir::Literal& l = m_.literal(i);
  const ElementType t = m_.shape(i).element_type();
  const int64_t n = l.element_count();
  if (l.is_tuple() || l.elided() || n == 0 || n > kMaxScannedConstant) return type_range(t);
  auto value = [&](int64_t k) { return ir::is_unsigned_integral(t) ? Int(l.get_bits(k)) : Int(l.get_int(k)); };
  Range r{value(0), value(0)};
  for (int64_t k = 1; k < n; ++k) {
    const Int v = value(k);
    r.lo = min_of(r.lo, v);
    r.hi = max_of(r.hi, v);
  }
  return r;
}

Range RangeAnalysis::arithmetic(InstrId i) const {
  const ElementType t = m_.shape(i).element_type();
  const Range a = get(m_.operand(i, 0));
  switch (m_.opcode(i)) {
    case Opcode::kNegate: return fit({-a.hi, -a.lo}, t);
    case Opcode::kAbs:
      if (!ir::is_signed_integral(t) || a.lo >= 0) return a;
      if (a.hi <= 0) return fit({-a.hi, -a.lo}, t);
      return fit({0, max_of(-a.lo, a.hi)}, t);
    default: break;
  }
  const Range b = get(m_.operand(i, 1));
  switch (m_.opcode(i)) {
    case Opcode::kAdd: return fit({a.lo + b.lo, a.hi + b.hi}, t);
    case Opcode::kSubtract: return fit({a.lo - b.hi, a.hi - b.lo}, t);
    default: return fit(product(a, b), t);  // an overflowing product is empty: whole type
  }
}

Range RangeAnalysis::bitwise(InstrId i) const {
  const ElementType t = m_.shape(i).element_type();
  const Range full = type_range(t);
  if (t == ElementType::kPred) return full;
  const Range a = get(m_.operand(i, 0));
  if (m_.opcode(i) == Opcode::kNot)
    return ir::is_signed_integral(t) ? Range{-a.hi - 1, -a.lo - 1} : Range{full.hi - a.hi, full.hi - a.lo};
  const Range b = get(m_.operand(i, 1));
  const bool a_nonneg = a.lo >= 0, b_nonneg = b.lo >= 0;
  switch (m_.opcode(i)) {
    case Opcode::kAnd:  // a non-negative operand bounds the result (its bits are a mask)
      if (a_nonneg && b_nonneg) return {0, min_of(a.hi, b.hi)};
      if (a_nonneg) return {0, a.hi};
      if (b_nonneg) return {0, b.hi};
      return full;
    case Opcode::kOr:
      if (a_nonneg && b_nonneg) return {max_of(a.lo, b.lo), all_ones_covering(max_of(a.hi, b.hi))};
      return full;
    default:  // xor
      if (a_nonneg && b_nonneg) return {0, all_ones_covering(max_of(a.hi, b.hi))};
      return full;
  }
}

Range RangeAnalysis::shift(InstrId i) const {
  const ElementType t = m_.shape(i).element_type();
  const Range full = type_range(t);
  const int w = ir::bit_width(t);
  const Range a = get(m_.operand(i, 0)), s = get(m_.operand(i, 1));
  // Effective amounts in [0, w]: w stands for every amount >= w, and negative amounts
  // (huge when read as unsigned bits, as the interpreter does) count as >= w too.
  Range e;
  if (s.hi < 0) e = {w, w};
  else if (s.lo < 0) e = {0, w};
  else e = {min_of(s.lo, w), min_of(s.hi, w)};
  switch (m_.opcode(i)) {
    case Opcode::kShiftLeft: {
      if (a.lo == 0 && a.hi == 0) return a;
      if (e.hi >= w) return full;
      const Range scale{Int(1) << static_cast<int>(e.lo), Int(1) << static_cast<int>(e.hi)};
      return fit(product(a, scale), t);
    }
    case Opcode::kShiftRightLogical:
      if (a.lo < 0) return full;
      return {a.lo >> static_cast<int>(e.hi), a.hi >> static_cast<int>(e.lo)};
    default: {  // arithmetic: reads the bits as signed; amounts >= w act like w - 1
      if (!ir::is_signed_integral(t) && a.hi >= (Int(1) << (w - 1))) return full;
      const int lo_e = static_cast<int>(min_of(e.lo, w - 1)), hi_e = static_cast<int>(min_of(e.hi, w - 1));
      return {min_of(a.lo >> lo_e, a.lo >> hi_e), max_of(a.hi >> lo_e, a.hi >> hi_e)};
    }
  }
}

Range RangeAnalysis::division(InstrId i) const {
  const ElementType t = m_.shape(i).element_type();
  const Range full = type_range(t);
  const Range a = get(m_.operand(i, 0)), b = get(m_.operand(i, 1));
  const bool is_signed = ir::is_signed_integral(t);
  if (m_.opcode(i) == Opcode::kDivide) {
    if (a.lo >= 0 && b.lo > 0) return {a.lo / b.hi, a.hi / b.lo};
    if (!is_signed) return full;  // x / 0 is all ones
    // |a / b| <= |a|, and x / 0 = -1.
    const Int mag = max_of(-a.lo, a.hi);
    return fit({min_of(-mag, -1), mag}, t);
  }
  // The remainder has the dividend's sign and |a % b| <= |a| (x % 0 = x); with b != 0
  // also |a % b| < |b|.
  Range r{min_of(a.lo, 0), max_of(a.hi, 0)};
  if (b.lo > 0 || b.hi < 0) {
    const Int limit = max_of(b.lo < 0 ? -b.lo : b.lo, b.hi < 0 ? -b.hi : b.hi) - 1;
    r = {max_of(r.lo, -limit), min_of(r.hi, limit)};
  }
  return fit(r, t);
}

Range RangeAnalysis::reduction(InstrId i) const {
  const ElementType t = m_.shape(i).element_type();
  const Range full = type_range(t);
  if (m_.operands(i).size() != 2 || m_.called(i).size() != 1) return full;
  const Opcode op = simple_reducer(m_, m_.called(i)[0]);
  const InstrId input = m_.operand(i, 0), init = m_.operand(i, 1);
  if (m_.shape(input).element_type() != t) return full;
  const Range a = get(input), z = get(init);
  if (op == Opcode::kMaximum || op == Opcode::kMinimum) return join(a, z);  // padding holds init
  if (op != Opcode::kAdd || m_.opcode(i) != Opcode::kReduce) return full;
  // At most n addends per output (fewer when dimensions are dynamic).
  const int64_t out = m_.shape(i).element_count();
  const Int n = out > 0 ? m_.shape(input).element_count() / out : 0;
  const Range sums = product({0, n}, {min_of(a.lo, 0), max_of(a.hi, 0)});
  if (!sums.known()) return full;
  return fit({z.lo + sums.lo, z.hi + sums.hi}, t);
}

}  // namespace hlsgym::passes::hls
