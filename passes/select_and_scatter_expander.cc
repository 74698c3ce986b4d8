// select_and_scatter_expander (XLA SelectAndScatterExpander): select-and-scatter ->
//   a variadic reduce-window over (operand, iota_0 .. iota_{r-1}) whose reducer keeps the
//   selected element and its coordinates, then a scatter of `source` to those coordinates
//   onto a broadcast of the init value, with the original scatter computation.
// The reducer (XLA's) picks lhs when `select(lhs, rhs) && lhs is a real element` or when rhs
// is not a real element (iota -1 marks the init), which is exactly the interpreter's rule:
// the first element of the window in row-major order, replaced by each later one that
// `select` does not prefer the current choice to. A window with no element selects -1, an
// index the scatter skips. The scatter applies the source in row-major order, as
// select-and-scatter does. Windows with dilation or reversal are left alone.
#include <vector>

#include "ir/shape_inference.h"
#include "passes/call_graph_util.h"
#include "passes/expander_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

bool scalar_computation(const ir::Module& m, ir::CompId c, ElementType param, ElementType result) {
  const ir::Computation& comp = m.computation(c);
  if (comp.params.size() != 2 || comp.root == ir::kNoId) return false;
  for (InstrId p : comp.params)
    if (p == ir::kNoId || !m.shape(p).compatible(ir::Shape::scalar(param))) return false;
  return m.shape(comp.root).compatible(ir::Shape::scalar(result));
}

bool matches(const ir::Module& m, InstrId i) {
  const ir::Shape &o = m.shape(m.operand(i, 0)), &src = m.shape(m.operand(i, 1)), &init = m.shape(m.operand(i, 2));
  const auto& window = m.attrs(i).window;
  if (!o.is_array() || !src.is_array() || !o.is_static() || !src.is_static() || o.rank() == 0) return false;
  if (!init.compatible(ir::Shape::scalar(o.element_type())) || src.element_type() != o.element_type()) return false;
  if (!window || static_cast<int64_t>(window->size()) != o.rank() || m.called(i).size() != 2) return false;
  for (int64_t d = 0; d < o.rank(); ++d) {
    const ir::WindowDim& w = (*window)[d];
    if (w.window_dilation != 1 || w.base_dilation != 1 || w.reversal || w.stride < 1 || w.size < 1 ||
        w.pad_low < 0 || w.pad_high < 0 || o.dim(d) > INT32_MAX)
      return false;
    const int64_t padded = o.dim(d) + w.pad_low + w.pad_high;
    if (padded < w.size || (padded - w.size) / w.stride + 1 != src.dim(d)) return false;
  }
  return scalar_computation(m, m.called(i)[0], o.element_type(), ElementType::kPred) &&
         scalar_computation(m, m.called(i)[1], o.element_type(), o.element_type());
}

// (value, coords...) x (value, coords...) -> the selected (value, coords...).
ir::CompId selecting_reducer(ir::Module& m, ir::CompId select, ElementType t, int64_t rank) {
  const ir::CompId c = m.add_computation(m.unique_name(m.computation(select).name + ".reduce_window"));
  expand::Builder b(m, c);
  const ir::Shape value = ir::Shape::scalar(t), coord = ir::Shape::scalar(ElementType::kS32);
  std::vector<InstrId> lhs, rhs;
  lhs.push_back(m.add_parameter(c, 0, value, m.unique_name("operand_lhs")));
  for (int64_t k = 0; k < rank; ++k) lhs.push_back(m.add_parameter(c, 1 + k, coord, m.unique_name("iota_lhs")));
  rhs.push_back(m.add_parameter(c, rank + 1, value, m.unique_name("operand_rhs")));
  for (int64_t k = 0; k < rank; ++k)
    rhs.push_back(m.add_parameter(c, rank + 2 + k, coord, m.unique_name("iota_rhs")));
  const InstrId none = b.scalar_int(ElementType::kS32, -1);
  const InstrId lhs_real = b.compare(lhs[1], none, ir::ComparisonDirection::kNe);
  const InstrId rhs_real = b.compare(rhs[1], none, ir::ComparisonDirection::kNe);
  const InstrId args[] = {lhs[0], rhs[0]};
  const InstrId selected = inline_computation(m, select, c, args);
  InstrId keep_lhs = b.binary(Opcode::kAnd, selected, lhs_real);
  keep_lhs = b.binary(Opcode::kOr, keep_lhs, b.unary(Opcode::kNot, rhs_real));
  std::vector<InstrId> out;
  for (size_t k = 0; k < lhs.size(); ++k) out.push_back(b.select(keep_lhs, lhs[k], rhs[k]));
  m.set_root(c, b.tuple(out));
  return c;
}

InstrId expand_select_and_scatter(ir::Module& m, InstrId i) {
  expand::Builder b(m, m.computation_of(i));
  const InstrId operand = m.operand(i, 0), source = m.operand(i, 1), init = m.operand(i, 2);
  const ir::Shape& o = m.shape(operand);
  const std::vector<int64_t>& src_dims = m.shape(source).dims();
  const int64_t rank = o.rank();
  std::vector<InstrId> ops{operand};
  for (int64_t k = 0; k < rank; ++k) ops.push_back(b.iota(ElementType::kS32, o.dims(), k));
  ops.push_back(init);
  const InstrId none = b.scalar_int(ElementType::kS32, -1);
  for (int64_t k = 0; k < rank; ++k) ops.push_back(none);
  ir::Attributes rw;
  rw.window = m.attrs(i).window;
  const ir::CompId reducer = selecting_reducer(m, m.called(i)[0], o.element_type(), rank);
  const InstrId window = b.op(Opcode::kReduceWindow, ops, std::move(rw), {&reducer, 1});
  std::vector<int64_t> coord_dims = src_dims;
  coord_dims.push_back(1);
  std::vector<InstrId> coords;
  for (int64_t k = 0; k < rank; ++k) coords.push_back(b.reshape(b.get_tuple_element(window, k + 1), coord_dims));
  ir::Attributes cat;
  cat.dimensions = {static_cast<int64_t>(src_dims.size())};
  const InstrId indices = rank == 1 ? coords[0] : b.op(Opcode::kConcatenate, coords, std::move(cat));
  ir::Attributes sc;
  sc.scatter_dims = ir::ScatterDims{};
  sc.scatter_dims->inserted_window_dims = expand::all_dims_except(rank, -1);
  sc.scatter_dims->scatter_dims_to_operand_dims = expand::all_dims_except(rank, -1);
  sc.scatter_dims->index_vector_dim = static_cast<int64_t>(src_dims.size());
  const InstrId scatter_ops[] = {b.broadcast(init, o.dims(), {}), indices, source};
  const ir::CompId scatter = m.called(i)[1];
  return b.op(Opcode::kScatter, scatter_ops, std::move(sc), {&scatter, 1});
}

class SelectAndScatterExpander final : public Pass {
 public:
  std::string_view name() const override { return "select_and_scatter_expander"; }
  std::string_view description() const override {
    return "expands select-and-scatter into a selecting reduce-window and a scatter";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kSelectAndScatter})) {
      if (!matches(m, i)) continue;
      expand::replace_with(m, i, expand_select_and_scatter(m, i));
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_select_and_scatter_expander() { return std::make_unique<SelectAndScatterExpander>(); }

}  // namespace hlsgym::passes
