// convert-mover (XLA ConvertMover): converts move across the ops that only copy elements
// around (concatenate, pad, reshape, slice, transpose, as in XLA) so that the copying runs
// on the narrower type:
//   op(convert(x), ...) -> convert(op(x, ...))  when the converts widen (all from one
//     type, each with no other user; constant operands are converted to the narrow type,
//     and only if that loses nothing, e.g. a pad value 1e9 blocks an f16 -> f32 move),
//   convert(op(x, ...)) -> op(convert(x), ...)  when the convert narrows and op has no
//     other user (every operand, a pad value too, is converted; repeated upwards).
// Converting an element commutes with copying it, so the rewrite is exact.
#include <cmath>
#include <deque>

#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

bool commutes_with_convert(Opcode op) {
  return op == Opcode::kConcatenate || op == Opcode::kPad || op == Opcode::kReshape || op == Opcode::kSlice ||
         op == Opcode::kTranspose;
}

// XLA skips packed (sub-byte, non-pred) types: most ops do not support them.
bool sub_byte(ElementType t) { return t != ElementType::kPred && ir::bit_width(t) < 8; }

// Element k of `value` survives a convert to `to` and back (XLA's IsLosslesslyConvertibleTo).
bool element_round_trips(const ir::Literal& value, int64_t k, ElementType to) {
  const ElementType from = value.shape().element_type();
  ir::Literal narrow(ir::Shape::scalar(to));
  if (ir::is_floating(from) && ir::is_floating(to)) {
    const double v = value.get_double(k);
    narrow.set_double(0, v);
    const double back = narrow.get_double(0);
    return std::isnan(v) ? std::isnan(back) : back == v && std::signbit(back) == std::signbit(v);
  }
  if (ir::is_integral(from) && ir::is_integral(to)) {
    const int64_t v = value.get_int(k);
    narrow.set_int(0, v);
    return narrow.get_int(0) == v && (v >= 0 || ir::is_signed_integral(to));
  }
  if (ir::is_integral(from) && ir::is_floating(to)) {
    const auto v = static_cast<double>(value.get_int(k));
    narrow.set_double(0, v);
    return narrow.get_double(0) == v;
  }
  return false;  // float -> integer, complex, ...: not claimed lossless
}

bool losslessly_convertible(const ir::Literal& value, ElementType to) {
  if (value.elided() || !value.shape().is_array()) return false;
  for (int64_t k = 0; k < value.element_count(); ++k)
    if (!element_round_trips(value, k, to)) return false;
  return true;
}

// A copy of `op` over `operands`, its element type `t`.
InstrId clone_as(ir::Module& m, InstrId op, std::span<const InstrId> operands, ElementType t) {
  const InstrId copy = m.add_clone(m.computation_of(op), op, operands);
  m.mutable_payload(copy).shape.set_element_type(t);
  return copy;
}

// op(convert(x), ...) -> convert(op(x, ...)) for a widening convert.
bool move_down(ir::Module& m, InstrId op) {
  const auto ops = m.operands(op);
  if (!commutes_with_convert(m.opcode(op)) || ops.empty()) return false;
  InstrId first_convert = ir::kNoId;
  for (InstrId o : ops) {
    if (m.opcode(o) == Opcode::kConvert && m.users(o).size() == 1 && !m.is_root(o)) {
      if (first_convert == ir::kNoId) first_convert = o;
    } else if (m.opcode(o) != Opcode::kConstant) {
      return false;
    }
  }
  if (first_convert == ir::kNoId) return false;
  const ElementType src = m.shape(m.operand(first_convert, 0)).element_type();
  const ElementType dst = m.shape(first_convert).element_type();
  for (InstrId o : ops) {
    if (m.opcode(o) == Opcode::kConvert && m.shape(m.operand(o, 0)).element_type() != src) return false;
    if (m.opcode(o) == Opcode::kConstant && !losslessly_convertible(m.literal(o), src)) return false;
  }
  if (ir::bit_width(src) >= ir::bit_width(dst) || sub_byte(src)) return false;
  expand::Builder b(m, m.computation_of(op));
  std::vector<InstrId> narrow;
  for (InstrId o : ops) narrow.push_back(m.opcode(o) == Opcode::kConvert ? m.operand(o, 0) : b.convert(o, src));
  expand::replace_with(m, op, b.convert(clone_as(m, op, narrow, src), dst));
  return true;
}

class ConvertMover final : public Pass {
 public:
  std::string_view name() const override { return "convert-mover"; }
  std::string_view description() const override {
    return "moves widening converts after data movement and narrowing converts before it";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (ir::CompId c : m.live_computations()) {
      const std::vector<InstrId> order = m.instructions(c);
      for (InstrId i : order)
        if (m.is_live(i) && move_down(m, i)) changed = true;
      // Narrowing converts, from the bottom up; the converts a move creates go first.
      const std::vector<InstrId> now = m.instructions(c);
      std::deque<InstrId> work(now.rbegin(), now.rend());
      while (!work.empty()) {
        const InstrId cv = work.front();
        work.pop_front();
        if (!m.is_live(cv) || m.opcode(cv) != Opcode::kConvert) continue;
        const InstrId op = m.operand(cv, 0);
        if (m.users(op).size() != 1 || m.is_root(op) || !commutes_with_convert(m.opcode(op))) continue;
        const ElementType src = m.shape(op).element_type(), dst = m.shape(cv).element_type();
        if (ir::bit_width(src) <= ir::bit_width(dst) || sub_byte(dst)) continue;
        expand::Builder b(m, c);
        std::vector<InstrId> narrow;
        for (InstrId o : m.operands(op)) {
          narrow.push_back(b.convert(o, dst));
          work.push_front(narrow.back());
        }
        expand::replace_with(m, cv, clone_as(m, op, narrow, dst));
        changed = true;
      }
    }
    return changed;
  }
};

}  // namespace

PassPtr make_convert_mover() { return std::make_unique<ConvertMover>(); }

}  // namespace hlsgym::passes
