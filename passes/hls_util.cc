#include "passes/hls_util.h"

#include "ir/shape_inference.h"

namespace hlsgym::passes::hls {
using ir::InstrId;
using ir::Opcode;

std::optional<int64_t> uniform_int(const ir::Module& m, InstrId i) {
  if (m.opcode(i) == Opcode::kBroadcast) i = m.operand(i, 0);
  if (m.opcode(i) != Opcode::kConstant) return std::nullopt;
  const ir::Literal& l = m.literal(i);
  if (l.is_tuple() || l.elided() || !ir::is_integral(l.shape().element_type())) return std::nullopt;
  const int64_t n = l.element_count();
  if (n == 0) return std::nullopt;
  const uint64_t first = l.get_bits(0);
  for (int64_t k = 1; k < n; ++k)
    if (l.get_bits(k) != first) return std::nullopt;
  return l.get_int(0);
}

InstrId splat_int(ir::Module& m, ir::CompId c, ir::ElementType t, int64_t value, const ir::Shape& like) {
  const InstrId scalar = m.add_constant(c, ir::Literal::scalar_int(t, value));
  if (like.rank() == 0) return scalar;
  ir::Shape shape = like;
  shape.set_element_type(t);
  ir::Attributes a;  // a scalar broadcast has no operand dimensions
  const InstrId ops[] = {scalar};
  return m.add_instruction(c, Opcode::kBroadcast, std::move(shape), ops, std::move(a));
}

InstrId make_elementwise(ir::Module& m, ir::CompId c, Opcode op, InstrId a, InstrId b) {
  const InstrId both[] = {a, b};
  std::span<const InstrId> ops(both, b == ir::kNoId ? 1 : 2);
  ir::Shape s = ir::infer_shape(m, op, ops, {}, {});
  if (m.shape(a).layout().present) s.mutable_layout() = m.shape(a).layout();
  return m.add_instruction(c, op, std::move(s), ops);
}

InstrId make_convert(ir::Module& m, ir::CompId c, InstrId a, ir::ElementType t) {
  ir::Shape s = m.shape(a);
  s.set_element_type(t);
  const InstrId ops[] = {a};
  return m.add_instruction(c, Opcode::kConvert, std::move(s), ops);
}

}  // namespace hlsgym::passes::hls
