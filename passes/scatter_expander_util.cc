#include "passes/scatter_expander_util.h"

#include <algorithm>
#include <limits>

namespace hlsgym::passes::scatter_detail {
namespace {
using ir::ElementType;
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

bool order_insensitive_op(Opcode op, ElementType t) {
  if (!ir::is_integral(t) && t != ElementType::kPred) return false;
  switch (op) {
    case Opcode::kAdd: case Opcode::kMultiply: case Opcode::kAnd: case Opcode::kOr: case Opcode::kXor:
    case Opcode::kMaximum: case Opcode::kMinimum:
      return true;
    default: return false;
  }
}

// Output `k` of the update computation of a scatter of `types.size()` operands, or nullopt
// if the computation is not (scalars current..., scalars update...) -> scalar (one
// operand) or tuple of scalars (several), of the operands' element types.
std::optional<Combiner> classify(const ir::Module& m, ir::CompId c, const std::vector<ElementType>& types,
                                 int64_t k) {
  const ir::Computation& comp = m.computation(c);
  const size_t n = types.size();
  if (comp.params.size() != 2 * n || comp.root == ir::kNoId) return std::nullopt;
  std::vector<ir::Shape> results;
  for (size_t j = 0; j < 2 * n; ++j)
    if (comp.params[j] == ir::kNoId || !m.shape(comp.params[j]).compatible(ir::Shape::scalar(types[j % n])))
      return std::nullopt;
  for (ElementType t : types) results.push_back(ir::Shape::scalar(t));
  const ir::Shape want = n == 1 ? results[0] : ir::Shape::tuple(results);
  if (!m.shape(comp.root).compatible(want)) return std::nullopt;
  Combiner out;
  out.computation = c;
  out.output = k;
  // A variadic combiner is classified only when its root is a tuple whose element k is
  // built from the k-th parameters alone; anything else is mapped whole.
  InstrId r = comp.root;
  if (n > 1) r = m.opcode(r) == Opcode::kTuple ? m.operand(r, k) : ir::kNoId;
  const InstrId p0 = comp.params[static_cast<size_t>(k)], p1 = comp.params[n + static_cast<size_t>(k)];
  if (r == ir::kNoId) return out;
  if (r == p0) {
    out.kind = Combiner::kKeep;
    out.order_insensitive = true;
  } else if (r == p1) {
    out.kind = Combiner::kAssign;
  } else if (ir::info(m.opcode(r)).elementwise && m.operands(r).size() == 2 && m.opcode(r) != Opcode::kCompare) {
    const InstrId a = m.operand(r, 0), b = m.operand(r, 1);
    if ((a == p0 && b == p1) || (a == p1 && b == p0)) {
      out.kind = Combiner::kBinary;
      out.op = m.opcode(r);
      out.swapped = a == p1;
      out.order_insensitive = order_insensitive_op(out.op, types[static_cast<size_t>(k)]);
    }
  }
  return out;
}

// The scatter's dimension numbers agree with its shapes (scatter shapes are not checked
// against the dimension numbers by the verifier). Fills the shape facts of `s`.
bool well_formed(const ir::Module& m, ScatterInfo& s) {
  const ir::ScatterDims& d = *s.dims;
  const ir::Shape &o = m.shape(s.operands[0]), &x = m.shape(s.indices), &u = m.shape(s.updates[0]);
  if (!x.is_array() || !x.is_static() || !ir::is_integral(x.element_type())) return false;
  std::vector<ir::Shape> results;
  for (size_t k = 0; k < s.operands.size(); ++k) {
    const ir::Shape &ok = m.shape(s.operands[k]), &uk = m.shape(s.updates[k]);
    for (const ir::Shape* sh : {&ok, &uk})
      if (!sh->is_array() || !sh->is_static()) return false;
    if (ok.dims() != o.dims() || uk.dims() != u.dims() || uk.element_type() != ok.element_type()) return false;
    results.push_back(ok);
  }
  const ir::Shape want = results.size() == 1 ? results[0] : ir::Shape::tuple(results);
  if (!m.shape(s.scatter).compatible(want) || !d.input_batching_dims.empty() ||
      !d.scatter_indices_batching_dims.empty())
    return false;
  const int64_t r = o.rank(), ivd = d.index_vector_dim;
  if (ivd < 0 || ivd > x.rank()) return false;
  s.vector_size = ivd < x.rank() ? x.dim(ivd) : 1;
  if (static_cast<int64_t>(d.scatter_dims_to_operand_dims.size()) != s.vector_size ||
      !distinct_in_range(d.scatter_dims_to_operand_dims, r) || !distinct_in_range(d.inserted_window_dims, r) ||
      !distinct_in_range(d.update_window_dims, u.rank()) ||
      !std::is_sorted(d.update_window_dims.begin(), d.update_window_dims.end()) ||
      d.update_window_dims.size() + d.inserted_window_dims.size() != static_cast<size_t>(r))
    return false;
  s.window.assign(static_cast<size_t>(r), 1);
  for (int64_t od = 0, j = 0; od < r; ++od) {
    if (contains(d.inserted_window_dims, od)) continue;
    s.window[od] = u.dim(d.update_window_dims[j++]);
    if (s.window[od] > o.dim(od)) return false;
  }
  std::vector<int64_t> update_batch, index_batch;
  for (int64_t k = 0; k < u.rank(); ++k)
    if (!contains(d.update_window_dims, k)) s.scatter_update_dims.push_back(k), update_batch.push_back(u.dim(k));
  for (int64_t k = 0; k < x.rank(); ++k)
    if (k != ivd) index_batch.push_back(x.dim(k));
  if (update_batch != index_batch) return false;
  s.trip_count = 1;
  for (int64_t n : index_batch) s.trip_count *= n;
  return true;
}

// True if no two updates can reach one operand element in a different order in the loop
// than in the interpreter's row-major walk over the updates: no window dimension of size
// > 1 precedes a scatter dimension of size > 1.
bool same_update_order(const ir::Module& m, const ScatterInfo& s) {
  const ir::Shape& u = m.shape(s.updates[0]);
  int64_t last_scatter = -1;
  for (int64_t k : s.scatter_update_dims)
    if (u.dim(k) > 1) last_scatter = k;
  for (int64_t k : s.dims->update_window_dims)
    if (u.dim(k) > 1 && k < last_scatter) return false;
  return true;
}

ElementType index_type_for(const ir::Module& m, const ScatterInfo& s) {
  const ElementType t = m.shape(s.indices).element_type();
  if (t == ElementType::kS64) return t;
  if (t != ElementType::kS32) return ElementType::kS64;
  for (int64_t n : m.shape(s.operands[0]).dims())
    if (n > std::numeric_limits<int32_t>::max()) return ElementType::kS64;
  return t;
}

}  // namespace

std::optional<ScatterInfo> analyze(const ir::Module& m, InstrId i) {
  const auto ops = m.operands(i);
  if (ops.size() < 3 || ops.size() % 2 == 0 || !m.attrs(i).scatter_dims || m.called(i).size() != 1)
    return std::nullopt;
  const size_t n = (ops.size() - 1) / 2;
  ScatterInfo s;
  s.scatter = i;
  s.operands.assign(ops.begin(), ops.begin() + static_cast<std::ptrdiff_t>(n));
  s.indices = ops[n];
  s.updates.assign(ops.begin() + static_cast<std::ptrdiff_t>(n) + 1, ops.end());
  s.dims = &*m.attrs(i).scatter_dims;
  if (!well_formed(m, s)) return std::nullopt;
  std::vector<ElementType> types;
  for (InstrId o : s.operands) types.push_back(m.shape(o).element_type());
  // Each output is combined on its own, so the order of updates is free only if it is
  // free for every output.
  bool order_insensitive = true;
  for (size_t k = 0; k < n; ++k) {
    const auto combiner = classify(m, m.called(i)[0], types, static_cast<int64_t>(k));
    if (!combiner) return std::nullopt;
    s.combiners.push_back(*combiner);
    order_insensitive = order_insensitive && combiner->order_insensitive;
  }
  if (!order_insensitive && !same_update_order(m, s)) return std::nullopt;
  s.index_type = index_type_for(m, s);
  s.counter_type = s.trip_count > std::numeric_limits<int32_t>::max() ? ElementType::kS64 : ElementType::kS32;
  return s;
}

}  // namespace hlsgym::passes::scatter_detail
