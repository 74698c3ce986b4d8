// dynamic-slice, dynamic-update-slice (start indices clamped so the slice fits, as HLO
// defines), gather and scatter (general dimension numbers, batching dims included).
#include <algorithm>

#include "ir/evaluate_internal.h"

namespace hlsgym::ir::eval {
namespace {

// The start indices are one scalar operand per dimension, or (XLA's older form, still
// parsed) one rank-1 operand holding them all.
std::vector<int64_t> clamped_starts(const OpContext& c, size_t first_index_arg, const Shape& operand,
                                    std::span<const int64_t> sizes) {
  std::vector<int64_t> start(operand.rank());
  const bool one_vector = c.args.size() == first_index_arg + 1 && c.args[first_index_arg]->shape().rank() == 1;
  for (int64_t d = 0; d < operand.rank(); ++d) {
    const int64_t v = one_vector ? c.args[first_index_arg]->get_int(d) : c.args[first_index_arg + d]->get_int(0);
    start[d] = std::clamp<int64_t>(v, 0, operand.dim(d) - sizes[d]);
  }
  return start;
}

Literal dynamic_slice(const OpContext& c) {
  const Literal& in = *c.args[0];
  Literal out(c.shape());
  const auto start = clamped_starts(c, 1, in.shape(), c.shape().dims());
  const auto is = row_major_strides(in.shape().dims());
  for (int64_t k = 0; k < out.element_count(); ++k) {
    auto idx = unravel(k, c.shape().dims());
    for (size_t d = 0; d < idx.size(); ++d) idx[d] += start[d];
    copy_element(in, ravel(idx, is), out, k);
  }
  return out;
}

Literal dynamic_update_slice(const OpContext& c) {
  Literal out = *c.args[0];
  const Literal& upd = *c.args[1];
  const auto start = clamped_starts(c, 2, out.shape(), upd.shape().dims());
  const auto os = row_major_strides(out.shape().dims());
  for (int64_t k = 0; k < upd.element_count(); ++k) {
    auto idx = unravel(k, upd.shape().dims());
    for (size_t d = 0; d < idx.size(); ++d) idx[d] += start[d];
    copy_element(upd, k, out, ravel(idx, os));
  }
  return out;
}

// The start-index vector for one batch position of `indices` (index_vector_dim excluded).
std::vector<int64_t> index_vector(const Literal& indices, int64_t ivd, std::span<const int64_t> batch_pos,
                                  size_t count) {
  const Shape& s = indices.shape();
  const auto st = row_major_strides(s.dims());
  std::vector<int64_t> full(s.rank()), out(count);
  for (int64_t d = 0, q = 0; d < s.rank(); ++d)
    if (d != ivd) full[d] = batch_pos[q++];
  for (size_t k = 0; k < count; ++k) {
    if (ivd < s.rank()) full[ivd] = static_cast<int64_t>(k);
    out[k] = indices.get_int(ravel(full, st));
  }
  return out;
}

bool contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

Literal gather(const OpContext& c) {
  const Literal& operand = *c.args[0];
  const Literal& indices = *c.args[1];
  const GatherDims& g = *c.attrs().gather_dims;
  const Shape& os = c.shape();
  Literal out(os);
  const auto ost = row_major_strides(operand.shape().dims());
  const std::vector<int64_t> offset_operand_dims = g.offset_operand_dims(operand.shape().rank());
  const std::vector<int64_t> batch_out_dims = g.batch_output_dims(os.rank());
  const std::vector<int64_t> idx_batch_dims = g.index_batch_dims(indices.shape().rank());
  for (int64_t k = 0; k < out.element_count(); ++k) {
    auto oi = unravel(k, os.dims());
    std::vector<int64_t> bpos;
    for (int64_t d : batch_out_dims) bpos.push_back(oi[d]);
    auto sv = index_vector(indices, g.index_vector_dim, bpos, g.start_index_map.size());
    std::vector<int64_t> src(operand.shape().rank(), 0);
    for (size_t j = 0; j < g.start_index_map.size(); ++j) {
      const int64_t d = g.start_index_map[j];
      src[d] = std::clamp<int64_t>(sv[j], 0, operand.shape().dim(d) - g.slice_sizes[d]);
    }
    for (size_t j = 0; j < g.operand_batching_dims.size(); ++j) {
      auto it = std::find(idx_batch_dims.begin(), idx_batch_dims.end(), g.start_indices_batching_dims[j]);
      src[g.operand_batching_dims[j]] = bpos[static_cast<size_t>(it - idx_batch_dims.begin())];
    }
    for (size_t j = 0; j < g.offset_dims.size(); ++j) src[offset_operand_dims[j]] += oi[g.offset_dims[j]];
    copy_element(operand, ravel(src, ost), out, k);
  }
  return out;
}

Literal scatter(const OpContext& c) {
  const size_t n = (c.args.size() - 1) / 2;
  const Literal& indices = *c.args[n];
  const ScatterDims& s = *c.attrs().scatter_dims;
  std::vector<Literal> outs;
  for (size_t k = 0; k < n; ++k) outs.push_back(*c.args[k]);
  const Shape& opshape = outs[0].shape();
  const Shape& ushape = c.args[n + 1]->shape();
  const auto ost = row_major_strides(opshape.dims());
  std::vector<int64_t> window_operand_dims;
  for (int64_t d = 0; d < opshape.rank(); ++d)
    if (!contains(s.inserted_window_dims, d) && !contains(s.input_batching_dims, d)) window_operand_dims.push_back(d);
  std::vector<int64_t> scatter_upd_dims;
  for (int64_t d = 0; d < ushape.rank(); ++d)
    if (!contains(s.update_window_dims, d)) scatter_upd_dims.push_back(d);
  std::vector<int64_t> idx_batch_dims;
  for (int64_t d = 0; d < indices.shape().rank(); ++d)
    if (d != s.index_vector_dim) idx_batch_dims.push_back(d);
  const CompId fn = c.m.called(c.i)[0];
  const auto simple = n == 1 ? shortcut_combiner(c, fn) : std::nullopt;
  for (int64_t k = 0; k < ushape.element_count(); ++k) {
    auto ui = unravel(k, ushape.dims());
    std::vector<int64_t> bpos;
    for (int64_t d : scatter_upd_dims) bpos.push_back(ui[d]);
    auto sv = index_vector(indices, s.index_vector_dim, bpos, s.scatter_dims_to_operand_dims.size());
    std::vector<int64_t> dst(opshape.rank(), 0);
    for (size_t j = 0; j < sv.size(); ++j) dst[s.scatter_dims_to_operand_dims[j]] = sv[j];
    for (size_t j = 0; j < s.input_batching_dims.size(); ++j) {
      auto it = std::find(idx_batch_dims.begin(), idx_batch_dims.end(), s.scatter_indices_batching_dims[j]);
      dst[s.input_batching_dims[j]] = bpos[static_cast<size_t>(it - idx_batch_dims.begin())];
    }
    // The whole update window must fit; otherwise this update is skipped (as XLA does).
    bool fits = true;
    for (size_t j = 0; j < s.update_window_dims.size(); ++j) {
      const int64_t od = window_operand_dims[j];
      const int64_t extent = ushape.dim(s.update_window_dims[j]);
      if (dst[od] < 0 || dst[od] + extent > opshape.dim(od)) fits = false;
      dst[od] += ui[s.update_window_dims[j]];
    }
    for (int64_t d = 0; d < opshape.rank(); ++d) fits &= dst[d] >= 0 && dst[d] < opshape.dim(d);
    if (!fits) continue;
    const int64_t at = ravel(dst, ost);
    if (simple) {
      binary_element(*simple, outs[0], at, *c.args[n + 1], k, outs[0], at);
      continue;
    }
    std::vector<Literal> vals;
    for (size_t q = 0; q < n; ++q) vals.push_back(scalar_at(outs[q], at));
    for (size_t q = 0; q < n; ++q) vals.push_back(scalar_at(*c.args[n + 1 + q], k));
    std::vector<const Literal*> ptrs;
    for (auto& v : vals) ptrs.push_back(&v);
    Literal r = c.apply(fn, ptrs);
    if (n == 1) copy_element(r, 0, outs[0], at);
    else for (size_t q = 0; q < n; ++q) copy_element(r.tuple_elements()[q], 0, outs[q], at);
  }
  if (n == 1) return std::move(outs[0]);
  Literal t(c.shape());
  for (size_t q = 0; q < n; ++q) t.tuple_elements()[q] = std::move(outs[q]);
  return t;
}

}  // namespace

bool handles_indexing(Opcode op) {
  return op == Opcode::kDynamicSlice || op == Opcode::kDynamicUpdateSlice || op == Opcode::kGather ||
         op == Opcode::kScatter;
}

Literal eval_indexing(const OpContext& c) {
  switch (c.m.opcode(c.i)) {
    case Opcode::kDynamicSlice: return dynamic_slice(c);
    case Opcode::kDynamicUpdateSlice: return dynamic_update_slice(c);
    case Opcode::kGather: return gather(c);
    case Opcode::kScatter: return scatter(c);
    default: c.fail("not an indexing op");
  }
}

}  // namespace hlsgym::ir::eval
