#include "passes/structural_equality.h"

#include <unordered_map>

#include "passes/control_flow_util.h"

namespace hlsgym::passes {
using ir::CompId;
using ir::InstrId;

bool same_attributes_except_metadata(const ir::Attributes& a, const ir::Attributes& b) {
  if (a == b) return true;  // the common case, without copying
  ir::Attributes x = a, y = b;
  std::erase_if(x.opaque, [](const auto& o) { return o.key == "metadata"; });
  std::erase_if(y.opaque, [](const auto& o) { return o.key == "metadata"; });
  return x == y;
}

namespace {
bool same_instruction(const ir::Module& m, InstrId x, InstrId y, const std::unordered_map<InstrId, InstrId>& to_b,
                      const SameCallee& same_callee) {
  if (m.opcode(x) != m.opcode(y) || !(m.shape(x) == m.shape(y))) return false;
  auto ox = m.operands(x), oy = m.operands(y);
  if (ox.size() != oy.size()) return false;
  for (size_t k = 0; k < ox.size(); ++k) {
    const auto it = to_b.find(ox[k]);
    if (it == to_b.end() || it->second != oy[k]) return false;
  }
  const auto &cx = m.called(x), &cy = m.called(y);
  if (cx.size() != cy.size()) return false;
  for (size_t k = 0; k < cx.size(); ++k)
    if (!same_callee(cx[k], cy[k])) return false;
  if (m.opcode(x) == ir::Opcode::kConstant) {
    if (control_flow::is_elided_constant(m, x) || control_flow::is_elided_constant(m, y)) return false;
    if (!(m.literal(x) == m.literal(y))) return false;
  }
  return same_attributes_except_metadata(m.attrs(x), m.attrs(y));
}
}  // namespace

bool same_computation(const ir::Module& m, CompId a, const std::vector<InstrId>& order_a, CompId b,
                      const std::vector<InstrId>& order_b, const SameCallee& same_callee) {
  if (order_a.size() != order_b.size() || m.computation(a).params.size() != m.computation(b).params.size())
    return false;
  std::unordered_map<InstrId, InstrId> to_b;
  for (size_t p = 0; p < order_a.size(); ++p) {
    const InstrId x = order_a[p], y = order_b[p];
    to_b.emplace(x, y);
    if (!same_instruction(m, x, y, to_b, same_callee)) return false;
  }
  const auto root = to_b.find(m.computation(a).root);
  return root != to_b.end() && root->second == m.computation(b).root;
}

bool same_computation(const ir::Module& m, CompId a, CompId b, const SameCallee& same_callee) {
  return same_computation(m, a, control_flow::local_post_order(m, a), b, control_flow::local_post_order(m, b),
                          same_callee);
}

bool same_computation_deep(const ir::Module& m, CompId a, CompId b) {
  if (a == b) return true;
  return same_computation(m, a, b, [&m](CompId x, CompId y) { return same_computation_deep(m, x, y); });
}

}  // namespace hlsgym::passes
