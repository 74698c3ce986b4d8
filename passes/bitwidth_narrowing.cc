// bitwidth-narrowing (an HLS pass, not in XLA): a value-range analysis (hls_range.h)
// bounds every integer instruction; an integer elementwise op whose values provably fit
// a narrower integer type is computed in that type and widened by a convert, e.g. an s32
// add of two values in [-128, 127] becomes an s16 add and a convert to s32. It adds
// converts (more ops) but shrinks adders, multipliers, comparators and muxes, and so
// area, energy and often DSP use on the FPGA-like target.
//
// Which narrow type: the narrowest of 8, 16 and 32 bits below the op's width (the same
// signedness first) for which the rewrite is exact:
// - add, subtract, multiply, and, or, xor, not, negate, shift-left: the low k bits of the
//   result depend only on the low k bits of the operands, so the op may run on operands
//   truncated to k bits; it is exact when the *result's* range fits the narrow type
//   (then sign or zero extension gives back the wide value). Shift-left's amount must
//   itself fit (so it is the same amount, or >= both widths).
// - maximum, minimum, abs, divide, remainder, shift-right-*, select, clamp: every
//   operand and the result must fit, so the narrow op sees the same numbers (shift
//   amounts >= the narrow width give the same 0 / sign fill the wide op gives on those
//   values; shift-right-arithmetic is narrowed to signed types only).
// - compare: both operands fit a type of their own signedness (the result stays pred).
// Operands are narrowed without a convert where possible: convert(y) becomes y (or
// convert(y) to the narrow type), constants and iotas are rebuilt in the narrow type,
// broadcasts are narrowed before broadcasting, so chains of narrowed ops stay narrow.
// Only the narrowest fitting type is chosen, so a second run finds nothing to do.
#include <unordered_map>
#include <vector>

#include "passes/hls_range.h"
#include "passes/hls_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using hls::Range;
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

enum class Kind { kNone, kLowBits, kValue, kCompare };

Kind kind_of(Opcode op) {
  switch (op) {
    case Opcode::kAdd: case Opcode::kSubtract: case Opcode::kMultiply: case Opcode::kAnd:
    case Opcode::kOr: case Opcode::kXor: case Opcode::kNot: case Opcode::kNegate:
    case Opcode::kShiftLeft:
      return Kind::kLowBits;
    case Opcode::kMaximum: case Opcode::kMinimum: case Opcode::kAbs: case Opcode::kDivide:
    case Opcode::kRemainder: case Opcode::kShiftRightLogical: case Opcode::kShiftRightArithmetic:
    case Opcode::kSelect: case Opcode::kClamp:
      return Kind::kValue;
    case Opcode::kCompare: return Kind::kCompare;
    default: return Kind::kNone;
  }
}

ElementType integer_type(bool is_signed, int width) {
  switch (width) {
    case 8: return is_signed ? ElementType::kS8 : ElementType::kU8;
    case 16: return is_signed ? ElementType::kS16 : ElementType::kU16;
    default: return is_signed ? ElementType::kS32 : ElementType::kU32;
  }
}

class BitwidthNarrowing final : public Pass {
 public:
  std::string_view name() const override { return "bitwidth-narrowing"; }
  std::string_view description() const override {
    return "HLS pass: value-range analysis; integer elementwise ops whose values fit a narrower "
           "type run in it, then a widening convert";
  }
  bool run(ir::Module& m) override {
    hls::RangeAnalysis ranges(m);
    ranges_ = &ranges;
    bool changed = false;
    for (ir::CompId c : m.live_computations()) {
      // A fresh map, not clear() (nor = {}, which clears): clear() zeroes every bucket the
      // largest computation grew, once per computation, and made the pass quadratic in
      // modules of many computations.
      std::unordered_map<uint64_t, InstrId>().swap(narrowed_);
      for (InstrId i : m.post_order(c)) {
        if (!m.is_live(i)) continue;
        ranges.compute(i);
        changed |= try_narrow(m, c, i);
      }
    }
    ranges_ = nullptr;
    std::unordered_map<uint64_t, InstrId>().swap(narrowed_);
    return changed;
  }

 private:
  // The type the values of `i` will be computed in, the op's element type (its
  // operands' for compare).
  static ElementType working_type(const ir::Module& m, InstrId i) {
    return m.shape(m.opcode(i) == Opcode::kCompare ? m.operand(i, 0) : i).element_type();
  }

  bool fits(InstrId i, ElementType n) const { return ranges_->get(i).within(hls::type_range(n)); }

  bool exact_in(const ir::Module& m, InstrId i, Kind kind, ElementType n) const {
    const Opcode op = m.opcode(i);
    if (kind == Kind::kLowBits)
      return fits(i, n) && (op != Opcode::kShiftLeft || fits(m.operand(i, 1), n));
    if (op == Opcode::kShiftRightArithmetic && !ir::is_signed_integral(n)) return false;
    if (kind == Kind::kValue && !fits(i, n)) return false;
    const auto ops = m.operands(i);
    for (size_t k = op == Opcode::kSelect ? 1 : 0; k < ops.size(); ++k)
      if (!fits(ops[k], n)) return false;
    return true;
  }

  std::optional<ElementType> narrow_type(const ir::Module& m, InstrId i, Kind kind) const {
    const ElementType t = working_type(m, i);
    if (!ir::is_integral(t)) return std::nullopt;
    const bool is_signed = ir::is_signed_integral(t);
    for (int width : {8, 16, 32}) {
      if (width >= ir::bit_width(t)) break;
      for (bool same : {true, false}) {
        if (!same && kind == Kind::kCompare) continue;  // keeps type=SIGNED/UNSIGNED meaningful
        const ElementType n = integer_type(same ? is_signed : !is_signed, width);
        if (exact_in(m, i, kind, n)) return n;
      }
    }
    return std::nullopt;
  }

  bool try_narrow(ir::Module& m, ir::CompId c, InstrId i) {
    const Kind kind = kind_of(m.opcode(i));
    if (kind == Kind::kNone || !m.shape(i).is_array()) return false;
    const std::optional<ElementType> n = narrow_type(m, i, kind);
    if (!n) return false;
    std::vector<InstrId> ops;
    // A copy: building narrow operands adds instructions, which may move operand storage.
    const std::vector<InstrId> old_ops(m.operands(i).begin(), m.operands(i).end());
    for (size_t k = 0; k < old_ops.size(); ++k) {
      const bool predicate = m.opcode(i) == Opcode::kSelect && k == 0;
      ops.push_back(predicate ? old_ops[k] : narrow_operand(m, c, old_ops[k], *n));
    }
    const InstrId narrow = m.add_clone(c, i, ops);
    InstrId result = narrow;
    if (kind != Kind::kCompare) {
      m.mutable_payload(narrow).shape.set_element_type(*n);
      result = hls::make_convert(m, c, narrow, m.shape(i).element_type());
      ranges_->set(result, ranges_->get(i));
    }
    ranges_->compute(narrow);
    replace_instruction(m, i, result);
    return true;
  }

  // `o`'s value (low bits, for the low-bits ops) in type `n`, reusing what exists.
  InstrId narrow_operand(ir::Module& m, ir::CompId c, InstrId o, ElementType n) {
    const uint64_t key = (uint64_t{o} << 8) | static_cast<uint64_t>(n);
    if (auto it = narrowed_.find(key); it != narrowed_.end() && m.is_live(it->second)) return it->second;
    const InstrId r = build_narrow_operand(m, c, o, n);
    const Range range = ranges_->get(o);
    ranges_->set(r, range.within(hls::type_range(n)) ? range : hls::type_range(n));
    narrowed_[key] = r;
    return r;
  }

  InstrId build_narrow_operand(ir::Module& m, ir::CompId c, InstrId o, ElementType n) {
    const Opcode op = m.opcode(o);
    if (op == Opcode::kConvert) {
      // Integer converts keep the low bits, so convert(convert(y)) == convert(y).
      const InstrId y = m.operand(o, 0);
      const ElementType from = m.shape(y).element_type();
      if (from == n) return y;
      if (ir::is_integral(from) || from == ElementType::kPred) return hls::make_convert(m, c, y, n);
    }
    if (auto v = hls::uniform_int(m, o)) return hls::splat_int(m, c, n, *v, m.shape(o));
    if (op == Opcode::kIota || op == Opcode::kBroadcast) {
      std::vector<InstrId> inner;
      if (op == Opcode::kBroadcast) inner.push_back(narrow_operand(m, c, m.operand(o, 0), n));
      const InstrId r = m.add_clone(c, o, inner);
      m.mutable_payload(r).shape.set_element_type(n);
      return r;
    }
    return hls::make_convert(m, c, o, n);
  }

  hls::RangeAnalysis* ranges_ = nullptr;
  std::unordered_map<uint64_t, InstrId> narrowed_;  // (operand, type) -> its narrow form
};

}  // namespace

PassPtr make_bitwidth_narrowing() { return std::make_unique<BitwidthNarrowing>(); }

}  // namespace hlsgym::passes
