// Data-movement rules of the algebraic simplifier: broadcast, reshape, copy/bitcast,
// transpose, reverse, pad and get-tuple-element. All of them only move elements, so
// they are exact for every element type.
#include <algorithm>
#include <numeric>

#include "ir/bitcast_layout.h"
#include "passes/algsimp_rules.h"

namespace hlsgym::passes::algsimp {
namespace {

bool is_identity_permutation(const std::vector<int64_t>& p) {
  for (size_t k = 0; k < p.size(); ++k)
    if (p[k] != static_cast<int64_t>(k)) return false;
  return true;
}

bool is_increasing(const std::vector<int64_t>& v) {
  for (size_t k = 1; k < v.size(); ++k)
    if (v[k - 1] >= v[k]) return false;
  return true;
}

InstrId transpose_of(Rewriter& r, InstrId x, std::vector<int64_t> perm) {
  if (is_identity_permutation(perm)) return x;
  ir::Attributes a;
  a.dimensions = std::move(perm);
  const InstrId ops[] = {x};
  return r.make(Opcode::kTranspose, ops, std::move(a));
}

// broadcast(x) that adds only size-1 dims is a reshape; one that only permutes dims is a
// transpose.
bool broadcast_as_reshape_or_transpose(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0);
  const Shape& out = m.shape(i);
  const auto& map = m.attrs(i).dimensions;
  if (m.shape(x).rank() == 0) return false;  // keep scalar broadcasts: rules look through them
  std::vector<bool> mapped(static_cast<size_t>(out.rank()), false);
  for (int64_t d : map) mapped[static_cast<size_t>(d)] = true;
  for (int64_t d = 0; d < out.rank(); ++d)
    if (!mapped[static_cast<size_t>(d)] && out.dim(d) != 1) return false;
  if (is_increasing(map)) return r.replace(i, r.reshape(x, out.dims()));
  if (static_cast<int64_t>(map.size()) != out.rank()) return false;
  std::vector<int64_t> perm(map.size());
  for (size_t k = 0; k < map.size(); ++k) perm[static_cast<size_t>(map[k])] = static_cast<int64_t>(k);
  return r.replace(i, transpose_of(r, x, std::move(perm)));
}

// broadcast(reshape(y)) where the reshape only inserts size-1 dims -> broadcast(y): y's
// dim k is the reshape's dim pos[k], which the broadcast sends to map[pos[k]].
bool broadcast_of_expanding_reshape(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId rs = m.operand(i, 0), y = m.operand(rs, 0);
  if (!static_array(m.shape(y))) return false;
  const auto& from = m.shape(y).dims();
  const auto& to = m.shape(rs).dims();
  std::vector<int64_t> composed;
  size_t j = 0;
  for (int64_t size : from) {
    while (j < to.size() && to[j] != size && to[j] == 1) ++j;
    if (j == to.size() || to[j] != size) return false;
    composed.push_back(m.attrs(i).dimensions[j++]);
  }
  for (; j < to.size(); ++j)
    if (to[j] != 1) return false;
  return r.replace(i, r.broadcast(y, m.shape(i).dims(), std::move(composed)));
}

// broadcast(x) where x has size-1 dims -> broadcast(reshape(x)) without them (XLA drops
// them so that later rules see the operand's real dims).
bool broadcast_of_degenerate_operand(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0);
  const auto& dims = m.shape(x).dims();
  std::vector<int64_t> kept_dims, kept_map;
  for (size_t k = 0; k < dims.size(); ++k)
    if (dims[k] != 1) {
      kept_dims.push_back(dims[k]);
      kept_map.push_back(m.attrs(i).dimensions[k]);
    }
  if (kept_dims.size() == dims.size()) return false;
  return r.replace(i, r.broadcast(r.reshape(x, std::move(kept_dims)), m.shape(i).dims(), std::move(kept_map)));
}

// reshape or transpose of an rng used once -> an rng of the result's shape: its elements
// are independent draws of one distribution, so their order does not matter.
bool rng_in_shape(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0);
  if (m.opcode(x) != Opcode::kRng || m.users(x).size() != 1) return false;
  const InstrId n = r.m.add_clone(r.comp, x, m.operands(x));
  r.m.mutable_payload(n).shape = m.shape(i);
  return r.replace(i, n);
}

// reshape(broadcast(y)) -> broadcast(y) when the reshape keeps every dim y fills whole
// (XLA's ReshapeLeavesDimensionsUnmodified): it only regroups the broadcast's new dims.
bool reshape_of_broadcast(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId b = m.operand(i, 0), y = m.operand(b, 0);
  if (!static_array(m.shape(y))) return false;
  std::vector<int64_t> map;
  for (int64_t d : m.attrs(b).dimensions) {
    auto to = unmodified_dim(m.shape(b).dims(), m.shape(i).dims(), d);
    if (!to) return false;
    map.push_back(*to);
  }
  return r.replace(i, r.broadcast(y, m.shape(i).dims(), std::move(map)));
}

InstrId iota_along(Rewriter& r, const Shape& shape, int64_t dim) {
  ir::Attributes a;
  a.iota_dimension = dim;
  return r.make_shaped(Opcode::kIota, shape, {}, std::move(a));
}

// The largest iota extent whose values a type holds exactly (every integer type wraps
// exactly as the original iota does).
int64_t exact_iota_extent(ElementType t) {
  switch (t) {
    case ElementType::kF16: return int64_t{1} << 11;
    case ElementType::kBF16: return int64_t{1} << 8;
    case ElementType::kF32: return int64_t{1} << 24;
    case ElementType::kF64: return int64_t{1} << 53;
    default: return ir::is_integral(t) ? INT64_MAX : 0;
  }
}

// reshape(iota) -> an iota where the iota dim stays whole; where the reshape splits it
// into the output dims [j0, j1) (and no other input dim joins them), its index in
// mixed radix: iota(j1-1) + iota(j1-2) * out[j1-1] + ... (XLA's HandleReshape).
bool reshape_of_iota(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0);
  const auto& in = m.shape(x).dims();
  const auto& out = m.shape(i).dims();
  const int64_t d = m.attrs(x).iota_dimension;
  if (d < 0 || d >= static_cast<int64_t>(in.size())) return false;
  if (auto same = unmodified_dim(in, out, d)) return r.replace(i, iota_along(r, m.shape(i), *same));
  if (in[static_cast<size_t>(d)] > exact_iota_extent(type_of(m, i))) return false;
  int64_t before = 1;
  for (int64_t k = 0; k < d; ++k) before *= in[static_cast<size_t>(k)];
  const int64_t through = before * in[static_cast<size_t>(d)];
  size_t j0 = out.size(), j1 = 0;  // j1 = 0: not found
  int64_t prefix = 1;
  for (size_t j = 0; j <= out.size(); ++j) {
    if (j0 == out.size() && j < out.size() && prefix == before && out[j] > 1) j0 = j;
    if (j0 < j && prefix == through) {
      j1 = j;
      break;
    }
    if (j < out.size()) prefix *= out[j];
  }
  if (j0 == out.size() || j1 <= j0 + 1) return false;  // not split (or not a group of its own)
  InstrId sum = ir::kNoId;
  int64_t multiplier = 1;
  for (size_t j = j1; j-- > j0;) {
    const InstrId part = iota_along(r, m.shape(i), static_cast<int64_t>(j));
    if (sum == ir::kNoId) {
      sum = part;
    } else {
      const InstrId scale = r.splat_int(type_of(m, i), multiplier, out);
      sum = r.binary(Opcode::kAdd, sum, r.binary(Opcode::kMultiply, part, scale));
    }
    multiplier *= out[j];
  }
  return r.replace(i, sum);
}

// reverse(reshape(y)) where the reshape only adds or drops size-1 dims ->
// reshape(reverse(y)) over y's matching dims (reversing a size-1 dim does nothing).
bool reverse_of_degenerate_reshape(Rewriter& r, InstrId i, InstrId rs) {
  const ir::Module& m = r.m;
  const InstrId y = m.operand(rs, 0);
  std::vector<int64_t> to_y, dims;
  if (m.users(rs).size() != 1 || !static_array(m.shape(y)) || !degenerate_reshape_map(m.shape(y), m.shape(rs), to_y))
    return false;
  for (int64_t d : m.attrs(i).dimensions)
    if (to_y[static_cast<size_t>(d)] >= 0) dims.push_back(to_y[static_cast<size_t>(d)]);
  std::sort(dims.begin(), dims.end());
  ir::Attributes a;
  a.dimensions = std::move(dims);
  const InstrId ops[] = {y};
  return r.replace(i, r.reshape(r.make(Opcode::kReverse, ops, std::move(a)), m.shape(i).dims()));
}

// reverse(op(x, broadcast scalar)) -> op(reverse(x), broadcast scalar) for a binary
// elementwise op used only here (either operand order).
bool reverse_of_binary_with_scalar(Rewriter& r, InstrId i, InstrId op) {
  const ir::Module& m = r.m;
  if (!ir::info(m.opcode(op)).elementwise || m.operands(op).size() != 2 || m.users(op).size() != 1) return false;
  const InstrId a = m.operand(op, 0), b = m.operand(op, 1);
  const bool scalar_b = is_scalar_broadcast(m, b), scalar_a = is_scalar_broadcast(m, a);
  if (scalar_a == scalar_b || !same_shape(m, a, b)) return false;
  const InstrId x = scalar_b ? a : b, s = scalar_b ? b : a;
  ir::Attributes attrs;
  attrs.dimensions = m.attrs(i).dimensions;
  const InstrId rev_ops[] = {x};
  const InstrId rev = r.make(Opcode::kReverse, rev_ops, std::move(attrs));
  const InstrId ops[] = {scalar_b ? rev : s, scalar_b ? s : rev};
  return r.replace(i, r.m.add_clone(r.comp, op, ops));
}

// pad(broadcast(y), v) -> broadcast(pad(broadcast(y) to the padded dims, y's dims and
// size-1 dims, v)): the padding of the dims the broadcast repeats over is left out.
bool pad_of_broadcast(Rewriter& r, InstrId i, InstrId b) {
  const ir::Module& m = r.m;
  if (m.users(b).size() != 1) return false;
  const auto& pads = m.attrs(i).padding;
  const auto& map = m.attrs(b).dimensions;
  const Shape& bs = m.shape(b);
  std::vector<int64_t> kept;  // dims of the broadcast kept below the pad
  for (int64_t d = 0; d < bs.rank(); ++d) {
    const bool mapped = std::find(map.begin(), map.end(), d) != map.end();
    if (mapped || bs.dim(d) == 1 || !(pads[static_cast<size_t>(d)] == ir::PadDim{})) kept.push_back(d);
  }
  if (kept.size() == static_cast<size_t>(bs.rank())) return false;
  std::vector<int64_t> inner_dims, inner_map, padded_dims;
  ir::Attributes pa;
  for (int64_t d : kept) {
    inner_dims.push_back(bs.dim(d));
    padded_dims.push_back(m.shape(i).dim(d));
    pa.padding.push_back(pads[static_cast<size_t>(d)]);
  }
  for (int64_t d : map) inner_map.push_back(std::find(kept.begin(), kept.end(), d) - kept.begin());
  const InstrId inner = r.broadcast(m.operand(b, 0), inner_dims, inner_map);
  const InstrId pad_ops[] = {inner, m.operand(i, 1)};
  const InstrId pad = r.make_shaped(Opcode::kPad, Shape(type_of(m, i), padded_dims), pad_ops, std::move(pa));
  return r.replace(i, r.broadcast(pad, m.shape(i).dims(), kept));
}

}  // namespace

bool fold_scalar_broadcast_operand(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0);
  if (m.opcode(x) != Opcode::kBroadcast) return false;
  const InstrId y = m.operand(x, 0);
  // A one-element operand (f32[1,1]) acts like a scalar; reshaping it to one adds an
  // instruction, so only when the broadcast then dies.
  if (m.shape(y).rank() != 0 && (m.shape(y).element_count() != 1 || m.users(x).size() != 1)) return false;
  return r.replace(i, r.broadcast_scalar(r.reshape(y, {}), m.shape(i).dims()));
}

bool simplify_broadcast(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0);
  const auto& map = m.attrs(i).dimensions;
  if (same_shape(m, x, i) && is_identity_permutation(map)) return r.replace(i, x);
  if (m.opcode(x) == Opcode::kBroadcast) {
    // broadcast(broadcast(y, inner), outer): y's dim k lands on outer[inner[k]].
    const auto& inner = m.attrs(x).dimensions;
    std::vector<int64_t> composed;
    for (int64_t d : inner) composed.push_back(map[static_cast<size_t>(d)]);
    return r.replace(i, r.broadcast(m.operand(x, 0), m.shape(i).dims(), std::move(composed)));
  }
  if (m.opcode(x) == Opcode::kIota) {  // broadcast(iota) is an iota along the mapped dim
    const int64_t d = m.attrs(x).iota_dimension;
    if (d < 0 || d >= static_cast<int64_t>(map.size())) return false;
    ir::Attributes a;
    a.iota_dimension = map[static_cast<size_t>(d)];
    return r.replace(i, r.make_shaped(Opcode::kIota, m.shape(i), {}, std::move(a)));
  }
  if (m.opcode(x) == Opcode::kReshape && broadcast_of_expanding_reshape(r, i)) return true;
  return broadcast_as_reshape_or_transpose(r, i) || broadcast_of_degenerate_operand(r, i);
}

bool simplify_reshape(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0);
  if (same_shape(m, x, i)) return r.replace(i, x);
  // An empty result is an empty constant, whatever computes its operand.
  if (m.shape(i).element_count() == 0 && m.opcode(x) != Opcode::kConstant)
    return r.replace(i, r.m.add_constant(r.comp, ir::Literal(m.shape(i))));
  if (rng_in_shape(r, i)) return true;
  if (m.opcode(x) == Opcode::kBroadcast && reshape_of_broadcast(r, i)) return true;
  if (m.opcode(x) == Opcode::kIota) return reshape_of_iota(r, i);
  if (m.opcode(x) == Opcode::kReshape && static_array(m.shape(m.operand(x, 0))))
    return r.replace(i, r.reshape(m.operand(x, 0), m.shape(i).dims()));
  return fold_scalar_broadcast_operand(r, i);
}

bool simplify_identity_copy(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0);
  // A bitcast between layouts that are not both row-major moves elements (ir/shape.h).
  auto keeps_values = [&](InstrId from) {
    return m.opcode(i) != Opcode::kBitcast || ir::bitcast_is_reshape(m.shape(from), m.shape(i));
  };
  // A copy that changes the layout feeds a bitcast the layout it reads its operand in.
  const auto layout_read_by_bitcast = [&] {
    if (m.opcode(i) != Opcode::kCopy || m.shape(x).layout() == m.shape(i).layout()) return false;
    for (InstrId u : m.users(i))
      if (m.opcode(u) == Opcode::kBitcast) return true;
    return false;
  };
  if (same_shape(m, x, i) && keeps_values(x) && !layout_read_by_bitcast()) return r.replace(i, x);
  // bitcast-convert(concatenate(bitcast-convert(y_k))) with every y_k of the result's
  // type: the bits pass through unchanged, so it is concatenate(y_k).
  if (m.opcode(i) == Opcode::kBitcastConvert && m.opcode(x) == Opcode::kConcatenate && m.users(x).size() == 1) {
    std::vector<InstrId> inner;
    for (InstrId op : m.operands(x)) {
      if (m.opcode(op) != Opcode::kBitcastConvert || type_of(m, m.operand(op, 0)) != type_of(m, i) ||
          m.shape(m.operand(op, 0)).dims() != m.shape(op).dims())
        return false;
      inner.push_back(m.operand(op, 0));
    }
    return r.replace(i, r.make_shaped(Opcode::kConcatenate, m.shape(i), inner, m.attrs(x)));
  }
  if (m.opcode(i) == Opcode::kBitcast && m.opcode(x) == Opcode::kBitcast) {
    const InstrId y = m.operand(x, 0);
    if (same_shape(m, y, i) && keeps_values(y)) return r.replace(i, y);
    const InstrId ops[] = {y};
    return r.replace(i, r.make_shaped(Opcode::kBitcast, m.shape(i), ops));
  }
  return false;
}

bool simplify_transpose(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0);
  const auto& perm = m.attrs(i).dimensions;
  if (is_identity_permutation(perm)) return r.replace(i, x);
  if (rng_in_shape(r, i)) return true;
  if (m.opcode(x) == Opcode::kTranspose) {
    // transpose(transpose(y, q), p) == transpose(y, q∘p): dim k reads y's dim q[p[k]].
    const auto& q = m.attrs(x).dimensions;
    std::vector<int64_t> composed;
    for (int64_t d : perm) composed.push_back(q[static_cast<size_t>(d)]);
    return r.replace(i, transpose_of(r, m.operand(x, 0), std::move(composed)));
  }
  // Only size-1 dims move: the non-trivial dims keep their order, so it is a reshape.
  std::vector<int64_t> moved;
  for (size_t k = 0; k < perm.size(); ++k)
    if (m.shape(i).dim(static_cast<int64_t>(k)) != 1) moved.push_back(perm[k]);
  if (is_increasing(moved)) return r.replace(i, r.reshape(x, m.shape(i).dims()));
  if (transpose_of_dot(r, i)) return true;
  if (transpose_depth_to_space(r, i)) return true;
  return fold_scalar_broadcast_operand(r, i);
}

bool simplify_reverse(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0);
  const auto& dims = m.attrs(i).dimensions;
  if (std::all_of(dims.begin(), dims.end(), [&](int64_t d) { return m.shape(i).dim(d) <= 1; }))
    return r.replace(i, x);
  if (m.opcode(x) == Opcode::kReverse) {
    // Reversing a dim twice cancels: what remains is the symmetric difference.
    std::vector<int64_t> a = dims, b = m.attrs(x).dimensions, rest;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(rest));
    const InstrId y = m.operand(x, 0);
    if (rest.empty()) return r.replace(i, y);
    ir::Attributes attrs;
    attrs.dimensions = std::move(rest);
    const InstrId ops[] = {y};
    return r.replace(i, r.make(Opcode::kReverse, ops, std::move(attrs)));
  }
  if (m.opcode(x) == Opcode::kReshape && reverse_of_degenerate_reshape(r, i, x)) return true;
  if (reverse_of_binary_with_scalar(r, i, x)) return true;
  return fold_scalar_broadcast_operand(r, i);
}

bool simplify_pad(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0), value = m.operand(i, 1);
  const auto& pads = m.attrs(i).padding;
  if (std::all_of(pads.begin(), pads.end(), [](const ir::PadDim& p) { return p == ir::PadDim{}; }) &&
      same_shape(m, x, i))
    return r.replace(i, x);
  // Padding an empty array gives only padding.
  if (m.shape(x).element_count() == 0 && m.shape(value).rank() == 0)
    return r.replace(i, r.broadcast_scalar(value, m.shape(i).dims()));
  // Interior padding of a dim of at most one element pads nothing.
  std::vector<ir::PadDim> fixed = pads;
  bool trivial_interior = false, negative = false;
  for (size_t d = 0; d < fixed.size(); ++d) {
    if (fixed[d].interior && m.shape(x).dim(static_cast<int64_t>(d)) <= 1) {
      fixed[d].interior = 0;
      trivial_interior = true;
    }
    negative |= fixed[d].low < 0 || fixed[d].high < 0;
  }
  const InstrId ops[] = {x, value};
  if (trivial_interior) {
    ir::Attributes a = m.attrs(i);
    a.padding = std::move(fixed);
    return r.replace(i, r.make_shaped(Opcode::kPad, m.shape(i), ops, std::move(a)));
  }
  if (!negative) {
    if (m.opcode(x) == Opcode::kBroadcast && m.shape(value).rank() == 0) return pad_of_broadcast(r, i, x);
    return false;
  }
  // Only negative (or no) edge padding: a slice.
  if (std::all_of(pads.begin(), pads.end(), [](const ir::PadDim& p) { return p.low <= 0 && p.high <= 0 && p.interior == 0; })) {
    ir::Attributes sa;
    for (size_t d = 0; d < pads.size(); ++d)
      sa.slice.push_back(ir::SliceDim{-pads[d].low, m.shape(x).dim(static_cast<int64_t>(d)) + pads[d].high, 1});
    const InstrId slice_ops[] = {x};
    return r.replace(i, r.make_shaped(Opcode::kSlice, m.shape(i), slice_ops, std::move(sa)));
  }
  // Negative edge padding removes elements: pad by the positive parts, then slice.
  std::vector<ir::SliceDim> cut;
  std::vector<int64_t> dims;
  for (size_t d = 0; d < fixed.size(); ++d) {
    const int64_t lo = fixed[d].low, hi = fixed[d].high;
    fixed[d].low = std::max<int64_t>(lo, 0);
    fixed[d].high = std::max<int64_t>(hi, 0);
    const int64_t full = m.shape(i).dim(static_cast<int64_t>(d)) - std::min<int64_t>(lo, 0) - std::min<int64_t>(hi, 0);
    dims.push_back(full);
    cut.push_back({-std::min<int64_t>(lo, 0), full + std::min<int64_t>(hi, 0), 1});
  }
  ir::Attributes a;
  a.padding = std::move(fixed);
  const InstrId padded = r.make_shaped(Opcode::kPad, Shape(type_of(m, i), std::move(dims)), ops, std::move(a));
  ir::Attributes sa;
  sa.slice = std::move(cut);
  const InstrId slice_ops[] = {padded};
  return r.replace(i, r.make_shaped(Opcode::kSlice, m.shape(i), slice_ops, std::move(sa)));
}

// iota of one element is 0; reshape(iota) is an iota where the reshape keeps the iota
// dimension whole.
bool simplify_iota(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  if (m.shape(i).element_count() != 1 || m.shape(i).rank() == 0) return false;
  return r.replace(i, r.splat_literal(ir::Literal(Shape::scalar(type_of(m, i))), m.shape(i).dims()));
}

std::optional<int64_t> unmodified_dim(const std::vector<int64_t>& from, const std::vector<int64_t>& to, int64_t d) {
  const int64_t size = from[static_cast<size_t>(d)];
  if (size <= 1) return std::nullopt;
  int64_t before = 1;
  for (int64_t k = 0; k < d; ++k) before *= from[static_cast<size_t>(k)];
  int64_t prefix = 1;
  for (size_t l = 0; l < to.size(); ++l) {
    if (prefix == before && to[l] == size) return static_cast<int64_t>(l);
    prefix *= to[l];
  }
  return std::nullopt;
}

bool simplify_get_tuple_element(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId t = m.operand(i, 0);
  if (m.opcode(t) != Opcode::kTuple) return false;
  const int64_t k = m.attrs(i).tuple_index;
  if (k < 0 || k >= static_cast<int64_t>(m.operands(t).size())) return false;
  const InstrId element = m.operand(t, static_cast<size_t>(k));
  if (!same_shape(m, element, i)) return false;
  // Folding would lose a sharding the get-tuple-element sets and its element lacks.
  const ir::OpaqueAttribute* sharding = m.attrs(i).find_opaque("sharding");
  const ir::OpaqueAttribute* element_sharding = m.attrs(element).find_opaque("sharding");
  if (sharding && (!element_sharding || !(*sharding == *element_sharding))) return false;
  return r.replace(i, element);
}

}  // namespace hlsgym::passes::algsimp
