// The algebraic simplifier's rewriter (instruction builders, replace) and the constant
// and shape predicates its rules share.
#include <cassert>
#include <cmath>

#include "ir/shape_inference.h"
#include "passes/algsimp_rules.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes::algsimp {

InstrId Rewriter::make(Opcode op, std::span<const InstrId> operands, ir::Attributes attrs) {
  Shape s = ir::infer_shape(m, op, operands, attrs, {});
  return m.add_instruction(comp, op, std::move(s), operands, std::move(attrs));
}

InstrId Rewriter::make_shaped(Opcode op, Shape shape, std::span<const InstrId> operands,
                              ir::Attributes attrs) {
  return m.add_instruction(comp, op, std::move(shape), operands, std::move(attrs));
}

InstrId Rewriter::broadcast(InstrId operand, std::vector<int64_t> dims, std::vector<int64_t> map) {
  bool identity = m.shape(operand).dims() == dims;
  for (size_t k = 0; identity && k < map.size(); ++k) identity = map[k] == static_cast<int64_t>(k);
  if (identity) return operand;
  ir::Attributes a;
  a.dimensions = std::move(map);
  const InstrId ops[] = {operand};
  return make_shaped(Opcode::kBroadcast, Shape(type_of(m, operand), std::move(dims)), ops, std::move(a));
}

InstrId Rewriter::broadcast_scalar(InstrId scalar, const std::vector<int64_t>& dims) {
  return broadcast(scalar, dims, {});
}

InstrId Rewriter::reshape(InstrId operand, std::vector<int64_t> dims) {
  if (m.shape(operand).dims() == dims) return operand;
  const InstrId ops[] = {operand};
  return make_shaped(Opcode::kReshape, Shape(type_of(m, operand), std::move(dims)), ops);
}

InstrId Rewriter::splat_literal(ir::Literal scalar, const std::vector<int64_t>& dims) {
  return broadcast_scalar(m.add_constant(comp, std::move(scalar)), dims);
}

InstrId Rewriter::splat_int(ElementType t, int64_t value, const std::vector<int64_t>& dims) {
  return splat_literal(ir::Literal::scalar_int(t, value), dims);
}

InstrId Rewriter::binary(Opcode op, InstrId a, InstrId b) {
  const InstrId ops[] = {a, b};
  return make(op, ops);
}

bool Rewriter::replace(InstrId old_id, InstrId new_id) {
  assert(m.shape(old_id).compatible(m.shape(new_id)));
  // A replacement the rule just built (no users yet) takes the replaced one's layout,
  // as XLA's rules do; a bitcast's layout is part of its values, so it keeps its own.
  const Shape& old_shape = m.shape(old_id);
  if (m.users(new_id).empty() && old_shape.is_array() && old_shape.layout().present &&
      !m.shape(new_id).layout().present && m.opcode(new_id) != Opcode::kBitcast &&
      m.opcode(new_id) != Opcode::kParameter && new_id != m.computation(comp).root &&
      m.shape(new_id).dims() == old_shape.dims())
    m.mutable_payload(new_id).shape.mutable_layout() = old_shape.layout();
  replace_instruction(m, old_id, new_id);
  ++rewrites_;
  return true;
}

bool is_int_like(ElementType t) { return ir::is_integral(t) || t == ElementType::kPred; }

bool is_constant_like(const ir::Module& m, InstrId i) {
  if (m.opcode(i) == Opcode::kBroadcast) i = m.operand(i, 0);
  return m.opcode(i) == Opcode::kConstant;
}

uint64_t width_mask(ElementType t) {
  if (t == ElementType::kPred) return 1;
  const int w = ir::bit_width(t);
  return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
}

uint64_t int_min_bits(ElementType t) {
  if (!ir::is_signed_integral(t)) return 0;
  return uint64_t{1} << (ir::bit_width(t) - 1);
}

uint64_t int_max_bits(ElementType t) {
  if (!ir::is_signed_integral(t)) return width_mask(t);
  return width_mask(t) >> 1;
}

std::optional<uint64_t> uniform_bits(const ir::Module& m, InstrId i) {
  if (m.opcode(i) == Opcode::kBroadcast) i = m.operand(i, 0);
  if (m.opcode(i) != Opcode::kConstant) return std::nullopt;
  const ir::Literal& l = m.literal(i);
  if (l.is_tuple() || l.elided() || !l.shape().is_array()) return std::nullopt;
  const ElementType t = l.shape().element_type();
  if (ir::is_complex(t) || l.element_count() == 0) return std::nullopt;
  const uint64_t mask = width_mask(t);
  const uint64_t first = l.get_bits(0) & mask;
  for (int64_t k = 1; k < l.element_count(); ++k)
    if ((l.get_bits(k) & mask) != first) return std::nullopt;
  return first;
}

std::optional<int64_t> uniform_int(const ir::Module& m, InstrId i) {
  const ElementType t = type_of(m, i);
  if (!is_int_like(t)) return std::nullopt;
  auto bits = uniform_bits(m, i);
  if (!bits) return std::nullopt;
  if (!ir::is_signed_integral(t)) return static_cast<int64_t>(*bits);
  const int w = ir::bit_width(t);
  if (w >= 64) return static_cast<int64_t>(*bits);
  const uint64_t sign = uint64_t{1} << (w - 1);
  return static_cast<int64_t>((*bits ^ sign) - sign);
}

std::optional<double> uniform_float(const ir::Module& m, InstrId i) {
  if (!ir::is_floating(type_of(m, i)) || !uniform_bits(m, i)) return std::nullopt;
  const InstrId c = m.opcode(i) == Opcode::kBroadcast ? m.operand(i, 0) : i;
  return m.literal(c).get_double(0);
}

bool is_all_value(const ir::Module& m, InstrId i, double v) {
  if (!is_constant_like(m, i)) return false;
  return is_all(m, i, v);
}

namespace {
// Every element of a constant-like float `i` is something other than -0 (small constants only).
bool constant_without_negative_zero(const ir::Module& m, InstrId i) {
  if (m.opcode(i) == Opcode::kBroadcast) i = m.operand(i, 0);
  const ir::Literal& l = m.literal(i);
  if (l.is_tuple() || l.elided() || l.element_count() > 4096) return false;
  for (int64_t k = 0; k < l.element_count(); ++k) {
    const double v = l.get_double(k);
    if (v == 0 && std::signbit(v)) return false;
  }
  return true;
}

bool never_negative_zero_at(const ir::Module& m, InstrId i, int depth) {
  if (!ir::is_floating(type_of(m, i))) return is_int_like(type_of(m, i));
  if (depth > 6) return false;
  auto operand_ok = [&](size_t k) { return never_negative_zero_at(m, m.operand(i, k), depth + 1); };
  switch (m.opcode(i)) {
    case Opcode::kConstant: return constant_without_negative_zero(m, i);
    case Opcode::kExp: case Opcode::kAbs: case Opcode::kIota: return true;
    // A sum is -0 only if both terms are -0 (round to nearest; sums of the narrow
    // types are multiples of their smallest subnormal, so they never round to zero).
    case Opcode::kAdd: return operand_ok(0) || operand_ok(1);
    case Opcode::kMultiply: return m.operand(i, 0) == m.operand(i, 1);
    case Opcode::kMaximum: case Opcode::kMinimum: return operand_ok(0) && operand_ok(1);
    case Opcode::kSelect: return operand_ok(1) && operand_ok(2);
    case Opcode::kConvert: case Opcode::kBroadcast: case Opcode::kReshape: case Opcode::kTranspose:
    case Opcode::kSlice: case Opcode::kReverse: case Opcode::kCopy: case Opcode::kSqrt:
      return operand_ok(0);
    default: return false;
  }
}
}  // namespace

bool never_negative_zero(const ir::Module& m, InstrId i) { return never_negative_zero_at(m, i, 0); }

bool adds_nothing(const ir::Module& m, InstrId x, InstrId c) {
  if (!is_all_value(m, c, 0)) return false;
  const ElementType t = type_of(m, c);
  if (!ir::is_floating(t)) return !ir::is_complex(t);
  auto bits = uniform_bits(m, c);
  if (bits && *bits == (uint64_t{1} << (ir::bit_width(t) - 1))) return true;  // all -0
  return never_negative_zero(m, x);
}

InstrId scalar_source(const ir::Module& m, InstrId i) {
  if (m.opcode(i) == Opcode::kBroadcast) i = m.operand(i, 0);
  return m.shape(i).rank() == 0 ? i : ir::kNoId;
}

bool is_scalar_broadcast(const ir::Module& m, InstrId i) {
  return m.opcode(i) == Opcode::kBroadcast && m.shape(m.operand(i, 0)).rank() == 0;
}

bool static_array(const Shape& s) { return s.is_array() && s.is_static(); }

bool same_shape(const ir::Module& m, InstrId a, InstrId b) {
  return m.shape(a).compatible(m.shape(b));
}

bool is_ieee_float(ElementType t) {
  return t == ElementType::kF16 || t == ElementType::kBF16 || t == ElementType::kF32 ||
         t == ElementType::kF64;
}

std::optional<Opcode> simple_reducer(const ir::Module& m, ir::CompId c) {
  const ir::Computation& comp = m.computation(c);
  if (comp.params.size() != 2 || comp.root == ir::kNoId) return std::nullopt;
  const InstrId root = comp.root;
  const Opcode op = m.opcode(root);
  if (!ir::info(op).elementwise || m.operands(root).size() != 2) return std::nullopt;
  if (op == Opcode::kCompare || op == Opcode::kSelect || op == Opcode::kComplex) return std::nullopt;
  const InstrId a = m.operand(root, 0), b = m.operand(root, 1);
  if (a == comp.params[0] && b == comp.params[1]) return op;
  if (a == comp.params[1] && b == comp.params[0] && ir::info(op).commutative) return op;
  return std::nullopt;
}

// The size-1 dims of `rs` = reshape(y) match y's other dims in order: the reshape only
// adds or drops size-1 dims. `to_y[d]` is the y dim of rs dim d (-1 for a size-1 dim).
bool degenerate_reshape_map(const Shape& y, const Shape& rs, std::vector<int64_t>& to_y) {
  to_y.assign(static_cast<size_t>(rs.rank()), -1);
  int64_t k = 0;
  for (int64_t d = 0; d < rs.rank(); ++d) {
    if (rs.dim(d) == 1) continue;
    while (k < y.rank() && y.dim(k) == 1) ++k;
    if (k == y.rank() || y.dim(k) != rs.dim(d)) return false;
    to_y[static_cast<size_t>(d)] = k++;
  }
  while (k < y.rank() && y.dim(k) == 1) ++k;
  return k == y.rank();
}

}  // namespace hlsgym::passes::algsimp
