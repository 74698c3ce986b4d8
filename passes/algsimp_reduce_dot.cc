// Reduction and contraction rules of the algebraic simplifier: reduce of an empty input,
// reduce that combines each element only with the init (over size-1 dims), reduce of a
// transpose, reshape or (integer) reduce folded into the reduce's dims, 1x1 reduce-window,
// dot of empty operands and integer dot without contracting dims (an outer product: one
// product per output, which the interpreter computes exactly like multiply). The ordering
// matters for float add/multiply reductions (the interpreter combines in row-major order
// of the reduced dims, as listed), so those rules keep the order of the combined elements.
#include <algorithm>
#include <cmath>

#include "passes/algsimp_rules.h"

namespace hlsgym::passes::algsimp {
namespace {

// True if init op x == x for every element x of `x` (the reducer's identity; for a
// float add, +0 is one only when x is never -0).
bool is_identity_init(const ir::Module& m, Opcode op, InstrId init, InstrId x) {
  const ElementType t = type_of(m, init);
  const bool ints = ir::is_integral(t) || t == ElementType::kPred;
  auto bits = uniform_bits(m, init);
  if (!bits) return false;
  switch (op) {
    case Opcode::kAdd: return adds_nothing(m, x, init);
    case Opcode::kOr: case Opcode::kXor: return ints && *bits == 0;
    case Opcode::kMultiply: return is_all_value(m, init, 1);
    case Opcode::kAnd: return ints && *bits == width_mask(t);
    case Opcode::kMaximum:
      if (ints) return ir::is_integral(t) && *bits == int_min_bits(t);
      return is_ieee_float(t) && is_all_value(m, init, -INFINITY);
    case Opcode::kMinimum:
      if (ints) return ir::is_integral(t) && *bits == int_max_bits(t);
      return is_ieee_float(t) && is_all_value(m, init, INFINITY);
    default: return false;
  }
}

// A reducer whose result does not depend on the order it combines elements in: integer
// ops. Float add and multiply round differently, and float max/min pick between -0 and
// +0 by position.
bool order_insensitive(std::optional<Opcode> op, ElementType t) {
  if (!op || !is_int_like(t)) return false;
  switch (*op) {
    case Opcode::kMaximum: case Opcode::kMinimum: case Opcode::kAdd: case Opcode::kMultiply:
    case Opcode::kAnd: case Opcode::kOr: case Opcode::kXor:
      return true;
    default: return false;
  }
}

// A copy of reduce `i` over `input` reducing `dims` (same init, reducer and metadata).
InstrId reduce_like(Rewriter& r, InstrId i, InstrId input, std::vector<int64_t> dims) {
  const InstrId ops[] = {input, r.m.operand(i, 1)};
  const InstrId n = r.m.add_clone(r.comp, i, ops);
  std::vector<int64_t> kept;
  const Shape& in = r.m.shape(input);
  for (int64_t d = 0; d < in.rank(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end()) kept.push_back(in.dim(d));
  ir::InstrPayload& p = r.m.mutable_payload(n);
  p.attrs.dimensions = std::move(dims);
  p.shape = Shape(type_of(r.m, i), std::move(kept));
  return n;
}

// reduce(transpose(y, p), D) -> reduce(y, p[D]) when the kept dims stay in order.
bool reduce_of_transpose(Rewriter& r, InstrId i, bool insensitive) {
  const ir::Module& m = r.m;
  const InstrId t = m.operand(i, 0);
  const auto& perm = m.attrs(t).dimensions;
  const auto& dims = m.attrs(i).dimensions;
  std::vector<int64_t> mapped, kept;
  for (int64_t d : dims) mapped.push_back(perm[static_cast<size_t>(d)]);
  for (int64_t d = 0; d < static_cast<int64_t>(perm.size()); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end()) kept.push_back(perm[static_cast<size_t>(d)]);
  if (!std::is_sorted(kept.begin(), kept.end())) return false;
  if (insensitive) std::sort(mapped.begin(), mapped.end());
  else if (!std::is_sorted(mapped.begin(), mapped.end()) || !std::is_sorted(dims.begin(), dims.end())) return false;
  return r.replace(i, reduce_like(r, i, m.operand(t, 0), std::move(mapped)));
}

// Groups of consecutive dims of x and y = reshape(x) with equal products; a size-1 dim
// on either side forms its own group.
struct DimGroup { int64_t x_begin, x_end, y_begin, y_end; };
std::optional<std::vector<DimGroup>> reshape_groups(const Shape& x, const Shape& y) {
  std::vector<DimGroup> groups;
  int64_t i = 0, j = 0;
  while (i < x.rank() || j < y.rank()) {
    if (i < x.rank() && x.dim(i) == 1) { groups.push_back({i, i + 1, j, j}); ++i; continue; }
    if (j < y.rank() && y.dim(j) == 1) { groups.push_back({i, i, j, j + 1}); ++j; continue; }
    if (i >= x.rank() || j >= y.rank()) return std::nullopt;
    DimGroup g{i, i + 1, j, j + 1};
    int64_t px = x.dim(i++), py = y.dim(j++);
    while (px != py) {
      if (px < py && i < x.rank()) px *= x.dim(i++);
      else if (py < px && j < y.rank()) py *= y.dim(j++);
      else return std::nullopt;
      if (px == 0 || py == 0) return std::nullopt;
    }
    g.x_end = i;
    g.y_end = j;
    groups.push_back(g);
  }
  return groups;
}

// reduce(reduce(y, D0), D1) -> reduce(y, D0 and D1 as y's dimensions) (XLA's
// TwoReducesToOne): when both use one order-insensitive integer reducer (so regrouping
// the elements is exact) and both inits are its identity (the inner one would otherwise
// be combined once per inner output). Only when the inner reduce dies with it.
bool reduce_of_reduce(Rewriter& r, InstrId i, bool insensitive) {
  const ir::Module& m = r.m;
  const InstrId inner = m.operand(i, 0);
  if (!insensitive || m.operands(inner).size() != 2 || m.called(inner).size() != 1 || m.users(inner).size() != 1)
    return false;
  const InstrId y = m.operand(inner, 0);
  const std::optional<Opcode> op = simple_reducer(m, m.called(i)[0]);
  if (!static_array(m.shape(y)) || simple_reducer(m, m.called(inner)[0]) != op ||
      !is_identity_init(m, *op, m.operand(i, 1), y) || !is_identity_init(m, *op, m.operand(inner, 1), y))
    return false;
  std::vector<int64_t> dims = m.attrs(inner).dimensions, kept;
  for (int64_t d = 0; d < m.shape(y).rank(); ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end()) kept.push_back(d);
  for (int64_t d : m.attrs(i).dimensions) dims.push_back(kept[static_cast<size_t>(d)]);
  std::sort(dims.begin(), dims.end());
  return r.replace(i, reduce_like(r, i, y, std::move(dims)));
}

// reduce(reshape(y), D) -> reshape(reduce(y, D')) when every group of dims the reshape
// merges or splits is either reduced whole or kept whole.
bool reduce_of_reshape(Rewriter& r, InstrId i, bool insensitive) {
  const ir::Module& m = r.m;
  const InstrId rs = m.operand(i, 0), y = m.operand(rs, 0);
  const auto& dims = m.attrs(i).dimensions;
  if (!static_array(m.shape(y)) || m.shape(y).element_count() == 0) return false;
  if (!insensitive && !std::is_sorted(dims.begin(), dims.end())) return false;
  auto groups = reshape_groups(m.shape(y), m.shape(rs));
  if (!groups) return false;
  auto reduced = [&](int64_t d) { return std::find(dims.begin(), dims.end(), d) != dims.end(); };
  std::vector<int64_t> new_dims;
  for (const DimGroup& g : *groups) {
    int64_t count = 0;
    for (int64_t d = g.y_begin; d < g.y_end; ++d) count += reduced(d);
    if (count != 0 && count != g.y_end - g.y_begin) return false;
    // A group with no dims of the reshape's side is size 1: reduce it away.
    if (count != 0 || g.y_begin == g.y_end)
      for (int64_t d = g.x_begin; d < g.x_end; ++d) new_dims.push_back(d);
  }
  const std::vector<int64_t>& out = m.shape(i).dims();
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < m.shape(y).rank(); ++d)
    if (std::find(new_dims.begin(), new_dims.end(), d) == new_dims.end()) kept.push_back(m.shape(y).dim(d));
  // The reshape moves after the reduce; if one is still needed, the old one must die.
  if (kept != out && m.users(rs).size() != 1) return false;
  return r.replace(i, r.reshape(reduce_like(r, i, y, std::move(new_dims)), out));
}

// The permutation that sorts operand dims by where `map` sends them.
std::vector<int64_t> sorting_permutation(const std::vector<int64_t>& map) {
  std::vector<int64_t> perm(map.size());
  for (size_t k = 0; k < perm.size(); ++k) perm[k] = static_cast<int64_t>(k);
  std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) { return map[a] < map[b]; });
  return perm;
}

// broadcast(x) into the dot's output dims, x's dim k landing on map[k] (transposing x
// first when map is not increasing, so the broadcast stays canonical).
InstrId place_operand(Rewriter& r, InstrId x, std::vector<int64_t> map, const std::vector<int64_t>& out) {
  if (!std::is_sorted(map.begin(), map.end())) {
    std::vector<int64_t> perm = sorting_permutation(map);
    ir::Attributes a;
    a.dimensions = perm;
    const InstrId ops[] = {x};
    x = r.make(Opcode::kTranspose, ops, std::move(a));
    std::sort(map.begin(), map.end());
  }
  return r.broadcast(x, out, std::move(map));
}

// Where each operand dim of a dot lands in the output: batch dims first, then the lhs
// free dims, then the rhs free dims.
std::vector<int64_t> dot_output_map(int64_t rank, const std::vector<int64_t>& batch, int64_t free_offset) {
  std::vector<int64_t> map(static_cast<size_t>(rank), -1);
  for (size_t q = 0; q < batch.size(); ++q) map[static_cast<size_t>(batch[q])] = static_cast<int64_t>(q);
  int64_t next = free_offset;
  for (auto& v : map)
    if (v < 0) v = next++;
  return map;
}

}  // namespace

bool simplify_reduce(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  if (m.operands(i).size() != 2 || m.called(i).size() != 1) return false;
  const InstrId x = m.operand(i, 0), init = m.operand(i, 1);
  if (!static_array(m.shape(x)) || m.shape(init).rank() != 0) return false;
  const auto& out = m.shape(i).dims();
  if (m.shape(x).element_count() == 0) return r.replace(i, r.broadcast_scalar(init, out));
  const std::optional<Opcode> op = simple_reducer(m, m.called(i)[0]);
  if (m.shape(x).element_count() == m.shape(i).element_count()) {
    // Each output combines one element with the init: x itself when init is neutral.
    if (op && is_identity_init(m, *op, init, x)) return r.replace(i, r.reshape(x, out));
    return false;
  }
  const bool insensitive = order_insensitive(op, type_of(m, i));
  if (m.opcode(x) == Opcode::kTranspose) return reduce_of_transpose(r, i, insensitive);
  if (m.opcode(x) == Opcode::kReshape) return reduce_of_reshape(r, i, insensitive);
  if (m.opcode(x) == Opcode::kReduce) return reduce_of_reduce(r, i, insensitive);
  return false;
}

namespace {
// A reduce-window of an empty input with a non-empty output: every window lies in the
// padding, so each output is its init -> broadcast(init) (a tuple of them when variadic).
bool empty_reduce_window(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const auto ops = m.operands(i);
  const size_t n = ops.size() / 2;
  if (n == 0 || ops.size() != 2 * n || m.shape(ops[0]).element_count() != 0) return false;
  std::vector<InstrId> parts;
  for (size_t k = 0; k < n; ++k) {
    const Shape& out = n == 1 ? m.shape(i) : m.shape(i).tuple_element(static_cast<int64_t>(k));
    if (!static_array(out) || out.element_count() == 0 || m.shape(ops[n + k]).rank() != 0) return false;
    parts.push_back(r.broadcast_scalar(ops[n + k], out.dims()));
  }
  if (n == 1) return r.replace(i, parts[0]);
  return r.replace(i, r.make_shaped(Opcode::kTuple, m.shape(i), parts));
}

// XLA's "effective reduce": no stride, dilation or padding, and every window dim either
// 1 or the whole input dim -> reshape(reduce(x, init) over the whole dims). The
// interpreter visits a window's taps in row-major order, as reduce visits the reduced
// dims, so float sums keep their order.
bool reduce_window_as_reduce(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0);
  const ir::Window& w = *m.attrs(i).window;
  std::vector<int64_t> dims, kept;
  for (size_t k = 0; k < w.size(); ++k) {
    const ir::WindowDim& d = w[k];
    if (d.stride != 1 || d.pad_low || d.pad_high || d.base_dilation != 1 || d.window_dilation != 1 || d.reversal)
      return false;
    if (d.size == 1) {
      kept.push_back(m.shape(x).dim(static_cast<int64_t>(k)));
      continue;
    }
    if (m.shape(i).dim(static_cast<int64_t>(k)) != 1) return false;
    dims.push_back(static_cast<int64_t>(k));
  }
  if (dims.empty()) return false;
  ir::Attributes a;
  a.dimensions = std::move(dims);
  const InstrId ops[] = {x, m.operand(i, 1)};
  const InstrId reduce = r.make_shaped(Opcode::kReduce, Shape(type_of(m, i), std::move(kept)), ops, std::move(a));
  r.m.mutable_payload(reduce).called = m.called(i);
  return r.replace(i, r.reshape(reduce, m.shape(i).dims()));
}
}  // namespace

bool simplify_reduce_window(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  if (!m.attrs(i).window || m.called(i).size() != 1) return false;
  if (empty_reduce_window(r, i)) return true;
  if (m.operands(i).size() != 2) return false;
  const InstrId x = m.operand(i, 0), init = m.operand(i, 1);
  if (m.shape(init).rank() != 0 || !static_array(m.shape(x))) return false;
  const std::optional<Opcode> op = simple_reducer(m, m.called(i)[0]);
  if (!op) return reduce_window_as_reduce(r, i);
  // A 1x1 window with stride 1 and no dilation: each output is init op x (the accumulator
  // starts at init and sees one element), the padding around it holds init.
  std::vector<ir::PadDim> padding;
  bool padded = false;
  for (const ir::WindowDim& w : *m.attrs(i).window) {
    ir::WindowDim core = w;
    core.pad_low = core.pad_high = 0;
    if (!(core == ir::WindowDim{}) || w.pad_low < 0 || w.pad_high < 0) return reduce_window_as_reduce(r, i);
    padding.push_back({w.pad_low, w.pad_high, 0});
    padded |= w.pad_low || w.pad_high;
  }
  // The init is dropped where it is the reducer's identity, except a float max/min's
  // -inf/+inf: XLA keeps max(x, -inf) under the CPU pipeline's minmax_propagate_nan=false
  // (algsimp_logic.cc), so the default order ends where XLA's does.
  const bool float_min_max = (*op == Opcode::kMaximum || *op == Opcode::kMinimum) && ir::is_floating(type_of(m, x));
  const InstrId inner = !float_min_max && is_identity_init(m, *op, init, x)
                            ? x
                            : r.binary(*op, r.broadcast_scalar(init, m.shape(x).dims()), x);
  if (!padded) return r.replace(i, inner);
  ir::Attributes a;
  a.padding = std::move(padding);
  const InstrId ops[] = {inner, init};
  return r.replace(i, r.make_shaped(Opcode::kPad, m.shape(i), ops, std::move(a)));
}

// A convolution with an empty operand and a non-empty output sums nothing: zeros.
bool simplify_convolution(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  if (m.operands(i).size() != 2) return false;
  const ElementType t = type_of(m, i);
  if (!is_int_like(t) && !is_ieee_float(t)) return false;
  if (m.shape(i).element_count() == 0) return false;
  if (m.shape(m.operand(i, 0)).element_count() != 0 && m.shape(m.operand(i, 1)).element_count() != 0) return false;
  return r.replace(i, r.splat_literal(ir::Literal(Shape::scalar(t)), m.shape(i).dims()));
}

bool simplify_dot(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  if (m.operands(i).size() != 2) return false;
  const ir::DotDims d = m.attrs(i).dot_dims.value_or(ir::DotDims{});  // none written: none
  const InstrId a = m.operand(i, 0), b = m.operand(i, 1);
  const ElementType t = type_of(m, i);
  const auto& out = m.shape(i).dims();
  if (!static_array(m.shape(a)) || !static_array(m.shape(b))) return false;
  if (!is_int_like(t) && !is_ieee_float(t)) return false;
  if (dot_of_transposes(r, i)) return true;
  if (m.shape(a).element_count() == 0 || m.shape(b).element_count() == 0) {
    if (m.shape(i).element_count() == 0) return false;
    return r.replace(i, r.splat_literal(ir::Literal(Shape::scalar(t)), out));  // an empty sum
  }
  // One product per output element: for integers the interpreter's 64-bit wrapping
  // product truncates exactly like multiply. Floats are left alone: the dot adds the
  // product to +0.0, so an exact -0 product (0 times a negative) becomes +0 where
  // multiply keeps -0 (the rounding itself would agree: one product rounded once).
  if (!d.lhs_contracting.empty() || !d.rhs_contracting.empty()) return false;
  if (!is_int_like(t) || type_of(m, a) != t || type_of(m, b) != t) return false;
  const int64_t nb = static_cast<int64_t>(d.lhs_batch.size());
  const int64_t lhs_free = m.shape(a).rank() - nb;
  const InstrId lhs = place_operand(r, a, dot_output_map(m.shape(a).rank(), d.lhs_batch, nb), out);
  const InstrId rhs = place_operand(r, b, dot_output_map(m.shape(b).rank(), d.rhs_batch, nb + lhs_free), out);
  return r.replace(i, r.binary(Opcode::kMultiply, lhs, rhs));
}

// A rank-1 constant {0, s, 2s, ...} is iota * s (XLA's HandleConstant): for any real
// type with s = 1 (a plain iota), for integers with any s != 0 (compared bit for bit, so
// the products wrap as the type does).
bool constant_to_iota(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const ir::Literal& l = m.literal(i);
  const ElementType t = type_of(m, i);
  if (m.shape(i).rank() != 1 || ir::is_complex(t) || t == ElementType::kPred || l.element_count() < 2) return false;
  uint64_t stride = 1;
  if (ir::is_integral(t)) {
    const uint64_t mask = width_mask(t);
    stride = l.get_bits(1) & mask;
    if ((l.get_bits(0) & mask) != 0 || stride == 0) return false;
    for (int64_t k = 2; k < l.element_count(); ++k)
      if ((l.get_bits(k) & mask) != ((static_cast<uint64_t>(k) * stride) & mask)) return false;
  } else {
    for (int64_t k = 0; k < l.element_count(); ++k)
      if (l.get_double(k) != static_cast<double>(k)) return false;
  }
  ir::Attributes a;
  a.iota_dimension = 0;
  const InstrId iota = r.make_shaped(Opcode::kIota, m.shape(i), {}, std::move(a));
  if (stride == 1) return r.replace(i, iota);
  ir::Literal factor(Shape::scalar(t));
  factor.set_bits(0, stride);
  return r.replace(i, r.binary(Opcode::kMultiply, iota, r.splat_literal(std::move(factor), m.shape(i).dims())));
}

bool simplify_constant(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const ir::Literal& l = m.literal(i);
  if (l.is_tuple() || l.elided() || l.element_count() <= 1) return false;
  if (!uniform_bits(m, i)) return constant_to_iota(r, i);
  ir::Literal scalar(Shape::scalar(l.shape().element_type()));
  scalar.set_bits(0, l.get_bits(0));
  return r.replace(i, r.splat_literal(std::move(scalar), m.shape(i).dims()));
}

bool sink_elementwise_through_broadcasts(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const Opcode op = m.opcode(i);
  if (!ir::info(op).elementwise || op == Opcode::kStochasticConvert) return false;
  const auto ops = m.operands(i);
  if (ops.empty()) return false;
  InstrId main = ir::kNoId;  // a broadcast of a non-scalar: all such must agree
  for (InstrId o : ops) {
    if (m.opcode(o) != Opcode::kBroadcast) return false;
    if (is_scalar_broadcast(m, o)) continue;
    if (m.users(o).size() != 1) return false;  // else the broadcast stays and we add ops
    if (!static_array(m.shape(m.operand(o, 0)))) return false;
    if (main == ir::kNoId) { main = o; continue; }
    if (m.attrs(o).dimensions != m.attrs(main).dimensions ||
        m.shape(m.operand(o, 0)).dims() != m.shape(m.operand(main, 0)).dims())
      return false;
  }
  const std::vector<int64_t> inner_dims = main == ir::kNoId ? std::vector<int64_t>{} : m.shape(m.operand(main, 0)).dims();
  const std::vector<int64_t> map = main == ir::kNoId ? std::vector<int64_t>{} : m.attrs(main).dimensions;
  if (inner_dims == m.shape(i).dims()) return false;  // nothing to gain
  std::vector<InstrId> inner_ops;
  for (InstrId o : ops)
    inner_ops.push_back(is_scalar_broadcast(r.m, o) ? r.broadcast_scalar(r.m.operand(o, 0), inner_dims) : r.m.operand(o, 0));
  const InstrId inner = r.m.add_clone(r.comp, i, inner_ops);
  r.m.mutable_payload(inner).shape = Shape(type_of(r.m, i), inner_dims);
  return r.replace(i, r.broadcast(inner, m.shape(i).dims(), map));
}

}  // namespace hlsgym::passes::algsimp
