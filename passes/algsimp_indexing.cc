// Indexing rules of the algebraic simplifier that XLA's HandleDynamicSlice,
// HandleDynamicUpdateSlice and HandleGather apply: start indices of dimensions taken
// whole become 0, a dynamic-slice moves under a reshape that only adds or drops size-1
// dimensions, a one-element dynamic-slice of an iota (times a constant) is computed from
// the clamped index, a dynamic-update-slice of a broadcast scalar with constant indices
// is a pad, and a gather from a one-element operand is a broadcast. Every index is
// clamped exactly as the interpreter clamps it, so all of them are exact.
#include <algorithm>

#include "passes/algsimp_rules.h"

namespace hlsgym::passes::algsimp {
namespace {

bool is_constant_zero_index(const ir::Module& m, InstrId index) {
  return m.opcode(index) == Opcode::kConstant && uniform_bits(m, index) == uint64_t{0};
}

// The start indices of `i` (operands from `first`), with those of dimensions where the
// window spans `operand`'s whole extent replaced by constant 0: the interpreter clamps
// them to 0 anyway. Empty if none changes.
std::vector<InstrId> zeroed_trivial_indices(Rewriter& r, InstrId i, size_t first, const Shape& operand,
                                            const Shape& window) {
  const ir::Module& m = r.m;
  std::vector<InstrId> ops(m.operands(i).begin(), m.operands(i).end());
  bool changed = false;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    InstrId& index = ops[first + static_cast<size_t>(d)];
    if (window.dim(d) != operand.dim(d) || is_constant_zero_index(m, index)) continue;
    index = r.m.add_constant(r.comp, ir::Literal::scalar_int(type_of(m, index), 0));
    changed = true;
  }
  if (!changed) return {};
  return ops;
}

// dynamic-slice(reshape(y), starts) where the reshape only adds or drops size-1 dims ->
// reshape(dynamic-slice(y, starts of the matching dims; 0 for y's size-1 dims)).
bool dynamic_slice_of_degenerate_reshape(Rewriter& r, InstrId i, InstrId rs) {
  const ir::Module& m = r.m;
  const InstrId y = m.operand(rs, 0);
  if (m.users(rs).size() != 1 || !static_array(m.shape(y))) return false;
  const Shape& ys = m.shape(y);
  std::vector<int64_t> to_y;
  if (!degenerate_reshape_map(ys, m.shape(rs), to_y)) return false;
  const InstrId first_index = m.operand(i, 1);
  std::vector<InstrId> ops(static_cast<size_t>(ys.rank()) + 1, ir::kNoId);
  std::vector<int64_t> sizes(static_cast<size_t>(ys.rank()), 1);
  ops[0] = y;
  for (size_t d = 0; d < to_y.size(); ++d) {
    if (to_y[d] < 0) continue;
    ops[static_cast<size_t>(to_y[d]) + 1] = m.operand(i, d + 1);
    sizes[static_cast<size_t>(to_y[d])] = m.shape(i).dim(static_cast<int64_t>(d));
  }
  for (InstrId& op : ops)
    if (op == ir::kNoId) op = r.m.add_constant(r.comp, ir::Literal::scalar_int(type_of(m, first_index), 0));
  ir::Attributes a;
  a.dynamic_slice_sizes = sizes;
  const InstrId ds = r.make_shaped(Opcode::kDynamicSlice, Shape(type_of(m, y), sizes), ops, std::move(a));
  return r.replace(i, r.reshape(ds, m.shape(i).dims()));
}

// A rank-1 integer iota, or multiply(iota, broadcast(scalar constant)): the iota and the
// scalar factor (kNoId for none).
bool strided_iota(const ir::Module& m, InstrId x, InstrId& iota, InstrId& factor) {
  factor = ir::kNoId;
  if (m.opcode(x) == Opcode::kMultiply) {
    const InstrId b = m.operand(x, 1);
    if (!is_scalar_broadcast(m, b) || m.opcode(m.operand(b, 0)) != Opcode::kConstant) return false;
    factor = m.operand(b, 0);
    x = m.operand(x, 0);
  }
  iota = x;
  return m.opcode(x) == Opcode::kIota && m.shape(x).rank() == 1 && ir::is_integral(type_of(m, x));
}

// dynamic-slice(iota [* c], i) of one element -> reshape(convert(clamp(0, i, n-1)) [* c]):
// the element at the clamped start is the start itself.
bool dynamic_slice_of_iota(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0), index = m.operand(i, 1);
  InstrId iota, factor;
  if (m.shape(i).rank() != 1 || m.shape(i).dim(0) != 1 || !strided_iota(m, x, iota, factor)) return false;
  const ElementType it = type_of(m, index);
  if (!ir::is_integral(it)) return false;
  const int64_t n = m.shape(x).dim(0);
  const InstrId lo = r.m.add_constant(r.comp, ir::Literal::scalar_int(it, 0));
  const InstrId hi = r.m.add_constant(r.comp, ir::Literal::scalar_int(it, n - 1));
  const InstrId clamp_ops[] = {lo, index, hi};
  InstrId v = r.make(Opcode::kClamp, clamp_ops);
  const InstrId convert_ops[] = {v};
  v = r.make_shaped(Opcode::kConvert, Shape::scalar(type_of(m, x)), convert_ops);
  if (factor != ir::kNoId) v = r.binary(Opcode::kMultiply, v, factor);
  return r.replace(i, r.reshape(v, {1}));
}

// dynamic-update-slice(broadcast(scalar), u, constant starts) -> pad(u, scalar), each
// start clamped to [0, dim - update dim].
bool dynamic_update_slice_of_broadcast_to_pad(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId b = m.operand(i, 0), update = m.operand(i, 1);
  if (!is_scalar_broadcast(m, b) || !static_array(m.shape(update))) return false;
  ir::Attributes a;
  for (int64_t d = 0; d < m.shape(i).rank(); ++d) {
    const InstrId index = m.operand(i, static_cast<size_t>(d) + 2);
    if (m.opcode(index) != Opcode::kConstant || m.literal(index).elided() || m.literal(index).element_count() != 1)
      return false;
    const int64_t room = m.shape(i).dim(d) - m.shape(update).dim(d);
    const int64_t start = std::clamp<int64_t>(m.literal(index).get_int(0), 0, room);
    a.padding.push_back(ir::PadDim{start, room - start, 0});
  }
  const InstrId ops[] = {update, m.operand(b, 0)};
  return r.replace(i, r.make_shaped(Opcode::kPad, m.shape(i), ops, std::move(a)));
}

}  // namespace

bool simplify_dynamic_slice_indices(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0);
  if (m.opcode(x) == Opcode::kReshape && dynamic_slice_of_degenerate_reshape(r, i, x)) return true;
  if (dynamic_slice_of_iota(r, i)) return true;
  std::vector<InstrId> ops = zeroed_trivial_indices(r, i, 1, m.shape(x), m.shape(i));
  if (ops.empty()) return false;
  return r.replace(i, r.make_shaped(Opcode::kDynamicSlice, m.shape(i), ops, m.attrs(i)));
}

bool simplify_dynamic_update_slice_indices(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  if (dynamic_update_slice_of_broadcast_to_pad(r, i)) return true;
  std::vector<InstrId> ops = zeroed_trivial_indices(r, i, 2, m.shape(i), m.shape(m.operand(i, 1)));
  if (ops.empty()) return false;
  return r.replace(i, r.make_shaped(Opcode::kDynamicUpdateSlice, m.shape(i), ops, m.attrs(i)));
}

bool simplify_gather(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0);
  // Every index clamps to the one element there is.
  if (!static_array(m.shape(x)) || m.shape(x).element_count() != 1) return false;
  return r.replace(i, r.broadcast_scalar(r.reshape(x, {}), m.shape(i).dims()));
}

}  // namespace hlsgym::passes::algsimp
