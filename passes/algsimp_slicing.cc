// Slicing rules of the algebraic simplifier: slice of slice/pad/broadcast/concatenate/
// reverse, concatenate of one operand, of empty operands, of concatenates, of adjacent
// slices and of broadcast scalars (-> broadcast or pad), dynamic-slice with constant
// indices (clamped exactly as the interpreter clamps them), of full size, of a broadcast,
// transpose or whole iota dimension, and full-size dynamic-update-slice.
#include <algorithm>

#include "passes/algsimp_rules.h"

namespace hlsgym::passes::algsimp {
namespace {
using ir::SliceDim;

// The last index a slice dim reads (n = result size, n >= 1).
int64_t last_index(const SliceDim& s, int64_t n) { return s.start + (n - 1) * s.stride; }

// A slice dim reading n elements from `start` with `stride` (limit as tight as possible).
SliceDim slice_dim(int64_t start, int64_t stride, int64_t n) {
  return SliceDim{start, n == 0 ? start : start + (n - 1) * stride + 1, stride};
}

bool is_full_slice(const Shape& in, const Shape& out, const std::vector<SliceDim>& s) {
  if (in.dims() != out.dims()) return false;
  return std::all_of(s.begin(), s.end(), [](const SliceDim& d) { return d.start == 0; });
}

// slice(x) with the given dims, or x itself when the slice takes everything.
InstrId slice_of(Rewriter& r, InstrId x, std::vector<SliceDim> dims) {
  std::vector<int64_t> out;
  for (const SliceDim& d : dims) out.push_back(d.limit <= d.start ? 0 : (d.limit - d.start + d.stride - 1) / d.stride);
  if (out == r.m.shape(x).dims() && std::all_of(dims.begin(), dims.end(), [](const SliceDim& d) { return d.start == 0; }))
    return x;
  ir::Attributes a;
  a.slice = std::move(dims);
  const InstrId ops[] = {x};
  return r.make(Opcode::kSlice, ops, std::move(a));
}

bool slice_of_slice(Rewriter& r, InstrId i, InstrId x) {
  const ir::Module& m = r.m;
  const auto& outer = m.attrs(i).slice;
  const auto& inner = m.attrs(x).slice;
  std::vector<SliceDim> dims;
  for (size_t d = 0; d < outer.size(); ++d) {
    const int64_t n = m.shape(i).dim(static_cast<int64_t>(d));
    dims.push_back(slice_dim(inner[d].start + outer[d].start * inner[d].stride, inner[d].stride * outer[d].stride, n));
  }
  return r.replace(i, slice_of(r, m.operand(x, 0), std::move(dims)));
}

// slice(pad(y)) without interior padding: inside y's data -> slice(y); entirely inside
// the padding of some dim -> broadcast(padding value).
bool slice_of_pad(Rewriter& r, InstrId i, InstrId pad) {
  const ir::Module& m = r.m;
  const auto& s = m.attrs(i).slice;
  const auto& pads = m.attrs(pad).padding;
  const InstrId y = m.operand(pad, 0);
  bool inside = true, all_padding = false;
  std::vector<SliceDim> dims;
  for (size_t d = 0; d < s.size(); ++d) {
    // y's element k sits at lo + k*q of the padded array (q - 1 interior pads between).
    const int64_t q = pads[d].interior + 1;
    const int64_t n = m.shape(i).dim(static_cast<int64_t>(d));
    const int64_t lo = pads[d].low, size = m.shape(y).dim(static_cast<int64_t>(d));
    const int64_t first = s[d].start - lo, last = last_index(s[d], n) - lo;  // in padded y's indices
    const bool on_elements = first % q == 0 && (n == 1 || s[d].stride % q == 0);
    inside &= first >= 0 && last <= (size - 1) * q && on_elements;
    all_padding |= last < 0 || first > (size - 1) * q;
    if (inside) dims.push_back(slice_dim(first / q, n == 1 ? 1 : s[d].stride / q, n));
  }
  if (inside) return r.replace(i, slice_of(r, y, std::move(dims)));
  if (all_padding) return r.replace(i, r.broadcast_scalar(m.operand(pad, 1), m.shape(i).dims()));
  return false;
}

// slice(reshape(y)) that keeps a leading run of the reshape's dim 0 and all of the other
// dims is a prefix of y's elements in row-major order -> reshape(slice(y)) taking that
// prefix (XLA's TryToReorderSliceAndReshape).
bool slice_of_reshape(Rewriter& r, InstrId i, InstrId reshape) {
  const ir::Module& m = r.m;
  const auto& s = m.attrs(i).slice;
  const InstrId y = m.operand(reshape, 0);
  if (!static_array(m.shape(y)) || s.empty()) return false;
  for (size_t d = 0; d < s.size(); ++d)
    if (s[d].start != 0 || s[d].stride != 1 || (d > 0 && s[d].limit != m.shape(reshape).dim(static_cast<int64_t>(d))))
      return false;
  if (s[0].limit == m.shape(reshape).dim(0)) return false;  // a full slice is another rule's
  std::vector<int64_t> limits = m.shape(y).dims();
  int64_t elements = m.shape(i).element_count();
  for (size_t k = limits.size(); k-- > 0;) {
    if (elements >= limits[k]) {
      if (limits[k] == 0 || elements % limits[k] != 0) return false;
      elements /= limits[k];
    } else {
      limits[k] = elements;
      elements = 1;
    }
  }
  std::vector<SliceDim> dims;
  for (int64_t l : limits) dims.push_back({0, l, 1});
  return r.replace(i, r.reshape(slice_of(r, y, std::move(dims)), m.shape(i).dims()));
}

// slice(broadcast(y)) -> broadcast(slice(y)): only the dims y provides are sliced.
bool slice_of_broadcast(Rewriter& r, InstrId i, InstrId b) {
  const ir::Module& m = r.m;
  const auto& s = m.attrs(i).slice;
  const auto& map = m.attrs(b).dimensions;
  const InstrId y = m.operand(b, 0);
  std::vector<SliceDim> dims;
  bool full = true;
  for (size_t k = 0; k < map.size(); ++k) {
    const SliceDim& sd = s[static_cast<size_t>(map[k])];
    const int64_t n = m.shape(i).dim(map[k]);
    dims.push_back(slice_dim(sd.start, sd.stride, n));
    full &= sd.start == 0 && n == m.shape(y).dim(static_cast<int64_t>(k));
  }
  // A partial slice of y adds an instruction; worth it only if the broadcast then dies.
  if (!full && m.users(b).size() != 1) return false;
  return r.replace(i, r.broadcast(slice_of(r, y, std::move(dims)), m.shape(i).dims(), map));
}

// slice(concatenate(...)) reading from a run of its operands -> slice(concatenate of just
// those), when the concatenate dies with it.
bool slice_of_concatenate_operands(Rewriter& r, InstrId i, InstrId cat) {
  const ir::Module& m = r.m;
  if (m.users(cat).size() != 1) return false;
  const auto& s = m.attrs(i).slice;
  const int64_t cd = m.attrs(cat).dimensions.at(0);
  const SliceDim& sd = s[static_cast<size_t>(cd)];
  const int64_t first = sd.start, last = last_index(sd, m.shape(i).dim(cd));
  std::vector<InstrId> kept;
  int64_t offset = 0, kept_offset = -1;
  for (InstrId op : m.operands(cat)) {
    const int64_t size = m.shape(op).dim(cd);
    if (offset + size > first && offset <= last) {
      if (kept_offset < 0) kept_offset = offset;
      kept.push_back(op);
    }
    offset += size;
  }
  if (kept.size() == m.operands(cat).size() || kept.size() < 2) return false;
  ir::Attributes a;
  a.dimensions = {cd};
  const InstrId inner = r.make(Opcode::kConcatenate, kept, std::move(a));
  std::vector<SliceDim> dims = s;
  dims[static_cast<size_t>(cd)] = slice_dim(first - kept_offset, sd.stride, m.shape(i).dim(cd));
  return r.replace(i, slice_of(r, inner, std::move(dims)));
}

// slice(concatenate(...)) that reads from one operand only -> slice of that operand.
bool slice_of_concatenate(Rewriter& r, InstrId i, InstrId cat) {
  const ir::Module& m = r.m;
  const auto& s = m.attrs(i).slice;
  const int64_t cd = m.attrs(cat).dimensions.at(0);
  const int64_t n = m.shape(i).dim(cd);
  const int64_t first = s[static_cast<size_t>(cd)].start, last = last_index(s[static_cast<size_t>(cd)], n);
  int64_t offset = 0;
  for (InstrId op : m.operands(cat)) {
    const int64_t size = m.shape(op).dim(cd);
    if (first >= offset && last < offset + size) {
      std::vector<SliceDim> dims = s;
      dims[static_cast<size_t>(cd)] = slice_dim(first - offset, s[static_cast<size_t>(cd)].stride, n);
      return r.replace(i, slice_of(r, op, std::move(dims)));
    }
    offset += size;
  }
  return slice_of_concatenate_operands(r, i, cat);
}

// slice(reverse(y)) -> reverse(slice(y)), reading the mirrored range of each reversed dim.
bool slice_of_reverse(Rewriter& r, InstrId i, InstrId rev) {
  const ir::Module& m = r.m;
  if (m.users(rev).size() != 1) return false;
  const auto& s = m.attrs(i).slice;
  const auto& rdims = m.attrs(rev).dimensions;
  const InstrId y = m.operand(rev, 0);
  std::vector<SliceDim> dims;
  for (size_t d = 0; d < s.size(); ++d) {
    const int64_t n = m.shape(i).dim(static_cast<int64_t>(d));
    const bool reversed = std::find(rdims.begin(), rdims.end(), static_cast<int64_t>(d)) != rdims.end();
    const int64_t size = m.shape(y).dim(static_cast<int64_t>(d));
    const int64_t start = reversed ? size - 1 - last_index(s[d], n) : s[d].start;
    dims.push_back(slice_dim(start, s[d].stride, n));
  }
  const InstrId sliced = slice_of(r, y, std::move(dims));
  ir::Attributes a;
  a.dimensions = rdims;
  const InstrId ops[] = {sliced};
  return r.replace(i, r.make(Opcode::kReverse, ops, std::move(a)));
}

// Two slices of the same array that sit side by side along the concatenation dim.
bool adjacent_slices(const ir::Module& m, InstrId a, InstrId b, int64_t cd) {
  if (m.opcode(a) != Opcode::kSlice || m.opcode(b) != Opcode::kSlice) return false;
  if (m.operand(a, 0) != m.operand(b, 0)) return false;
  const auto& sa = m.attrs(a).slice;
  const auto& sb = m.attrs(b).slice;
  for (size_t d = 0; d < sa.size(); ++d) {
    if (static_cast<int64_t>(d) != cd) {
      if (!(sa[d] == sb[d])) return false;
      continue;
    }
    if (sa[d].stride != 1 || sb[d].stride != 1) return false;
    if (sa[d].start + m.shape(a).dim(cd) != sb[d].start) return false;
  }
  return true;
}

// Concatenates whose operands include broadcast scalars (XLA's HandleConcatenate), both
// exact data movement: every operand a broadcast of the same scalar -> one broadcast of
// it; two operands, one a broadcast scalar -> pad of the other with that scalar, which
// later rules (slice of pad, pad folding) see through more easily than a concatenate.
bool concatenate_of_scalar_broadcasts(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const auto ops = m.operands(i);
  const auto scalar_of = [&](InstrId op) {
    return is_scalar_broadcast(m, op) ? m.operand(op, 0) : ir::kNoId;
  };
  const InstrId first = scalar_of(ops[0]);
  if (first != ir::kNoId &&
      std::all_of(ops.begin(), ops.end(), [&](InstrId op) { return scalar_of(op) == first; }))
    return r.replace(i, r.broadcast_scalar(first, m.shape(i).dims()));
  if (ops.size() != 2 || !static_array(m.shape(i))) return false;
  const size_t cd = static_cast<size_t>(m.attrs(i).dimensions[0]);
  ir::Attributes a;
  a.padding.resize(static_cast<size_t>(m.shape(i).rank()));
  const bool low = scalar_of(ops[0]) != ir::kNoId;
  if (!low && scalar_of(ops[1]) == ir::kNoId) return false;
  const InstrId padded = low ? ops[1] : ops[0], scalar = scalar_of(low ? ops[0] : ops[1]);
  (low ? a.padding[cd].low : a.padding[cd].high) = m.shape(low ? ops[0] : ops[1]).dim(static_cast<int64_t>(cd));
  const InstrId pad_ops[] = {padded, scalar};
  return r.replace(i, r.make_shaped(Opcode::kPad, m.shape(i), pad_ops, std::move(a)));
}

// dynamic-slice(x, starts) with `sizes`, x's element type.
InstrId dynamic_slice_of(Rewriter& r, InstrId x, const std::vector<InstrId>& starts, std::vector<int64_t> sizes) {
  std::vector<InstrId> ops{x};
  ops.insert(ops.end(), starts.begin(), starts.end());
  ir::Attributes a;
  const Shape shape(type_of(r.m, x), sizes);
  a.dynamic_slice_sizes = std::move(sizes);
  return r.make_shaped(Opcode::kDynamicSlice, shape, ops, std::move(a));
}

// The rules below move a dynamic-slice under data movement, as XLA's HandleDynamicSlice
// does. Each dimension keeps its size and its operand's extent, so each start clamps
// to the same value: exact. Both add an instruction when the moved-through op stays
// alive for other users, so they apply when the dynamic-slice is its only user.

// dynamic-slice(broadcast(y), starts) -> broadcast(dynamic-slice(y, the starts of y's
// dimensions)); the other starts index copies of y and do not matter.
bool dynamic_slice_of_broadcast(Rewriter& r, InstrId i, InstrId b) {
  const ir::Module& m = r.m;
  const InstrId y = m.operand(b, 0);
  const auto& map = m.attrs(b).dimensions;
  std::vector<InstrId> starts;
  std::vector<int64_t> sizes;
  for (int64_t d : map) {
    starts.push_back(m.operand(i, static_cast<size_t>(d + 1)));
    sizes.push_back(m.shape(i).dim(d));
  }
  if (sizes == m.shape(y).dims()) return r.replace(i, r.broadcast(y, m.shape(i).dims(), map));
  if (m.users(b).size() != 1) return false;
  return r.replace(i, r.broadcast(dynamic_slice_of(r, y, starts, sizes), m.shape(i).dims(), map));
}

// dynamic-slice(transpose(y, perm), starts) -> transpose(dynamic-slice(y, starts
// permuted back), perm): output dimension d is y's dimension perm[d].
bool dynamic_slice_of_transpose(Rewriter& r, InstrId i, InstrId t) {
  const ir::Module& m = r.m;
  if (m.users(t).size() != 1) return false;
  const InstrId y = m.operand(t, 0);
  const auto& perm = m.attrs(t).dimensions;
  std::vector<InstrId> starts(perm.size());
  std::vector<int64_t> sizes(perm.size());
  for (size_t d = 0; d < perm.size(); ++d) {
    starts[static_cast<size_t>(perm[d])] = m.operand(i, d + 1);
    sizes[static_cast<size_t>(perm[d])] = m.shape(i).dim(static_cast<int64_t>(d));
  }
  const InstrId ops[] = {dynamic_slice_of(r, y, starts, sizes)};
  ir::Attributes a;
  a.dimensions = perm;
  return r.replace(i, r.make_shaped(Opcode::kTranspose, m.shape(i), ops, std::move(a)));
}

// dynamic-slice(iota) that keeps the whole iota dimension: its start clamps to 0 and the
// other starts pick equal rows, so it is an iota of the slice's shape.
bool dynamic_slice_of_whole_iota(Rewriter& r, InstrId i, InstrId iota) {
  const ir::Module& m = r.m;
  const int64_t d = m.attrs(iota).iota_dimension;
  if (m.shape(i).dim(d) != m.shape(iota).dim(d)) return false;
  ir::Attributes a;
  a.iota_dimension = d;
  return r.replace(i, r.make_shaped(Opcode::kIota, m.shape(i), {}, std::move(a)));
}

}  // namespace

bool simplify_slice(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0);
  if (is_full_slice(m.shape(x), m.shape(i), m.attrs(i).slice)) return r.replace(i, x);
  if (fold_scalar_broadcast_operand(r, i)) return true;
  if (m.shape(i).element_count() == 0) return false;
  switch (m.opcode(x)) {
    case Opcode::kSlice: return slice_of_slice(r, i, x);
    case Opcode::kPad: return slice_of_pad(r, i, x);
    case Opcode::kBroadcast: return slice_of_broadcast(r, i, x);
    case Opcode::kConcatenate: return slice_of_concatenate(r, i, x);
    case Opcode::kReverse: return slice_of_reverse(r, i, x);
    case Opcode::kReshape: return slice_of_reshape(r, i, x);
    default: return false;
  }
}

bool simplify_concatenate(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const auto ops = m.operands(i);
  if (ops.empty() || m.attrs(i).dimensions.size() != 1) return false;
  const int64_t cd = m.attrs(i).dimensions[0];
  if (ops.size() == 1) return same_shape(m, ops[0], i) && r.replace(i, ops[0]);
  // Drop empty operands, splice in concatenates along the same dim, merge adjacent slices.
  std::vector<InstrId> flat;
  bool changed = false;
  for (InstrId op : ops) {
    if (m.shape(op).dim(cd) == 0) { changed = true; continue; }
    if (m.opcode(op) == Opcode::kConcatenate && m.attrs(op).dimensions == m.attrs(i).dimensions) {
      for (InstrId inner : m.operands(op)) flat.push_back(inner);
      changed = true;
      continue;
    }
    flat.push_back(op);
  }
  if (flat.empty()) return r.replace(i, ops[0]);  // every operand is empty: the first is the result
  std::vector<std::pair<size_t, size_t>> runs;  // [first, last] of mergeable slice runs
  for (size_t k = 0; k < flat.size(); ++k) {
    if (!runs.empty() && runs.back().second + 1 == k && adjacent_slices(m, flat[k - 1], flat[k], cd))
      runs.back().second = k;
    else
      runs.push_back({k, k});
  }
  if (!changed && runs.size() == flat.size()) {
    // n copies of x, each 1 wide along the concatenation: broadcast x along it.
    if (m.shape(ops[0]).dim(cd) == 1 && std::all_of(ops.begin(), ops.end(), [&](InstrId op) { return op == ops[0]; })) {
      std::vector<int64_t> kept, map;
      for (int64_t d = 0; d < m.shape(i).rank(); ++d)
        if (d != cd) { kept.push_back(m.shape(i).dim(d)); map.push_back(d); }
      return r.replace(i, r.broadcast(r.reshape(ops[0], kept), m.shape(i).dims(), map));
    }
    return concatenate_of_scalar_broadcasts(r, i);
  }
  std::vector<InstrId> merged;
  for (auto [first, last] : runs) {
    if (first == last) { merged.push_back(flat[first]); continue; }
    std::vector<SliceDim> dims = m.attrs(flat[first]).slice;
    dims[static_cast<size_t>(cd)].limit = m.attrs(flat[last]).slice[static_cast<size_t>(cd)].limit;
    merged.push_back(slice_of(r, m.operand(flat[first], 0), std::move(dims)));
  }
  if (merged.size() == 1) return r.replace(i, merged[0]);
  ir::Attributes a;
  a.dimensions = {cd};
  return r.replace(i, r.make(Opcode::kConcatenate, merged, std::move(a)));
}

bool simplify_dynamic_slice(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0);
  // A full-size slice clamps every start index to 0.
  if (same_shape(m, x, i)) return r.replace(i, x);
  if (fold_scalar_broadcast_operand(r, i)) return true;
  const auto ops = m.operands(i);
  if (static_cast<int64_t>(ops.size()) != m.shape(x).rank() + 1 || !static_array(m.shape(x))) return false;
  if (m.opcode(x) == Opcode::kBroadcast && dynamic_slice_of_broadcast(r, i, x)) return true;
  if (m.opcode(x) == Opcode::kTranspose && dynamic_slice_of_transpose(r, i, x)) return true;
  if (m.opcode(x) == Opcode::kIota && dynamic_slice_of_whole_iota(r, i, x)) return true;
  std::vector<SliceDim> dims;
  for (int64_t d = 0; d < m.shape(x).rank(); ++d) {
    const InstrId index = ops[static_cast<size_t>(d + 1)];
    if (m.opcode(index) != Opcode::kConstant || m.literal(index).elided() ||
        m.literal(index).is_tuple() || m.literal(index).element_count() != 1)
      return simplify_dynamic_slice_indices(r, i);
    const int64_t size = m.shape(i).dim(d);
    const int64_t start = std::clamp<int64_t>(m.literal(index).get_int(0), 0, m.shape(x).dim(d) - size);
    dims.push_back(SliceDim{start, start + size, 1});
  }
  return r.replace(i, slice_of(r, x, std::move(dims)));
}

bool simplify_dynamic_update_slice(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const InstrId x = m.operand(i, 0), update = m.operand(i, 1);
  if (same_shape(m, update, i)) return r.replace(i, update);  // every start clamps to 0
  if (m.shape(update).element_count() == 0) return r.replace(i, x);
  return simplify_dynamic_update_slice_indices(r, i);
}

}  // namespace hlsgym::passes::algsimp
