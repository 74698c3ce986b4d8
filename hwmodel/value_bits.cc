// The interval pass and the storage decision (value_bits.h).
#include "hwmodel/value_bits.h"

#include <algorithm>
#include <limits>
#include <map>

#include "ir/literal.h"

namespace hlsgym::hwmodel {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

namespace {
using Wide = __int128;  // sums, products and constant shifts of 64-bit bounds never overflow it

// Integer types whose ranges the pass tracks: those of at most 32 bits and s64 (the fixed
// point containers of wide intermediates; u64's range does not fit an int64_t).
bool tracked_integer(ElementType t, bool deep = true) {
  return t == ElementType::kPred || (ir::is_integral(t) && ir::bit_width(t) <= 32) || (deep && t == ElementType::kS64);
}

ValueRange join(ValueRange a, ValueRange b) {
  if (!a.known || !b.known) return {};
  return {true, std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
}

// [lo, hi] when the type holds all of it, else the whole type (the result may wrap).
ValueRange fit(ElementType t, Wide lo, Wide hi) {
  const ValueRange whole = type_range(t);
  if (!whole.known || lo < whole.lo || hi > whole.hi) return whole;
  return {true, static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
}

// Every value up to the next power of two below it: an or/xor of values in [0, hi].
int64_t ones_up_to(int64_t hi) {
  int64_t m = 0;
  while (m < hi) m = m * 2 + 1;
  return m;
}

class Pass {
 public:
  // deep: also s64 values, loop fusions' and reduces' values and shifts by a constant (the
  // ranges divider_bits reads); not deep: the ranges the storage decision is made from.
  Pass(const ir::Module& m, bool deep) : m_(m), deep_(deep) {
    r_.range.assign(m.instruction_slots(), ValueRange{});
    r_.stored_bits.assign(m.instruction_slots(), 0);
    r_.sign_extend.assign(m.instruction_slots(), 0);
    r_.operand_bits.assign(m.instruction_slots(), 0);
    for (InstrId i = 0; i < m.instruction_slots(); ++i)
      if (m.is_live(i) && m.opcode(i) == Opcode::kFusion && !m.called(i).empty()) ++callers_[m.called(i)[0]];
  }

  ValueBits run() {
    const std::vector<InstrId> order = m_.post_order(m_.entry());
    for (InstrId i : order) r_.range[i] = transfer(i), r_.operand_bits[i] = demanded(i);
    if (!deep_) decide_storage(order);
    return std::move(r_);
  }

 private:
  const ValueRange& of(InstrId i, size_t k) const { return r_.range[m_.operand(i, k)]; }

  ValueRange transfer(InstrId i) {
    const ir::Shape& s = m_.shape(i);
    if (s.is_tuple()) return {};
    const ElementType t = s.element_type();
    if (!tracked_integer(t, deep_)) return {};
    if (deep_ && m_.opcode(i) == Opcode::kFusion) return fused(i);
    if (deep_ && m_.opcode(i) == Opcode::kReduce) return reduced(i);
    const ValueRange whole = type_range(t);
    const auto ops = m_.operands(i);
    auto same = [&](size_t k) { return m_.shape(ops[k]).element_type() == t ? of(i, k) : whole; };
    auto known_all = [&] {
      for (size_t k = 0; k < ops.size(); ++k)
        if (!of(i, k).known) return false;
      return true;
    };
    switch (m_.opcode(i)) {
      case Opcode::kConstant: {
        const ir::Literal& l = m_.literal(i);
        if (l.elided() || l.element_count() == 0) return whole;
        int64_t lo = l.get_int(0), hi = lo;
        for (int64_t k = 1; k < l.element_count(); ++k) lo = std::min(lo, l.get_int(k)), hi = std::max(hi, l.get_int(k));
        return fit(t, lo, hi);
      }
      case Opcode::kIota: {
        const int64_t d = m_.attrs(i).iota_dimension;
        if (d < 0 || d >= s.rank() || s.dim(d) == 0) return whole;
        return fit(t, 0, s.dim(d) - 1);
      }
      case Opcode::kReshape:
      case Opcode::kBitcast:
      case Opcode::kCopy:
      case Opcode::kBroadcast:
      case Opcode::kTranspose:
      case Opcode::kReverse:
      case Opcode::kSlice:
      case Opcode::kDynamicSlice:
      case Opcode::kGather:
      case Opcode::kBitcastConvert:
        return ops.empty() ? whole : same(0);
      case Opcode::kPad:
      case Opcode::kDynamicUpdateSlice:
        return ops.size() < 2 ? whole : join(same(0), same(1));
      case Opcode::kConcatenate: {
        if (ops.empty()) return whole;
        ValueRange r = same(0);
        for (size_t k = 1; k < ops.size(); ++k) r = join(r, same(k));
        return r.known ? r : whole;
      }
      case Opcode::kSelect:
        return ops.size() != 3 ? whole : join(same(1), same(2));
      case Opcode::kConvert: {
        const ElementType src = m_.shape(ops[0]).element_type();
        if (src == ElementType::kPred) return fit(t, 0, 1);
        if (t == ElementType::kPred) return {true, 0, 1};
        if (!ir::is_integral(src) || !of(i, 0).known) return whole;
        return fit(t, of(i, 0).lo, of(i, 0).hi);
      }
      case Opcode::kCompare: return {true, 0, 1};
      default: break;
    }
    if (t == ElementType::kPred || !known_all()) return whole;
    const ValueRange a = ops.empty() ? whole : of(i, 0), b = ops.size() > 1 ? of(i, 1) : whole;
    switch (m_.opcode(i)) {
      case Opcode::kAdd: return fit(t, Wide{a.lo} + b.lo, Wide{a.hi} + b.hi);
      case Opcode::kSubtract: return fit(t, Wide{a.lo} - b.hi, Wide{a.hi} - b.lo);
      case Opcode::kMultiply: {
        const Wide p[] = {Wide{a.lo} * b.lo, Wide{a.lo} * b.hi, Wide{a.hi} * b.lo, Wide{a.hi} * b.hi};
        return fit(t, *std::min_element(p, p + 4), *std::max_element(p, p + 4));
      }
      case Opcode::kMaximum: return {true, std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
      case Opcode::kMinimum: return {true, std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
      case Opcode::kClamp: {  // min(max(x, lo), hi): nondecreasing in all three
        const ValueRange x = b, h = of(i, 2);
        return {true, std::min(std::max(x.lo, a.lo), h.lo), std::min(std::max(x.hi, a.hi), h.hi)};
      }
      case Opcode::kAnd:
        if (a.lo >= 0 && b.lo >= 0) return {true, 0, std::min(a.hi, b.hi)};
        if (a.lo >= 0) return {true, 0, a.hi};
        if (b.lo >= 0) return {true, 0, b.hi};
        return whole;
      case Opcode::kOr:
      case Opcode::kXor:
        if (a.lo >= 0 && b.lo >= 0) return fit(t, 0, ones_up_to(std::max(a.hi, b.hi)));
        return whole;
      case Opcode::kNegate: return fit(t, -Wide{a.hi}, -Wide{a.lo});
      case Opcode::kAbs:
        if (a.lo >= 0) return a;
        return fit(t, a.hi < 0 ? -Wide{a.hi} : 0, std::max(-Wide{a.lo}, Wide{a.hi}));
      case Opcode::kShiftLeft:  // by a constant amount within the width: times 2^amount
        if (!deep_ || b.lo != b.hi || b.lo < 0 || b.lo >= ir::bit_width(t)) return whole;
        return fit(t, Wide{a.lo} * (Wide{1} << b.lo), Wide{a.hi} * (Wide{1} << b.lo));
      case Opcode::kShiftRightLogical:
        if (a.lo >= 0) return {true, 0, a.hi};
        return whole;
      case Opcode::kShiftRightArithmetic: return {true, std::min<int64_t>(a.lo, 0), std::max<int64_t>(a.hi, 0)};
      case Opcode::kSign: return fit(t, ir::is_signed_integral(t) ? -1 : 0, 1);
      case Opcode::kPopulationCount:
      case Opcode::kClz: return fit(t, 0, ir::bit_width(t));
      default: return whole;
    }
  }

  // A loop fusion's value: its body's root, the body's values ranged from the fusion's
  // operands (recorded by InstrId, so a divide inside the body has its operands' ranges:
  // divider_bits). A body called from several fusions is not analysed (its whole type).
  ValueRange fused(InstrId i) {
    const ir::Shape& s = m_.shape(i);
    const ValueRange whole = type_range(s.element_type());
    if (m_.called(i).empty()) return whole;
    const ir::CompId c = m_.called(i)[0];
    const ir::Computation& comp = m_.computation(c);
    if (callers_[c] != 1 || comp.root == ir::kNoId || comp.params.size() != m_.operands(i).size()) return whole;
    for (size_t k = 0; k < comp.params.size(); ++k) {
      const InstrId p = comp.params[k];
      if (p == ir::kNoId) continue;
      const bool same = m_.shape(p).is_array() && m_.shape(m_.operand(i, k)).is_array() &&
                        m_.shape(p).element_type() == m_.shape(m_.operand(i, k)).element_type();
      r_.range[p] = same ? of(i, k) : m_.shape(p).is_array() ? type_range(m_.shape(p).element_type()) : ValueRange{};
    }
    for (InstrId j : m_.post_order(c))
      if (m_.opcode(j) != Opcode::kParameter) r_.range[j] = transfer(j);
    const ValueRange r = r_.range[comp.root];
    return r.known ? r : whole;
  }

  // A reduce of one array: its init or a value of its combiner's root, ranged with the
  // combiner's parameters at their whole types (so whichever reduce calls it): a
  // fixed-point sum that saturates into its format ends in a clamp.
  ValueRange reduced(InstrId i) {
    const ValueRange whole = type_range(m_.shape(i).element_type());
    if (m_.called(i).empty() || m_.operands(i).size() != 2) return whole;
    const ir::Computation& comp = m_.computation(m_.called(i)[0]);
    if (comp.root == ir::kNoId || m_.shape(comp.root).is_tuple() ||
        m_.shape(comp.root).element_type() != m_.shape(i).element_type())
      return whole;
    for (InstrId p : comp.params)
      if (p != ir::kNoId) r_.range[p] = m_.shape(p).is_array() ? type_range(m_.shape(p).element_type()) : ValueRange{};
    for (InstrId j : m_.post_order(m_.called(i)[0]))
      if (m_.opcode(j) != Opcode::kParameter) r_.range[j] = transfer(j);
    const ValueRange init = m_.shape(m_.operand(i, 1)).element_type() == m_.shape(i).element_type() ? of(i, 1) : whole;
    const ValueRange r = join(r_.range[comp.root], init);
    return r.known ? r : whole;
  }

  // An integer `and` with a constant operand whose values are all non-negative (a mask)
  // depends on the low bits of the mask's width of the other operand only.
  int demanded(InstrId i) const {
    if (m_.opcode(i) != Opcode::kAnd || m_.shape(i).is_tuple()) return 0;
    const ElementType t = m_.shape(i).element_type();
    if (!ir::is_integral(t) || ir::bit_width(t) > 32) return 0;
    for (InstrId o : m_.operands(i)) {
      const ValueRange r = r_.range[o];
      if (!r.known || r.lo < 0 || !constant_value(o)) continue;
      bool sign = false;
      const int bits = range_bits(r, &sign);
      if (bits < ir::bit_width(t)) return bits;
    }
    return 0;
  }

  // A constant, or data movement of one (a broadcast mask).
  bool constant_value(InstrId i) const {
    while (m_.opcode(i) != Opcode::kConstant) {
      switch (m_.opcode(i)) {
        case Opcode::kBroadcast: case Opcode::kReshape: case Opcode::kBitcast: case Opcode::kCopy:
        case Opcode::kSlice: case Opcode::kTranspose: case Opcode::kReverse:
          i = m_.operand(i, 0);
          break;
        default: return false;
      }
    }
    return true;
  }

  // Ops whose result carries its operands' bits (or their sign-extension) unchanged, so a
  // reader of the result sees how narrow the operands are.
  static bool passes_width(Opcode op) {
    switch (op) {
      case Opcode::kReshape: case Opcode::kBitcast: case Opcode::kBitcastConvert: case Opcode::kCopy:
      case Opcode::kBroadcast: case Opcode::kTranspose: case Opcode::kReverse: case Opcode::kSlice:
      case Opcode::kDynamicSlice: case Opcode::kGather: case Opcode::kPad: case Opcode::kConcatenate:
      case Opcode::kDynamicUpdateSlice: case Opcode::kSelect: case Opcode::kConvert: case Opcode::kMaximum:
      case Opcode::kMinimum: case Opcode::kClamp: case Opcode::kTuple: case Opcode::kGetTupleElement:
        return true;
      default: return false;
    }
  }

  // Whether operand k's bits reach the result (not a start index or a select's predicate).
  static bool carries_data(Opcode op, size_t k) {
    switch (op) {
      case Opcode::kDynamicSlice: case Opcode::kGather: return k == 0;
      case Opcode::kDynamicUpdateSlice: return k < 2;
      case Opcode::kSelect: return k > 0;
      default: return true;
    }
  }

  static bool product(Opcode op) {
    return op == Opcode::kMultiply || op == Opcode::kDot || op == Opcode::kConvolution;
  }

  void decide_storage(const std::vector<InstrId>& order) {
    std::vector<uint8_t> keep(m_.instruction_slots(), 0);  // read by a product (through width-passing ops)
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const InstrId i = *it;
      const Opcode op = m_.opcode(i);
      // called computations (fusions, reduces, loops, ...): their insides are not analysed
      const auto ops = m_.operands(i);
      if (product(op) || !m_.called(i).empty()) {
        for (InstrId o : ops) keep[o] = 1;
      } else if (keep[i] && passes_width(op)) {
        for (size_t k = 0; k < ops.size(); ++k) keep[ops[k]] |= carries_data(op, k);
      }
    }
    for (InstrId i : order) {
      const Opcode op = m_.opcode(i);
      const ValueRange r = r_.range[i];
      if (keep[i] || !r.known || op == Opcode::kParameter || op == Opcode::kConstant) continue;
      const ElementType t = m_.shape(i).element_type();
      if (t == ElementType::kPred) continue;
      bool sign = false;
      const int bits = range_bits(r, &sign);
      if (bits >= ir::bit_width(t)) continue;
      r_.stored_bits[i] = static_cast<uint8_t>(bits);
      r_.sign_extend[i] = sign;
    }
  }

  const ir::Module& m_;
  const bool deep_;
  ValueBits r_;
  std::map<ir::CompId, int> callers_;  // fusion computations: how many fusions call each
};

}  // namespace

ValueRange type_range(ElementType t) {
  if (t == ElementType::kPred) return {true, 0, 1};
  if (!tracked_integer(t)) return {};
  if (t == ElementType::kS64) return {true, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  const int w = ir::bit_width(t);
  if (ir::is_signed_integral(t)) return {true, -(int64_t{1} << (w - 1)), (int64_t{1} << (w - 1)) - 1};
  return {true, 0, (int64_t{1} << w) - 1};
}

int range_bits(ValueRange r, bool* sign_extend) {
  int bits = 1;
  if (r.lo >= 0) {
    while (bits < 64 && (r.hi >> bits) != 0) ++bits;
    *sign_extend = false;
    return bits;
  }
  // two's complement: -2^(bits-1) <= lo and hi < 2^(bits-1)
  while (bits < 64 && (r.lo < -(int64_t{1} << (bits - 1)) || r.hi >= (int64_t{1} << (bits - 1)))) ++bits;
  *sign_extend = true;
  return bits;
}

// The storage decision keeps the shallow ranges: narrowing more words (s64 values, fusions'
// results and what follows from them) is not yet checked against the RTL and Yosys.
ValueBits analyze_value_bits(const ir::Module& m) {
  ValueBits vb = Pass(m, false).run();
  vb.range = Pass(m, true).run().range;
  return vb;
}

int divider_bits(const ir::Module& m, InstrId i, const ValueBits& vb) {
  const ElementType t = m.shape(m.operand(i, 0)).element_type();
  const int w = ir::bit_width(t);
  if (!ir::is_signed_integral(t)) return w;
  int bits = 0;
  for (InstrId o : m.operands(i)) {
    const ValueRange r = vb.value_range(o);
    if (!r.known) return w;
    bool sign = false;
    const int b = range_bits(r, &sign);
    bits = std::max(bits, sign ? b : b + 1);  // two's complement bits
  }
  return std::min(w, bits + 1);  // one more: MIN / -1 at the narrow width does not overflow
}

}  // namespace hlsgym::hwmodel
