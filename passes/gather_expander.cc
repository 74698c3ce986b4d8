// gather_expander (XLA GatherExpander in kEliminateSimpleGathers mode, as the CPU
// pipeline runs it): the gathers that need no loop.
//  - One index vector (every indices dimension but index_vector_dim has size 1): the
//    gather is a dynamic-slice of slice_sizes at that index (both clamp the start so the
//    slice fits), reshaped to the output (only size-1 dimensions are dropped or added).
//    XLA builds a trip-count-1 while loop that the while-loop simplifier later removes;
//    this emits the loop-free result directly.
//  - slice_sizes equal to the operand's dimensions: every index reads the whole operand,
//    so the gather is a broadcast of the operand with its collapsed dimensions removed.
// Gathers with several index vectors (kEliminateAllGathers) are left alone.
#include <algorithm>

#include "passes/expander_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

bool contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

bool distinct_in_range(const std::vector<int64_t>& v, int64_t n) {
  for (size_t k = 0; k < v.size(); ++k) {
    if (v[k] < 0 || v[k] >= n) return false;
    for (size_t j = 0; j < k; ++j)
      if (v[j] == v[k]) return false;
  }
  return true;
}

// Operand dimensions that appear in the output (offset dimensions), in order.
std::vector<int64_t> offset_operand_dims(const ir::GatherDims& g, int64_t rank) {
  std::vector<int64_t> out;
  for (int64_t d = 0; d < rank; ++d)
    if (!contains(g.collapsed_slice_dims, d) && !contains(g.operand_batching_dims, d)) out.push_back(d);
  return out;
}

// The gather's dimension numbers agree with its operand, indices and output shapes (the
// verifier cannot infer a gather's shape, so a malformed one must be left alone here).
bool well_formed(const ir::Module& m, InstrId i) {
  if (!m.attrs(i).gather_dims) return false;
  const ir::GatherDims& g = *m.attrs(i).gather_dims;
  const ir::Shape &o = m.shape(m.operand(i, 0)), &x = m.shape(m.operand(i, 1)), &s = m.shape(i);
  if (!o.is_array() || !x.is_array() || !s.is_array() || !o.is_static() || !x.is_static() || !s.is_static())
    return false;
  if (!ir::is_integral(x.element_type()) || s.element_type() != o.element_type()) return false;
  const int64_t r = o.rank(), ivd = g.index_vector_dim;
  if (ivd < 0 || ivd > x.rank() || static_cast<int64_t>(g.slice_sizes.size()) != r) return false;
  const int64_t k = ivd < x.rank() ? x.dim(ivd) : 1;
  if (static_cast<int64_t>(g.start_index_map.size()) != k || !distinct_in_range(g.start_index_map, r)) return false;
  if (!distinct_in_range(g.collapsed_slice_dims, r) || !distinct_in_range(g.operand_batching_dims, r)) return false;
  for (int64_t d = 0; d < r; ++d) {
    const bool dropped = contains(g.collapsed_slice_dims, d) || contains(g.operand_batching_dims, d);
    if (g.slice_sizes[d] < 0 || g.slice_sizes[d] > o.dim(d) || (dropped && g.slice_sizes[d] != 1)) return false;
    if (contains(g.collapsed_slice_dims, d) && contains(g.operand_batching_dims, d)) return false;
    if (contains(g.operand_batching_dims, d) && contains(g.start_index_map, d)) return false;
  }
  const auto offsets = offset_operand_dims(g, r);
  if (offsets.size() != g.offset_dims.size() || !std::is_sorted(g.offset_dims.begin(), g.offset_dims.end()) ||
      !distinct_in_range(g.offset_dims, s.rank()))
    return false;
  for (size_t j = 0; j < offsets.size(); ++j)
    if (s.dim(g.offset_dims[j]) != g.slice_sizes[offsets[j]]) return false;
  std::vector<int64_t> batch;  // output batch dims must repeat the indices' dims, in order
  for (int64_t d = 0; d < s.rank(); ++d)
    if (!contains(g.offset_dims, d)) batch.push_back(s.dim(d));
  std::vector<int64_t> index_batch;
  for (int64_t d = 0; d < x.rank(); ++d)
    if (d != ivd) index_batch.push_back(x.dim(d));
  return batch == index_batch && s.element_count() > 0;
}

int64_t trip_count(const ir::Module& m, InstrId i) {
  const ir::Shape& x = m.shape(m.operand(i, 1));
  int64_t n = 1;
  for (int64_t d = 0; d < x.rank(); ++d)
    if (d != m.attrs(i).gather_dims->index_vector_dim) n *= x.dim(d);
  return n;
}

bool reads_whole_operand(const ir::Module& m, InstrId i) {
  const ir::Shape& o = m.shape(m.operand(i, 0));
  return m.attrs(i).gather_dims->slice_sizes == o.dims() && o.element_count() > 0;
}

InstrId as_broadcast(ir::Module& m, InstrId i) {
  expand::Builder b(m, m.computation_of(i));
  const ir::GatherDims& g = *m.attrs(i).gather_dims;
  const InstrId operand = m.operand(i, 0);
  std::vector<int64_t> kept;
  for (int64_t d : offset_operand_dims(g, m.shape(operand).rank())) kept.push_back(m.shape(operand).dim(d));
  return b.broadcast(b.reshape(operand, kept), m.shape(i).dims(), g.offset_dims);
}

InstrId as_dynamic_slice(ir::Module& m, InstrId i) {
  expand::Builder b(m, m.computation_of(i));
  const ir::GatherDims& g = *m.attrs(i).gather_dims;
  const InstrId operand = m.operand(i, 0), indices = m.operand(i, 1);
  const ir::ElementType it = m.shape(indices).element_type();
  const int64_t k = static_cast<int64_t>(g.start_index_map.size());
  // The one index vector: a scalar when it has one element, else a rank-1 value.
  const InstrId vector = k == 0 ? ir::kNoId : b.reshape(indices, k == 1 ? std::vector<int64_t>{} : std::vector{k});
  InstrId zero = ir::kNoId;
  std::vector<InstrId> starts;
  for (int64_t d = 0; d < m.shape(operand).rank(); ++d) {
    auto at = std::find(g.start_index_map.begin(), g.start_index_map.end(), d);
    if (at != g.start_index_map.end()) {
      starts.push_back(k == 1 ? vector : b.element(vector, at - g.start_index_map.begin()));
    } else {
      if (zero == ir::kNoId) zero = b.scalar_int(it, 0);
      starts.push_back(zero);
    }
  }
  const InstrId slice = b.dynamic_slice(operand, starts, g.slice_sizes);
  return b.reshape(slice, m.shape(i).dims());
}

class GatherExpander final : public Pass {
 public:
  std::string_view name() const override { return "gather_expander"; }
  std::string_view description() const override {
    return "expands loop-free gathers (one index vector, or whole-operand slices) into dynamic-slice or broadcast";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kGather})) {
      if (!well_formed(m, i)) continue;
      if (reads_whole_operand(m, i)) {
        expand::replace_with(m, i, as_broadcast(m, i));
      } else if (trip_count(m, i) == 1) {
        expand::replace_with(m, i, as_dynamic_slice(m, i));
      } else {
        continue;
      }
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_gather_expander() { return std::make_unique<GatherExpander>(); }

}  // namespace hlsgym::passes
