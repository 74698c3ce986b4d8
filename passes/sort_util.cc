#include "passes/sort_util.h"

#include <stdexcept>

#include "passes/rewrite_util.h"

namespace hlsgym::passes::sorting {
using ir::InstrId;
using ir::Opcode;

InstrId element(ir::Module& m, InstrId sort, int64_t k) {
  if (!m.shape(sort).is_tuple()) return sort;
  ir::Attributes a;
  a.tuple_index = k;
  const InstrId ops[] = {sort};
  return m.add_instruction(m.computation_of(sort), Opcode::kGetTupleElement,
                           m.shape(sort).tuple_elements()[static_cast<size_t>(k)], ops, a);
}

InstrId make_sort(ir::Module& m, InstrId old, const std::vector<InstrId>& operands, ir::CompId cmp, bool stable) {
  std::vector<ir::Shape> shapes;
  for (InstrId o : operands) shapes.push_back(m.shape(o));
  const ir::Shape s = shapes.size() == 1 ? shapes[0] : ir::Shape::tuple(shapes);
  ir::Attributes a = m.attrs(old);
  a.is_stable = stable;
  const InstrId fresh = m.add_instruction(m.computation_of(old), Opcode::kSort, s, operands, a);
  m.mutable_payload(fresh).called = {cmp};
  return fresh;
}

ir::CompId new_comparator(ir::Module& m, const std::vector<ir::ElementType>& types, std::vector<InstrId>& params) {
  const ir::CompId c = m.add_computation(m.unique_name("compare"));
  params.clear();
  int64_t n = 0;
  for (ir::ElementType t : types)
    for (int side = 0; side < 2; ++side)
      params.push_back(m.add_parameter(c, n++, ir::Shape::scalar(t), m.unique_name("p")));
  return c;
}

void rewire(ir::Module& m, InstrId old, InstrId fresh, const std::vector<int64_t>& new_index) {
  if (!m.shape(old).is_tuple()) {
    replace_instruction(m, old, new_index[0] < 0 ? fresh : element(m, fresh, new_index[0]));
    return;
  }
  const auto span = m.users(old);
  const std::vector<InstrId> users(span.begin(), span.end());
  for (InstrId u : users)
    if (m.opcode(u) == Opcode::kGetTupleElement) {
      const int64_t k = new_index[static_cast<size_t>(m.attrs(u).tuple_index)];
      if (k >= 0) replace_instruction(m, u, element(m, fresh, k));
    }
  // The whole tuple escapes (a root, or a user other than get-tuple-element): it is
  // rebuilt from fresh's elements, so every element must still be there.
  if (m.is_root(old) || !m.users(old).empty()) {
    std::vector<InstrId> elements;
    for (int64_t k : new_index) {
      if (k < 0) throw std::logic_error("sorting::rewire: a dropped element of " + m.name(old) + " is still used");
      elements.push_back(element(m, fresh, k));
    }
    replace_instruction(m, old, m.add_instruction(m.computation_of(old), Opcode::kTuple, m.shape(old), elements));
    return;
  }
  remove_if_dead(m, old);
}

}  // namespace hlsgym::passes::sorting
