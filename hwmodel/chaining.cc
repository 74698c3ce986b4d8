#include "hwmodel/chaining.h"

namespace hlsgym::hwmodel {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

namespace {

bool plain_integer(ElementType t) { return ir::is_integral(t) && t != ElementType::kPred; }

}  // namespace

bool wiring_convert(const ir::Module& m, InstrId i) {
  if (m.opcode(i) != Opcode::kConvert || m.operands(i).size() != 1) return false;
  const ir::Shape& out = m.shape(i);
  const ir::Shape& in = m.shape(m.operand(i, 0));
  return out.is_array() && in.is_array() && plain_integer(out.element_type()) && plain_integer(in.element_type());
}

namespace {

// Readers that build their element from operand elements (rtl ExprBuilder::node).
bool inline_reader(Opcode op) {
  switch (op) {
    case Opcode::kBroadcast: case Opcode::kTranspose: case Opcode::kSlice: case Opcode::kReverse:
    case Opcode::kCopy:
      return true;
    // aliases read the operand's buffer; these are elementwise but not expressions
    case Opcode::kBitcastConvert: case Opcode::kStochasticConvert: case Opcode::kRngBitGenerator:
    case Opcode::kRng: case Opcode::kMap:
      return false;
    default:
      return ir::info(op).elementwise;
  }
}

// Elementwise readers whose every element read is a leaf of their own expression at
// their output index (the index map a chained broadcast composes with).
bool elementwise_inline_reader(Opcode op) {
  return inline_reader(op) && !value_mapping(op) && op != Opcode::kReducePrecision;
}

}  // namespace

bool chained_broadcast(const ir::Module& m, InstrId i) {
  if (m.opcode(i) != Opcode::kBroadcast || m.operands(i).size() != 1) return false;
  const ir::Shape& out = m.shape(i);
  const ir::Shape& in = m.shape(m.operand(i, 0));
  if (!out.is_array() || !in.is_array() || in.element_count() >= out.element_count()) return false;
  const ir::CompId c = m.computation_of(i);
  if (m.computation(c).root == i) return false;
  const auto users = m.users(i);
  if (users.empty()) return false;
  for (InstrId u : users)
    if (m.computation_of(u) != c || !elementwise_inline_reader(m.opcode(u))) return false;
  return true;
}

bool chained_convert(const ir::Module& m, InstrId i) {
  if (!wiring_convert(m, i)) return false;
  const ir::CompId c = m.computation_of(i);
  if (m.computation(c).root == i) return false;
  const auto users = m.users(i);
  if (users.empty()) return false;
  const InstrId src = m.operand(i, 0);
  const bool widening = ir::bit_width(m.shape(src).element_type()) < ir::bit_width(m.shape(i).element_type());
  for (InstrId u : users) {
    if (m.computation_of(u) != c) return false;
    const Opcode op = m.opcode(u);
    if (op == Opcode::kDot || op == Opcode::kConvolution) {
      // the multiplier extends what it reads: the source must be stored, not chained itself
      if (!widening || (wiring_convert(m, src) && chained_convert(m, src)) || chained_broadcast(m, src)) return false;
      continue;
    }
    if (!inline_reader(op)) return false;
  }
  return true;
}

ElementType multiplier_operand_type(const ir::Module& m, InstrId v, bool in_fused_body) {
  if (wiring_convert(m, v) && (in_fused_body || chained_convert(m, v))) {
    const ElementType src = m.shape(m.operand(v, 0)).element_type();
    if (ir::bit_width(src) < ir::bit_width(m.shape(v).element_type())) return src;
  }
  return m.shape(v).element_type();
}

bool fused_index_op(Opcode op) {
  switch (op) {
    case Opcode::kParameter: case Opcode::kConstant: case Opcode::kBitcast: case Opcode::kBitcastConvert:
    case Opcode::kTuple: case Opcode::kGetTupleElement: case Opcode::kIota:
      return true;
    default:
      return value_mapping(op);
  }
}

bool value_mapping(Opcode op) {
  switch (op) {
    case Opcode::kBroadcast: case Opcode::kReshape: case Opcode::kCopy: case Opcode::kTranspose:
    case Opcode::kSlice: case Opcode::kReverse:
      return true;
    default:
      return false;
  }
}

std::optional<InstrId> splat_source(const ir::Module& m, InstrId v) {
  for (int depth = 0; depth < 64; ++depth) {
    if (m.opcode(v) == Opcode::kConstant) {
      const ir::Literal& l = m.literal(v);
      if (l.is_tuple() || l.elided() || l.element_count() == 0) return std::nullopt;
      const uint64_t first = l.get_bits(0);
      for (int64_t k = 1; k < l.element_count(); ++k)
        if (l.get_bits(k) != first) return std::nullopt;
      return v;
    }
    if (!value_mapping(m.opcode(v)) || m.operands(v).size() != 1) return std::nullopt;
    v = m.operand(v, 0);
  }
  return std::nullopt;
}

std::optional<uint64_t> splat_constant(const ir::Module& m, InstrId v) {
  const std::optional<InstrId> c = splat_source(m, v);
  if (!c) return std::nullopt;
  return m.literal(*c).get_bits(0);
}

bool has_literal_operand(const ir::Module& m, InstrId i) {
  for (InstrId o : m.operands(i))
    if (splat_source(m, o)) return true;
  return false;
}

ElementType stored_type(const ir::Module& m, InstrId v) {
  if (chained_convert(m, v)) return m.shape(m.operand(v, 0)).element_type();
  return m.shape(v).element_type();
}

}  // namespace hlsgym::hwmodel
