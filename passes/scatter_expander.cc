// scatter_expander (XLA ScatterExpander, kEliminateAllScatters as the CPU pipeline runs
// it): scatter -> a counted while loop over the index vectors. Before the loop the indices
// become [N, K] (index vector last) and the updates [N, window...] (scatter dimensions
// first); iteration i reads index vector i, dynamic-slices the operand window there,
// combines it with update window i, and writes it back with dynamic-update-slice. An
// index whose window does not fit (start < 0 or start > dim - window) leaves the operand
// unchanged, exactly as the interpreter skips such updates: the select keeps the window
// that the (clamped) dynamic-slice read, and the (equally clamped) update writes it back.
//
// The interpreter applies updates in row-major order of the update tensor; the loop
// applies them index vector by index vector. Two updates can reach the same operand
// element in a different order only if a window dimension of size > 1 comes before a
// scatter dimension in the updates; such scatters are expanded only when the combiner is
// an integer add/multiply/and/or/xor/min/max (whose result does not depend on the order).
// Scatters with several operands or batching dimensions are left alone, and so are
// scatters inside fusion bodies (a loop does not belong there).
#include <algorithm>
#include <numeric>

#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/scatter_expander_util.h"

namespace hlsgym::passes {
namespace {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;
using scatter_detail::Combiner;
using scatter_detail::ScatterInfo;

// The canonical [N, K] indices, in s32 or s64.
InstrId canonical_indices(expand::Builder& b, const ScatterInfo& s) {
  ir::Module& m = b.module();
  const int64_t ivd = s.dims->index_vector_dim, rank = m.shape(s.indices).rank();
  InstrId x = s.indices;
  if (ivd < rank) {
    std::vector<int64_t> perm = expand::all_dims_except(rank, ivd);
    perm.push_back(ivd);
    x = b.transpose(x, perm);
  }
  x = b.reshape(x, {s.trip_count, s.vector_size});
  return b.convert(x, s.index_type);
}

// The canonical [N, window...] updates.
InstrId canonical_updates(expand::Builder& b, const ScatterInfo& s) {
  std::vector<int64_t> perm = s.scatter_update_dims;
  perm.insert(perm.end(), s.dims->update_window_dims.begin(), s.dims->update_window_dims.end());
  const InstrId u = b.transpose(s.updates, perm);
  std::vector<int64_t> dims{s.trip_count};
  for (int64_t d : s.dims->update_window_dims) dims.push_back(b.module().shape(s.updates).dim(d));
  return b.reshape(u, dims);
}

// The operand-space start of iteration `i`'s window: index vector components at the
// scattered dimensions, zero elsewhere.
std::vector<InstrId> window_start(expand::Builder& b, const ScatterInfo& s, InstrId indices, InstrId i,
                                  InstrId counter_zero) {
  InstrId row = ir::kNoId, zero = ir::kNoId;
  if (s.vector_size > 0) {
    const InstrId starts_of_row[] = {i, counter_zero};
    row = b.dynamic_slice(indices, starts_of_row, {1, s.vector_size});
    row = b.reshape(row, s.vector_size == 1 ? std::vector<int64_t>{} : std::vector<int64_t>{s.vector_size});
  }
  std::vector<InstrId> starts;
  const auto& map = s.dims->scatter_dims_to_operand_dims;
  for (int64_t d = 0; d < static_cast<int64_t>(s.window.size()); ++d) {
    auto at = std::find(map.begin(), map.end(), d);
    if (at != map.end()) {
      starts.push_back(s.vector_size == 1 ? row : b.element(row, at - map.begin()));
      continue;
    }
    if (zero == ir::kNoId) zero = b.scalar_int(s.index_type, 0);
    starts.push_back(zero);
  }
  return starts;
}

// pred[] that is true when every scattered start lies in [0, dim - window].
InstrId window_fits(expand::Builder& b, const ScatterInfo& s, const std::vector<InstrId>& starts) {
  const ir::Shape& o = b.module().shape(s.operand);
  InstrId fits = ir::kNoId;
  for (int64_t d : s.dims->scatter_dims_to_operand_dims) {
    const InstrId lo = b.compare(starts[d], b.scalar_int(s.index_type, 0), ir::ComparisonDirection::kGe);
    const InstrId hi = b.compare(starts[d], b.scalar_int(s.index_type, o.dim(d) - s.window[d]),
                                 ir::ComparisonDirection::kLe);
    const InstrId both = b.binary(Opcode::kAnd, lo, hi);
    fits = fits == ir::kNoId ? both : b.binary(Opcode::kAnd, fits, both);
  }
  return fits;
}

InstrId combine(expand::Builder& b, const ScatterInfo& s, InstrId current, InstrId update) {
  switch (s.combiner.kind) {
    case Combiner::kKeep: return current;
    case Combiner::kAssign: return update;
    case Combiner::kBinary:
      return s.combiner.swapped ? b.binary(s.combiner.op, update, current) : b.binary(s.combiner.op, current, update);
    default: {
      ir::Attributes at;
      at.dimensions.resize(s.window.size());
      std::iota(at.dimensions.begin(), at.dimensions.end(), 0);
      const InstrId ops[] = {current, update};
      return b.op(Opcode::kMap, ops, std::move(at), {&s.combiner.computation, 1});
    }
  }
}

// The loop body: state (i, operand, indices, updates) -> (i + 1, updated operand, ...).
ir::CompId loop_body(ir::Module& m, const ScatterInfo& s, const ir::Shape& state) {
  const ir::CompId c = m.add_computation(m.unique_name("scatter_body"));
  expand::Builder b(m, c);
  const InstrId p = m.add_parameter(c, 0, state, m.unique_name("loop_state"));
  const InstrId i = b.get_tuple_element(p, 0), operand = b.get_tuple_element(p, 1);
  const InstrId indices = b.get_tuple_element(p, 2), updates = b.get_tuple_element(p, 3);
  const InstrId counter_zero = b.scalar_int(s.counter_type, 0);
  const std::vector<InstrId> starts = window_start(b, s, indices, i, counter_zero);
  std::vector<InstrId> update_starts{i};
  std::vector<int64_t> update_sizes{1};
  for (size_t k = 1; k < m.shape(updates).dims().size(); ++k) {
    update_starts.push_back(counter_zero);
    update_sizes.push_back(m.shape(updates).dim(static_cast<int64_t>(k)));
  }
  const InstrId update = b.reshape(b.dynamic_slice(updates, update_starts, update_sizes), s.window);
  const InstrId current = b.dynamic_slice(operand, starts, s.window);
  InstrId next = combine(b, s, current, update);
  if (!s.dims->scatter_dims_to_operand_dims.empty()) {
    const InstrId fits = window_fits(b, s, starts);
    next = b.select(s.window.empty() ? fits : b.broadcast(fits, s.window, {}), next, current);
  }
  const InstrId written = b.dynamic_update_slice(operand, next, starts);
  const InstrId step = b.binary(Opcode::kAdd, i, b.scalar_int(s.counter_type, 1));
  const InstrId parts[] = {step, written, indices, updates};
  m.set_root(c, b.tuple(parts));
  return c;
}

ir::CompId loop_condition(ir::Module& m, const ScatterInfo& s, const ir::Shape& state) {
  const ir::CompId c = m.add_computation(m.unique_name("scatter_condition"));
  expand::Builder b(m, c);
  const InstrId p = m.add_parameter(c, 0, state, m.unique_name("loop_state"));
  const InstrId i = b.get_tuple_element(p, 0);
  m.set_root(c, b.compare(i, b.scalar_int(s.counter_type, s.trip_count), ir::ComparisonDirection::kLt));
  return c;
}

InstrId expand_scatter(ir::Module& m, const ScatterInfo& s) {
  expand::Builder b(m, m.computation_of(s.scatter));
  const InstrId parts[] = {b.scalar_int(s.counter_type, 0), s.operand, canonical_indices(b, s),
                           canonical_updates(b, s)};
  const InstrId init = b.tuple(parts);
  const ir::Shape state = m.shape(init);
  const ir::CompId called[] = {loop_condition(m, s, state), loop_body(m, s, state)};
  const InstrId loop = b.op(Opcode::kWhile, {&init, 1}, {}, called);
  return b.get_tuple_element(loop, 1);
}

class ScatterExpander final : public Pass {
 public:
  std::string_view name() const override { return "scatter_expander"; }
  std::string_view description() const override {
    return "expands scatter into a while loop of dynamic-slice, combine and dynamic-update-slice";
  }
  bool run(ir::Module& m) override {
    const std::vector<InstrId> found = expand::find_all(m, {Opcode::kScatter});
    if (found.empty()) return false;
    const std::vector<bool> in_fusion = expand::fusion_bodies(m);
    bool changed = false;
    for (InstrId i : found) {
      if (in_fusion[m.computation_of(i)]) continue;
      const auto info = scatter_detail::analyze(m, i);
      if (!info) continue;
      expand::replace_with(m, i, info->trip_count == 0 ? info->operand : expand_scatter(m, *info));
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_scatter_expander() { return std::make_unique<ScatterExpander>(); }

}  // namespace hlsgym::passes
