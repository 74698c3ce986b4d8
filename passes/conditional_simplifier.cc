// simplify-conditional (XLA ConditionalSimplifier). Conditionals whose branches hold
// send/recv (the other side matches on them), with control edges or with a sharding are
// left alone. On the others:
// - tuple outputs read by the same get-tuple-elements in every branch are merged, and
//   outputs nobody reads are removed from every branch root; a conditional nobody reads
//   returns an empty tuple (its side effects stay);
// - without side effects or elided constants in the branches: one branch, or a constant
//   predicate / branch index (out of range -> last branch): the taken branch is inlined
//   in place of the conditional; two cheap branches on a pred (only elementwise ops,
//   constants, broadcast, concatenate, dynamic-slice, get-tuple-element, reduce, reshape,
//   pad, slice, tuple; neither branch a mere forwarding of its parameter): both branches are
//   inlined and a select (per tuple element; after-all for tokens) picks the result;
// - parameter tuple elements a branch does not read are dropped from its operand.
// A branch shared with another caller is copied before its root or parameter changes.
#include <algorithm>
#include <unordered_set>

#include "passes/call_graph_util.h"
#include "passes/control_flow_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::CompId;
using ir::InstrId;
using ir::Opcode;
namespace cf = control_flow;

bool is_cheap(const ir::Module& m, CompId c) {
  for (InstrId i : m.instructions(c)) {
    switch (m.opcode(i)) {
      case Opcode::kBroadcast: case Opcode::kConcatenate: case Opcode::kDynamicSlice:
      case Opcode::kGetTupleElement: case Opcode::kReduce: case Opcode::kReshape: case Opcode::kPad:
      case Opcode::kParameter: case Opcode::kSlice: case Opcode::kTuple:
      case Opcode::kConstant:  // XLA's constants count as elementwise (IsElementwiseImpl)
        break;
      default:
        if (!ir::info(m.opcode(i)).elementwise) return false;
    }
  }
  return true;
}

// Only parameters, tuples and get-tuple-elements, with an array somewhere in the result:
// the branch merely forwards data, cheaper than a select (XLA keeps such conditionals).
bool forwards_only(const ir::Module& m, CompId c) {
  for (InstrId i : m.instructions(c)) {
    const Opcode op = m.opcode(i);
    if (op != Opcode::kTuple && op != Opcode::kGetTupleElement && op != Opcode::kParameter) return false;
  }
  const ir::Shape& s = m.shape(m.computation(c).root);
  if (s.is_array()) return true;
  for (const auto& e : s.tuple_elements())
    if (e.is_array()) return true;
  return false;
}

InstrId inline_branch(ir::Module& m, InstrId cond, size_t b) {
  const InstrId arg[] = {m.operand(cond, b + 1)};
  return inline_computation(m, m.called(cond)[b], m.computation_of(cond), arg);
}

// select(pred, t, f) over arrays, element by element over tuples.
InstrId select_of(ir::Module& m, CompId c, InstrId pred, InstrId t, InstrId f) {
  const ir::Shape shape = m.shape(f);
  if (shape.is_tuple()) {
    std::vector<InstrId> parts;
    for (int64_t k = 0; k < static_cast<int64_t>(shape.tuple_elements().size()); ++k)
      parts.push_back(select_of(m, c, pred, cf::tuple_element(m, t, k), cf::tuple_element(m, f, k)));
    return m.add_instruction(c, Opcode::kTuple, shape, parts);
  }
  if (shape.is_token()) {  // tokens carry no value to select: both orderings join
    const InstrId both[] = {t, f};
    return m.add_instruction(c, Opcode::kAfterAll, shape, both);
  }
  InstrId p = pred;
  if (shape.rank() > 0) {
    const InstrId pred_ops[] = {pred};
    p = m.add_instruction(c, Opcode::kBroadcast, ir::Shape(ir::ElementType::kPred, shape.dims()), pred_ops);
  }
  const InstrId ops[] = {p, t, f};
  return m.add_instruction(c, Opcode::kSelect, shape, ops);
}

bool try_remove_conditional(ir::Module& m, InstrId cond) {
  const auto& branches = m.called(cond);
  for (CompId b : branches)
    if (cf::contains_elided_constant(m, b)) return false;
  const InstrId sel = m.operand(cond, 0);
  if (branches.size() == 1 ||
      (m.opcode(sel) == Opcode::kConstant && !cf::is_elided_constant(m, sel) && !m.literal(sel).is_tuple())) {
    size_t b = 0;
    if (branches.size() > 1) {
      const ir::Literal& v = m.literal(sel);
      if (m.shape(sel).element_type() == ir::ElementType::kPred) b = v.get_int(0) ? 0 : 1;
      else b = v.get_int(0) < 0 || v.get_int(0) >= static_cast<int64_t>(branches.size())
                   ? branches.size() - 1 : static_cast<size_t>(v.get_int(0));
    }
    replace_instruction(m, cond, inline_branch(m, cond, b));
    return true;
  }
  if (branches.size() != 2 || m.shape(sel).element_type() != ir::ElementType::kPred) return false;
  for (CompId b : branches)
    if (!is_cheap(m, b) || forwards_only(m, b)) return false;
  const InstrId t = inline_branch(m, cond, 0), f = inline_branch(m, cond, 1);
  replace_instruction(m, cond, select_of(m, m.computation_of(cond), sel, t, f));
  remove_if_dead(m, t);  // tuple roots whose elements the selects read directly
  remove_if_dead(m, f);
  return true;
}

// The branch in slot `b` of `cond`, copied first if anything else calls it.
CompId own_branch(ir::Module& m, InstrId cond, size_t b, std::vector<int>& callers) {
  const CompId c = m.called(cond)[b];
  if (callers[c] <= 1) return c;
  const CompId copy = clone_computation(m, c, m.unique_name(m.computation(c).name));
  m.mutable_payload(cond).called[b] = copy;
  callers = cf::caller_counts(m);  // the copy calls whatever the branch called
  return copy;
}

// Users are all get-tuple-elements of a tuple-shaped, non-root conditional.
bool only_gte_users(const ir::Module& m, InstrId cond) {
  if (m.users(cond).empty() || m.is_root(cond) || !m.shape(cond).is_tuple()) return false;
  for (InstrId u : m.users(cond))
    if (m.opcode(u) != Opcode::kGetTupleElement) return false;
  return true;
}

bool merge_duplicate_outputs(ir::Module& m, InstrId cond) {
  if (!only_gte_users(m, cond)) return false;
  std::vector<InstrId> roots;
  for (CompId b : m.called(cond)) {
    roots.push_back(m.computation(b).root);
    if (m.opcode(roots.back()) != Opcode::kTuple) return false;
  }
  auto same_everywhere = [&](size_t i, size_t j) {
    for (InstrId r : roots)
      if (m.operand(r, i) != m.operand(r, j)) return false;
    return true;
  };
  bool changed = false;
  std::vector<InstrId> users(m.users(cond).begin(), m.users(cond).end());
  for (InstrId u : users) {
    const auto j = static_cast<size_t>(m.attrs(u).tuple_index);
    for (size_t i = 0; i < j; ++i)
      if (same_everywhere(i, j)) {
        m.mutable_payload(u).attrs.tuple_index = static_cast<int64_t>(i);
        changed = true;
        break;
      }
  }
  return changed;
}

bool remove_unused_outputs(ir::Module& m, InstrId cond, std::vector<int>& callers) {
  if (!only_gte_users(m, cond)) return false;
  const ir::Shape old_shape = m.shape(cond);
  const size_t n = old_shape.tuple_elements().size();
  std::vector<int64_t> new_index(n, -1);
  for (InstrId u : m.users(cond)) new_index[static_cast<size_t>(m.attrs(u).tuple_index)] = 0;
  std::vector<ir::Shape> elems;
  for (size_t k = 0; k < n; ++k)
    if (new_index[k] == 0) new_index[k] = static_cast<int64_t>(elems.size()), elems.push_back(old_shape.tuple_element(k));
  if (elems.size() == n) return false;
  const ir::Shape shape = ir::Shape::tuple(std::move(elems));
  for (size_t b = 0; b < m.called(cond).size(); ++b) {
    const CompId branch = own_branch(m, cond, b, callers);
    const InstrId root = m.computation(branch).root;
    std::vector<InstrId> kept, dropped;
    for (size_t k = 0; k < n; ++k) {
      InstrId v = cf::tuple_element(m, root, static_cast<int64_t>(k));
      (new_index[k] >= 0 ? kept : dropped).push_back(v);
    }
    if (m.opcode(root) == Opcode::kTuple && m.users(root).empty()) {
      m.set_operands(root, kept);
      m.mutable_payload(root).shape = shape;
    } else {
      m.set_root(branch, m.add_instruction(branch, Opcode::kTuple, shape, kept));
    }
    for (InstrId d : dropped) remove_if_dead(m, d);
  }
  m.mutable_payload(cond).shape = shape;
  std::vector<InstrId> users(m.users(cond).begin(), m.users(cond).end());
  for (InstrId u : users) {
    const int64_t k = new_index[static_cast<size_t>(m.attrs(u).tuple_index)];
    if (k != m.attrs(u).tuple_index) m.mutable_payload(u).attrs.tuple_index = k;
  }
  return true;
}

// A conditional nobody reads returns an empty tuple: its branches keep only their side
// effects (XLA's ReplaceRootWithEmptyTupleIfNoUsers).
bool empty_unread_result(ir::Module& m, InstrId cond, std::vector<int>& callers) {
  const ir::Shape empty = ir::Shape::tuple({});
  if (!m.users(cond).empty() || m.is_root(cond) || m.shape(cond) == empty) return false;
  for (size_t b = 0; b < m.called(cond).size(); ++b) {
    const CompId branch = own_branch(m, cond, b, callers);
    const InstrId old_root = m.computation(branch).root;
    m.set_root(branch, m.add_instruction(branch, Opcode::kTuple, empty, {}));
    remove_if_dead(m, old_root);
  }
  m.mutable_payload(cond).shape = empty;
  return true;
}

// Drops the elements of branch b's parameter tuple that the branch never reads (a
// branch shared with another caller is copied first).
bool remove_unused_operand_elements(ir::Module& m, InstrId cond, size_t b, std::vector<int>& callers) {
  CompId branch = m.called(cond)[b];
  if (!cf::params_used_only_by_gte(m, branch)) return false;
  InstrId param = m.computation(branch).params[0];
  const ir::Shape old_shape = m.shape(param);
  if (!old_shape.is_tuple()) return false;
  const size_t n = old_shape.tuple_elements().size();
  std::vector<int64_t> new_index(n, -1);
  for (InstrId g : m.users(param)) new_index[static_cast<size_t>(m.attrs(g).tuple_index)] = 0;
  if (std::find(new_index.begin(), new_index.end(), -1) == new_index.end()) return false;
  branch = own_branch(m, cond, b, callers);
  param = m.computation(branch).params[0];
  const InstrId arg = m.operand(cond, b + 1);
  std::vector<InstrId> values;
  std::vector<ir::Shape> elems;
  for (size_t k = 0; k < n; ++k) {
    if (new_index[k] < 0) continue;
    new_index[k] = static_cast<int64_t>(elems.size());
    elems.push_back(old_shape.tuple_element(k));
  }
  if (elems.size() == n) return false;
  for (size_t k = 0; k < n; ++k)
    if (new_index[k] >= 0) values.push_back(cf::tuple_element(m, arg, static_cast<int64_t>(k)));
  const ir::Shape shape = ir::Shape::tuple(std::move(elems));
  m.set_operand(cond, b + 1, m.add_instruction(m.computation_of(cond), Opcode::kTuple, shape, values));
  remove_if_dead(m, arg);
  m.mutable_payload(param).shape = shape;
  std::vector<InstrId> gtes(m.users(param).begin(), m.users(param).end());
  for (InstrId g : gtes) {
    const int64_t k = new_index[static_cast<size_t>(m.attrs(g).tuple_index)];
    if (k != m.attrs(g).tuple_index) m.mutable_payload(g).attrs.tuple_index = k;
  }
  return true;
}

class ConditionalSimplifier final : public Pass {
 public:
  std::string_view name() const override { return "simplify-conditional"; }
  std::string_view description() const override {
    return "inlines conditionals with a constant selector, turns cheap ones into selects, prunes outputs";
  }
  bool run(ir::Module& m) override {
    std::vector<int> callers = cf::caller_counts(m);
    const std::unordered_set<InstrId> fenced = with_control_edges(m);
    bool changed = false, removed = false;
    for (InstrId cond : cf::collect_ops(m, Opcode::kConditional, /*callers_first=*/false)) {
      if (!m.is_live(cond) || m.called(cond).size() + 1 != m.operands(cond).size()) continue;
      if (m.attrs(cond).find_opaque("sharding") || fenced.count(cond) || cf::calls_send_or_recv(m, cond)) continue;
      changed |= merge_duplicate_outputs(m, cond);
      changed |= remove_unused_outputs(m, cond, callers);
      changed |= empty_unread_result(m, cond, callers);
      if (!has_side_effect(m, cond) && try_remove_conditional(m, cond)) {
        changed = removed = true;
        continue;
      }
      for (size_t b = 0; b < m.called(cond).size(); ++b) changed |= remove_unused_operand_elements(m, cond, b, callers);
    }
    if (removed) remove_unreachable_computations(m);
    return changed;
  }
};

}  // namespace

PassPtr make_conditional_simplifier() { return std::make_unique<ConditionalSimplifier>(); }

}  // namespace hlsgym::passes
