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
// A scatter of several operands (a tuple result) carries every operand and update through
// the loop and writes each operand's window with its own output of the combiner; an output
// that is not a simple form maps, as XLA's CallAndGetOutput does, a copy of the combiner
// that calls it and keeps output k. Scatters with batching dimensions are left alone, and
// so are scatters inside fusion bodies (a loop does not belong there).
#include <algorithm>
#include <numeric>
#include <string>

#include "passes/call_graph_util.h"
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
InstrId canonical_updates(expand::Builder& b, const ScatterInfo& s, InstrId updates) {
  std::vector<int64_t> perm = s.scatter_update_dims;
  perm.insert(perm.end(), s.dims->update_window_dims.begin(), s.dims->update_window_dims.end());
  const InstrId u = b.transpose(updates, perm);
  std::vector<int64_t> dims{s.trip_count};
  for (int64_t d : s.dims->update_window_dims) dims.push_back(b.module().shape(updates).dim(d));
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
  const ir::Shape& o = b.module().shape(s.operands[0]);
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

// A computation of the combiner's parameters whose root is output `k` of the combiner:
// XLA's CallAndGetOutput, a call to the combiner inlined at once.
ir::CompId output_of(ir::Module& m, ir::CompId combiner, int64_t k) {
  const ir::Computation& original = m.computation(combiner);
  const std::vector<InstrId> original_params = original.params;
  const ir::CompId c = m.add_computation(m.unique_name(original.name + ".dup." + std::to_string(k)));
  expand::Builder b(m, c);
  std::vector<InstrId> params;
  for (size_t j = 0; j < original_params.size(); ++j)
    params.push_back(m.add_parameter(c, static_cast<int64_t>(j), m.shape(original_params[j]),
                                     m.unique_name(m.name(original_params[j]))));
  m.set_root(c, b.get_tuple_element(inline_computation(m, combiner, c, params), k));
  return c;
}

// The new window of operand k from the current windows and update windows of all operands.
InstrId combine(expand::Builder& b, const ScatterInfo& s, size_t k, const std::vector<InstrId>& current,
                const std::vector<InstrId>& update) {
  const Combiner& c = s.combiners[k];
  switch (c.kind) {
    case Combiner::kKeep: return current[k];
    case Combiner::kAssign: return update[k];
    case Combiner::kBinary:
      return c.swapped ? b.binary(c.op, update[k], current[k]) : b.binary(c.op, current[k], update[k]);
    default: {
      ir::Attributes at;
      at.dimensions.resize(s.window.size());
      std::iota(at.dimensions.begin(), at.dimensions.end(), 0);
      std::vector<InstrId> ops = current;
      ops.insert(ops.end(), update.begin(), update.end());
      const ir::CompId applied = s.operands.size() == 1 ? c.computation : output_of(b.module(), c.computation, c.output);
      return b.op(Opcode::kMap, ops, std::move(at), {&applied, 1});
    }
  }
}

// The loop body: state (i, operands..., indices, updates...) -> (i + 1, updated
// operands..., indices, updates...).
ir::CompId loop_body(ir::Module& m, const ScatterInfo& s, const ir::Shape& state) {
  const ir::CompId c = m.add_computation(m.unique_name("scatter_body"));
  expand::Builder b(m, c);
  const size_t n = s.operands.size();
  const InstrId p = m.add_parameter(c, 0, state, m.unique_name("loop_state"));
  const InstrId i = b.get_tuple_element(p, 0);
  std::vector<InstrId> operands, updates;
  for (size_t k = 0; k < n; ++k) operands.push_back(b.get_tuple_element(p, static_cast<int64_t>(1 + k)));
  const InstrId indices = b.get_tuple_element(p, static_cast<int64_t>(1 + n));
  for (size_t k = 0; k < n; ++k) updates.push_back(b.get_tuple_element(p, static_cast<int64_t>(2 + n + k)));
  const InstrId counter_zero = b.scalar_int(s.counter_type, 0);
  const std::vector<InstrId> starts = window_start(b, s, indices, i, counter_zero);
  std::vector<InstrId> update_starts{i};
  std::vector<int64_t> update_sizes{1};
  for (size_t k = 1; k < m.shape(updates[0]).dims().size(); ++k) {
    update_starts.push_back(counter_zero);
    update_sizes.push_back(m.shape(updates[0]).dim(static_cast<int64_t>(k)));
  }
  std::vector<InstrId> current, update;
  for (size_t k = 0; k < n; ++k) {
    update.push_back(b.reshape(b.dynamic_slice(updates[k], update_starts, update_sizes), s.window));
    current.push_back(b.dynamic_slice(operands[k], starts, s.window));
  }
  InstrId fits = ir::kNoId;
  if (!s.dims->scatter_dims_to_operand_dims.empty()) {
    fits = window_fits(b, s, starts);
    if (!s.window.empty()) fits = b.broadcast(fits, s.window, {});
  }
  std::vector<InstrId> parts{b.binary(Opcode::kAdd, i, b.scalar_int(s.counter_type, 1))};
  for (size_t k = 0; k < n; ++k) {
    InstrId next = combine(b, s, k, current, update);
    if (fits != ir::kNoId) next = b.select(fits, next, current[k]);
    parts.push_back(b.dynamic_update_slice(operands[k], next, starts));
  }
  parts.push_back(indices);
  parts.insert(parts.end(), updates.begin(), updates.end());
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

// The operands unchanged: the one operand, or the tuple of several.
InstrId result_of(expand::Builder& b, const std::vector<InstrId>& results) {
  return results.size() == 1 ? results[0] : b.tuple(results);
}

InstrId expand_scatter(ir::Module& m, const ScatterInfo& s) {
  expand::Builder b(m, m.computation_of(s.scatter));
  if (s.trip_count == 0) return result_of(b, s.operands);
  const size_t n = s.operands.size();
  std::vector<InstrId> parts{b.scalar_int(s.counter_type, 0)};
  parts.insert(parts.end(), s.operands.begin(), s.operands.end());
  parts.push_back(canonical_indices(b, s));
  for (InstrId u : s.updates) parts.push_back(canonical_updates(b, s, u));
  const InstrId init = b.tuple(parts);
  const ir::Shape state = m.shape(init);
  const ir::CompId called[] = {loop_condition(m, s, state), loop_body(m, s, state)};
  const InstrId loop = b.op(Opcode::kWhile, {&init, 1}, {}, called);
  std::vector<InstrId> results;
  for (size_t k = 0; k < n; ++k) results.push_back(b.get_tuple_element(loop, static_cast<int64_t>(1 + k)));
  return result_of(b, results);
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
      expand::replace_with(m, i, expand_scatter(m, *info));
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_scatter_expander() { return std::make_unique<ScatterExpander>(); }

}  // namespace hlsgym::passes
