#include "passes/while_loop_simplifier_rewrites.h"

#include <algorithm>
#include <functional>
#include <optional>

#include "passes/control_flow_util.h"
#include "passes/expander_util.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes::while_loop {
namespace {
using ir::CompId;
using ir::InstrId;
using ir::Opcode;
namespace cf = control_flow;

CompId cond_of(const ir::Module& m, InstrId w) { return m.called(w)[0]; }
CompId body_of(const ir::Module& m, InstrId w) { return m.called(w)[1]; }
InstrId param_of(const ir::Module& m, CompId c) { return m.computation(c).params[0]; }

bool reads_element(const ir::Module& m, InstrId g, InstrId tuple, int64_t k) {
  return m.opcode(g) == Opcode::kGetTupleElement && m.operand(g, 0) == tuple && m.attrs(g).tuple_index == k;
}

// True if the body's root passes element k of the state through unchanged.
bool passes_through(const ir::Module& m, InstrId w, int64_t k) {
  const CompId body = body_of(m, w);
  return reads_element(m, m.operand(m.computation(body).root, static_cast<size_t>(k)), param_of(m, body), k);
}

// Replaces every get-tuple-element of element k of `tuple` by `value(gte)`.
void replace_reads(ir::Module& m, InstrId tuple, int64_t k, const std::function<InstrId(InstrId)>& value) {
  const std::vector<InstrId> users(m.users(tuple).begin(), m.users(tuple).end());
  for (InstrId g : users)
    if (m.is_live(g) && reads_element(m, g, tuple, k)) replace_instruction(m, g, value(g));
}

// The leaves of `v` (of tuple shape `shape`, possibly nested), in order.
void flatten(ir::Module& m, InstrId v, const ir::Shape& shape, std::vector<InstrId>& out) {
  if (!shape.is_tuple()) {
    out.push_back(v);
    return;
  }
  for (size_t k = 0; k < shape.tuple_elements().size(); ++k)
    flatten(m, cf::tuple_element(m, v, static_cast<int64_t>(k)), shape.tuple_element(static_cast<int64_t>(k)), out);
}

void leaf_shapes(const ir::Shape& shape, std::vector<ir::Shape>& out) {
  if (!shape.is_tuple()) {
    out.push_back(shape);
    return;
  }
  for (const ir::Shape& e : shape.tuple_elements()) leaf_shapes(e, out);
}

// The value of nested shape `shape` built in `c` from `leaves` (consumed from `next`).
InstrId nest(ir::Module& m, CompId c, const std::vector<InstrId>& leaves, size_t& next, const ir::Shape& shape) {
  if (!shape.is_tuple()) return leaves[next++];
  std::vector<InstrId> parts;
  for (const ir::Shape& e : shape.tuple_elements()) parts.push_back(nest(m, c, leaves, next, e));
  return m.add_instruction(c, Opcode::kTuple, shape, parts);
}

// Points the uses of `from` by `users` (listed before `to` was built from `from`) and
// its root status at `to`.
void redirect(ir::Module& m, InstrId from, InstrId to, const std::vector<InstrId>& users, bool was_root) {
  for (InstrId u : users) {
    std::vector<InstrId> ops(m.operands(u).begin(), m.operands(u).end());
    std::replace(ops.begin(), ops.end(), from, to);
    m.set_operands(u, ops);
  }
  if (was_root) m.set_root(m.computation_of(from), to);
}

// The nested value of shape `nested` made of the leaves of the flat tuple `flat`.
InstrId nested_from_flat(ir::Module& m, InstrId flat, const ir::Shape& nested) {
  std::vector<InstrId> leaves;
  for (size_t i = 0; i < m.shape(flat).tuple_elements().size(); ++i)
    leaves.push_back(cf::tuple_element(m, flat, static_cast<int64_t>(i)));
  size_t next = 0;
  return nest(m, m.computation_of(flat), leaves, next, nested);
}

// Makes every user of while `w` a get-tuple-element (others read a tuple of them).
void only_element_users(ir::Module& m, InstrId w) {
  std::vector<InstrId> others;
  for (InstrId u : m.users(w))
    if (m.opcode(u) != Opcode::kGetTupleElement) others.push_back(u);
  if (others.empty() && !m.is_root(w)) return;
  const bool was_root = m.is_root(w);
  std::vector<InstrId> parts;
  for (size_t k = 0; k < m.shape(w).tuple_elements().size(); ++k)
    parts.push_back(cf::tuple_element(m, w, static_cast<int64_t>(k)));
  redirect(m, w, m.add_instruction(m.computation_of(w), Opcode::kTuple, m.shape(w), parts), others, was_root);
}

// The step c when the body's root element k is add(element k, constant c) (either order)
// of a scalar of type t.
std::optional<int64_t> induction_step(const ir::Module& m, InstrId w, int64_t k, ir::ElementType t) {
  const CompId body = body_of(m, w);
  const InstrId next = m.operand(m.computation(body).root, static_cast<size_t>(k));
  if (m.opcode(next) != Opcode::kAdd || m.shape(next) != ir::Shape::scalar(t)) return std::nullopt;
  for (size_t side = 0; side < 2; ++side) {
    const InstrId c = m.operand(next, 1 - side);
    if (reads_element(m, m.operand(next, side), param_of(m, body), k) && m.opcode(c) == Opcode::kConstant &&
        !cf::is_elided_constant(m, c))
      return m.literal(c).get_int(0);
  }
  return std::nullopt;
}

}  // namespace

bool remove_repeated_elements(ir::Module& m, InstrId w, const std::vector<int>& callers) {
  const InstrId init = m.operand(w, 0);
  if (!cf::state_is_editable(m, w, callers) || m.opcode(init) != Opcode::kTuple) return false;
  const size_t n = m.shape(w).tuple_elements().size();
  std::vector<int64_t> same_as(n, -1);
  bool any = false;
  for (size_t j = 0; j < n; ++j) {
    if (!passes_through(m, w, static_cast<int64_t>(j))) continue;
    for (size_t i = 0; i < j && same_as[j] < 0; ++i)
      if (same_as[i] < 0 && m.operand(init, i) == m.operand(init, j) && passes_through(m, w, static_cast<int64_t>(i)))
        same_as[j] = static_cast<int64_t>(i), any = true;
  }
  if (!any) return false;
  std::vector<bool> dropped(n);
  for (size_t j = 0; j < n; ++j) {
    if (same_as[j] < 0) continue;
    dropped[j] = true;
    for (CompId c : {body_of(m, w), cond_of(m, w)}) {
      const InstrId param = param_of(m, c);
      replace_reads(m, param, static_cast<int64_t>(j), [&](InstrId) { return cf::tuple_element(m, param, same_as[j]); });
    }
  }
  cf::drop_state_elements(m, w, dropped);
  return true;
}

bool flatten_nested_state(ir::Module& m, InstrId w) {
  const ir::Shape nested = m.shape(w);
  if (!nested.is_tuple()) return false;
  bool has_inner_tuple = false;
  for (const ir::Shape& e : nested.tuple_elements()) has_inner_tuple |= e.is_tuple();
  const CompId body = body_of(m, w), cond = cond_of(m, w);
  if (!has_inner_tuple || m.computation(body).params.size() != 1 || m.computation(cond).params.size() != 1)
    return false;
  std::vector<ir::Shape> leaves;
  leaf_shapes(nested, leaves);
  const ir::Shape flat = ir::Shape::tuple(leaves);
  // Body and condition: the parameter becomes flat; its users read the nested value.
  for (CompId c : {body, cond}) {
    const InstrId p = param_of(m, c);
    const std::vector<InstrId> users(m.users(p).begin(), m.users(p).end());
    const bool was_root = m.is_root(p);
    m.mutable_payload(p).shape = flat;
    redirect(m, p, nested_from_flat(m, p, nested), users, was_root);
  }
  std::vector<InstrId> out;
  flatten(m, m.computation(body).root, nested, out);
  m.set_root(body, m.add_instruction(body, Opcode::kTuple, flat, out));
  // The loop: a flat init; its users read the nested value.
  const InstrId old_init = m.operand(w, 0);
  std::vector<InstrId> init_leaves;
  flatten(m, old_init, nested, init_leaves);
  const std::vector<InstrId> users(m.users(w).begin(), m.users(w).end());
  const bool was_root = m.is_root(w);
  m.set_operand(w, 0, m.add_instruction(m.computation_of(w), Opcode::kTuple, flat, init_leaves));
  m.mutable_payload(w).shape = flat;
  redirect(m, w, nested_from_flat(m, w, nested), users, was_root);
  remove_if_dead(m, old_init);
  return true;
}

bool remove_constant_elements(ir::Module& m, InstrId w, const std::vector<int>& callers) {
  const InstrId init = m.operand(w, 0);
  if (!cf::state_is_editable(m, w, callers) || m.opcode(init) != Opcode::kTuple) return false;
  const CompId body = body_of(m, w), cond = cond_of(m, w);
  const InstrId root = m.computation(body).root;
  const size_t n = m.shape(w).tuple_elements().size();
  std::vector<bool> constant(n);
  size_t count = 0;
  for (size_t k = 0; k < n; ++k) {
    const InstrId a = m.operand(init, k), b = m.operand(root, k);
    constant[k] = m.opcode(a) == Opcode::kConstant && m.opcode(b) == Opcode::kConstant &&
                  !cf::is_elided_constant(m, a) && !cf::is_elided_constant(m, b) && m.literal(a) == m.literal(b);
    count += constant[k];
  }
  if (count == 0) return false;
  if (count == n && !cf::computation_has_side_effect(m, body) && !cf::computation_has_side_effect(m, cond)) {
    replace_instruction(m, w, init);
    return true;
  }
  for (size_t k = 0; k < n; ++k) {
    if (!constant[k]) continue;
    for (CompId c : {body, cond})
      replace_reads(m, param_of(m, c), static_cast<int64_t>(k),
                    [&](InstrId) { return m.add_clone(c, m.operand(init, k), {}); });
  }
  cf::drop_state_elements(m, w, constant);
  return true;
}

bool merge_induction_variables(ir::Module& m, InstrId w, ir::ElementType t, const std::vector<int>& callers) {
  if (!cf::state_is_editable(m, w, callers)) return false;
  const size_t n = m.shape(w).tuple_elements().size();
  int64_t counter = -1;
  std::vector<std::pair<int64_t, int64_t>> variables;  // (element, step)
  for (size_t k = 0; k < n; ++k) {
    const auto key = static_cast<int64_t>(k);
    const std::optional<int64_t> step = induction_step(m, w, key, t);
    if (!step) continue;
    const InstrId start = m.opcode(m.operand(w, 0)) == Opcode::kTuple ? m.operand(m.operand(w, 0), k) : ir::kNoId;
    const bool zero_start = start != ir::kNoId && m.opcode(start) == Opcode::kConstant &&
                            !cf::is_elided_constant(m, start) && m.literal(start).get_int(0) == 0;
    if (counter < 0 && zero_start && *step == 1) counter = key;
    else variables.emplace_back(key, *step);
  }
  if (variables.empty() || (variables.size() == 1 && counter < 0)) return false;
  const CompId body = body_of(m, w), cond = cond_of(m, w);
  if (counter < 0) {  // a new trip counter: 0, then +1 each iteration
    expand::Builder outside(m, m.computation_of(w));
    const InstrId zero[] = {outside.scalar_int(t, 0)};
    cf::extend_while_state(m, w, zero);
    counter = static_cast<int64_t>(n);
    for (CompId c : {body, cond}) m.mutable_payload(param_of(m, c)).shape = m.shape(w);
    expand::Builder b(m, body);
    const InstrId root = m.computation(body).root;
    std::vector<InstrId> outs(m.operands(root).begin(), m.operands(root).end());
    outs.push_back(b.binary(Opcode::kAdd, cf::tuple_element(m, param_of(m, body), counter), b.scalar_int(t, 1)));
    m.set_operands(root, outs);
    m.mutable_payload(root).shape = m.shape(w);
  }
  only_element_users(m, w);
  // init + counter * step, read from `tuple` (a parameter, or the loop for its users).
  auto value = [&](InstrId tuple, int64_t k, int64_t step) {
    expand::Builder b(m, m.computation_of(tuple));
    const InstrId scaled =
        b.binary(Opcode::kMultiply, cf::tuple_element(m, tuple, counter), b.scalar_int(t, step));
    return b.binary(Opcode::kAdd, cf::tuple_element(m, tuple, k), scaled);
  };
  for (auto [k, step] : variables) {
    const InstrId root = m.computation(body).root;
    const InstrId old_next = m.operand(root, static_cast<size_t>(k));
    for (CompId c : {body, cond})
      replace_reads(m, param_of(m, c), k, [&, k = k, step = step](InstrId) { return value(param_of(m, c), k, step); });
    m.set_operand(root, static_cast<size_t>(k), cf::tuple_element(m, param_of(m, body), k));
    remove_if_dead(m, old_next);
    replace_reads(m, w, k, [&, k = k, step = step](InstrId) { return value(w, k, step); });
  }
  return true;
}

}  // namespace hlsgym::passes::while_loop
