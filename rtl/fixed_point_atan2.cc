// atan2 under --fixed: a two-operand function has no table of hls4ml's kind, so it is
// rewritten, still in float, into ops that have fixed-point forms (the octant reduction
// the float unit makes, ir/atan2_unit.h): t = min(|y|, |x|) / max(|y|, |x|) in [0, 1],
// a = atan(t) (a table), then pi/2 - a where |y| > |x|, pi - that where x < 0, negated
// where y < 0. max = 0 (both zero) gives t = 0 by a select, so atan2(0, 0) = 0 and
// atan2(0, x < 0) = pi as in C (the sign of a zero is lost in fixed point).
#include <numbers>

#include "rtl/fixed_point_internal.h"

namespace hlsgym::rtl::fixed {
using ir::ComparisonDirection;
using ir::InstrId;
using ir::Opcode;

namespace {

InstrId float_splat(ir::Module& m, ir::CompId c, ir::ElementType t, double v, const std::vector<int64_t>& dims) {
  const InstrId k = m.add_constant(c, ir::Literal::scalar_double(t, v));
  if (dims.empty()) return k;
  return m.add_instruction(c, Opcode::kBroadcast, ir::Shape(t, dims), std::span<const InstrId>(&k, 1));
}

void expand(ir::Module& m, ir::CompId c, InstrId i) {
  Builder b(m, c, [](const std::string&) {});
  const ir::ElementType t = m.shape(i).element_type();
  const std::vector<int64_t> dims = m.shape(i).dims();
  const InstrId y = m.operand(i, 0), x = m.operand(i, 1);
  const InstrId zero = float_splat(m, c, t, 0, dims);
  const InstrId ay = b.unary(Opcode::kAbs, y), ax = b.unary(Opcode::kAbs, x);
  const InstrId big = b.binary(Opcode::kMaximum, ay, ax), small = b.binary(Opcode::kMinimum, ay, ax);
  const InstrId ratio = b.select(b.compare(big, zero, ComparisonDirection::kEq), zero, b.binary(Opcode::kDivide, small, big));
  const InstrId a = b.unary(Opcode::kAtan, ratio);
  const InstrId half_pi = float_splat(m, c, t, std::numbers::pi / 2, dims), pi = float_splat(m, c, t, std::numbers::pi, dims);
  const InstrId first = b.select(b.compare(ay, ax, ComparisonDirection::kGt), b.binary(Opcode::kSubtract, half_pi, a), a);
  const InstrId half = b.select(b.compare(x, zero, ComparisonDirection::kLt), b.binary(Opcode::kSubtract, pi, first), first);
  const InstrId ops[] = {b.compare(y, zero, ComparisonDirection::kLt), b.unary(Opcode::kNegate, half), half};
  const std::string name = m.name(i);
  const InstrId placeholder = b.select(ops[0], ops[1], ops[2]);
  m.replace_all_uses(i, placeholder);
  m.remove_instruction(i);
  // the result keeps the op's name: the accuracy report and the overflow check find it by name
  const InstrId out = m.add_instruction(c, Opcode::kSelect, m.shape(placeholder), ops, {}, name);
  m.replace_all_uses(placeholder, out);
  m.remove_instruction(placeholder);
}

}  // namespace

void expand_atan2(ir::Module& m) {
  for (ir::CompId c : m.live_computations()) {
    std::vector<InstrId> found;
    for (InstrId i : m.instructions(c))
      if (m.opcode(i) == Opcode::kAtan2 && m.shape(i).is_array() && ir::is_floating(m.shape(i).element_type()))
        found.push_back(i);
    for (InstrId i : found) expand(m, c, i);
  }
}

}  // namespace hlsgym::rtl::fixed
