// Edits of a while loop's state tuple shared by simplify-while-loops, hlo-module-dce and
// while-loop-invariant-code-motion (declared in control_flow_util.h).
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "passes/control_flow_util.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes::control_flow {
using ir::CompId;
using ir::InstrId;
using ir::Opcode;

void replace_uses_except(ir::Module& m, InstrId from, InstrId to, InstrId keep_user, size_t keep_slot) {
  std::vector<InstrId> users(m.users(from).begin(), m.users(from).end());
  std::vector<InstrId> ops;
  for (InstrId u : users) {
    ops.assign(m.operands(u).begin(), m.operands(u).end());
    bool edited = false;
    for (size_t k = 0; k < ops.size(); ++k)
      if (ops[k] == from && !(u == keep_user && k == keep_slot)) ops[k] = to, edited = true;
    if (edited) m.set_operands(u, ops);
  }
  if (m.is_root(from)) m.set_root(m.computation_of(from), to);
}

bool remove_with_users(ir::Module& m, InstrId start) {
  // Post order over users: every instruction comes after all of its users.
  std::vector<InstrId> order;
  std::unordered_set<InstrId> seen{start};
  std::vector<std::pair<InstrId, size_t>> stack{{start, 0}};
  while (!stack.empty()) {
    auto& [x, k] = stack.back();
    auto us = m.users(x);
    if (k < us.size()) {
      InstrId u = us[k++];
      if (seen.insert(u).second) stack.emplace_back(u, 0);
      continue;
    }
    if (m.is_root(x) || m.opcode(x) == Opcode::kParameter || has_side_effect(m, x)) return false;
    order.push_back(x);
    stack.pop_back();
  }
  for (InstrId x : order) m.remove_instruction(x);
  return true;
}

namespace {

// For every instruction of a loop computation, the set of state elements it reads
// (bitsets, one row per instruction). The parameter must be used only by
// get-tuple-element.
class StateReads {
 public:
  StateReads(const ir::Module& m, CompId c, size_t n) : words_((n + 63) / 64) {
    const InstrId param = m.computation(c).params[0];
    for (InstrId i : local_post_order(m, c)) {
      const size_t row = pos_.size();
      pos_.emplace(i, row);
      bits_.resize(bits_.size() + words_, 0);
      if (m.opcode(i) == Opcode::kGetTupleElement && m.operand(i, 0) == param) {
        const auto k = static_cast<size_t>(m.attrs(i).tuple_index);
        bits_[row * words_ + k / 64] |= uint64_t{1} << (k % 64);
        continue;
      }
      for (InstrId o : m.operands(i))
        if (o != param) or_row(row, pos_.at(o));
    }
  }
  bool reads(InstrId i, size_t k) const {
    return (bits_[pos_.at(i) * words_ + k / 64] >> (k % 64)) & 1;
  }
  // out |= row of i
  void add_to(InstrId i, std::vector<uint64_t>& out) const {
    const size_t r = pos_.at(i);
    for (size_t w = 0; w < words_; ++w) out[w] |= bits_[r * words_ + w];
  }

 private:
  void or_row(size_t dst, size_t src) {
    for (size_t w = 0; w < words_; ++w) bits_[dst * words_ + w] |= bits_[src * words_ + w];
  }
  size_t words_;
  std::unordered_map<InstrId, size_t> pos_;
  std::vector<uint64_t> bits_;
};

bool test(const std::vector<uint64_t>& bits, size_t k) { return (bits[k / 64] >> (k % 64)) & 1; }

// Elements read by the condition's root or by any side-effecting instruction.
std::vector<uint64_t> observed_elements(const ir::Module& m, CompId cond, CompId body, const StateReads& cr,
                                        const StateReads& br, size_t n) {
  std::vector<uint64_t> out((n + 63) / 64, 0);
  cr.add_to(m.computation(cond).root, out);
  for (auto [c, reads] : {std::pair{cond, &cr}, std::pair{body, &br}})
    for (InstrId i : m.instructions(c))
      if (has_side_effect(m, i)) reads->add_to(i, out);
  return out;
}

// Which elements are read after the loop: all if the loop value escapes whole.
std::vector<bool> used_after_loop(const ir::Module& m, InstrId w, size_t n) {
  std::vector<bool> used(n, m.is_root(w));
  for (InstrId u : m.users(w)) {
    if (m.opcode(u) != Opcode::kGetTupleElement) return std::vector<bool>(n, true);
    used[static_cast<size_t>(m.attrs(u).tuple_index)] = true;
  }
  return used;
}

// The elements that can go (see remove_dead_state_elements), as a mask.
std::vector<bool> dead_elements(const ir::Module& m, InstrId w, size_t n) {
  const CompId cond = m.called(w)[0], body = m.called(w)[1];
  const InstrId root = m.computation(body).root, param = m.computation(body).params[0];
  StateReads br(m, body, n), cr(m, cond, n);
  const std::vector<uint64_t> observed = observed_elements(m, cond, body, cr, br, n);
  const std::vector<bool> used_after = used_after_loop(m, w, n);
  std::vector<bool> dead(n);
  for (size_t k = 0; k < n; ++k) {
    const InstrId out = m.operand(root, k);
    const bool passed_through = m.opcode(out) == Opcode::kGetTupleElement && m.operand(out, 0) == param &&
                                m.attrs(out).tuple_index == static_cast<int64_t>(k);
    dead[k] = (!used_after[k] || passed_through) && !test(observed, k);
  }
  // An element that stays keeps alive everything its next value reads.
  for (bool shrunk = true; shrunk;) {
    shrunk = false;
    for (size_t j = 0; j < n; ++j) {
      if (dead[j]) continue;
      for (size_t k = 0; k < n; ++k)
        if (dead[k] && br.reads(m.operand(root, j), k)) dead[k] = false, shrunk = true;
    }
  }
  return dead;
}

ir::Shape kept_shape(const ir::Shape& state, const std::vector<int64_t>& new_index) {
  std::vector<ir::Shape> elems;
  for (size_t k = 0; k < new_index.size(); ++k)
    if (new_index[k] >= 0) elems.push_back(state.tuple_element(static_cast<int64_t>(k)));
  return ir::Shape::tuple(std::move(elems));
}

// Renumbers the get-tuple-elements of parameter 0 of `c` and removes those of dead
// elements together with the (dead) code that reads them.
void renumber_parameter(ir::Module& m, CompId c, const ir::Shape& shape, const std::vector<int64_t>& new_index) {
  const InstrId param = m.computation(c).params[0];
  m.mutable_payload(param).shape = shape;
  std::vector<InstrId> gtes(m.users(param).begin(), m.users(param).end());
  for (InstrId g : gtes) {
    const int64_t k = new_index[static_cast<size_t>(m.attrs(g).tuple_index)];
    if (k < 0) remove_with_users(m, g);
    else if (k != m.attrs(g).tuple_index) m.mutable_payload(g).attrs.tuple_index = k;
  }
}

// Points the users of while `w` (whose state just lost elements) at the right values.
void rewire_loop_users(ir::Module& m, InstrId w, const ir::Shape& old_state, InstrId old_init,
                       const std::vector<int64_t>& new_index) {
  const CompId c = m.computation_of(w);
  std::vector<InstrId> users(m.users(w).begin(), m.users(w).end());
  std::vector<InstrId> others;
  for (InstrId u : users) {
    if (m.opcode(u) != Opcode::kGetTupleElement) {
      others.push_back(u);
      continue;
    }
    const int64_t old_k = m.attrs(u).tuple_index, k = new_index[static_cast<size_t>(old_k)];
    if (k < 0) replace_instruction(m, u, tuple_element(m, old_init, old_k));  // passed through
    else if (k != old_k) m.mutable_payload(u).attrs.tuple_index = k;
  }
  if (others.empty() && !m.is_root(w)) return;
  std::vector<InstrId> elems;
  for (size_t k = 0; k < new_index.size(); ++k)
    elems.push_back(new_index[k] >= 0 ? tuple_element(m, w, new_index[k])
                                      : tuple_element(m, old_init, static_cast<int64_t>(k)));
  const InstrId whole = m.add_instruction(c, Opcode::kTuple, old_state, elems);
  for (InstrId u : others) {
    std::vector<InstrId> ops(m.operands(u).begin(), m.operands(u).end());
    std::replace(ops.begin(), ops.end(), w, whole);
    m.set_operands(u, ops);
  }
  if (m.is_root(w)) m.set_root(c, whole);
}
}  // namespace

bool state_is_editable(const ir::Module& m, InstrId w, const std::vector<int>& callers) {
  if (m.opcode(w) != Opcode::kWhile || m.called(w).size() != 2 || !m.shape(w).is_tuple()) return false;
  const size_t n = m.shape(w).tuple_elements().size();
  const CompId cond = m.called(w)[0], body = m.called(w)[1];
  if (n == 0 || cond >= callers.size() || body >= callers.size() || callers[cond] != 1 || callers[body] != 1)
    return false;
  const InstrId root = m.computation(body).root;
  if (m.opcode(root) != Opcode::kTuple || m.operands(root).size() != n || !m.users(root).empty()) return false;
  return params_used_only_by_gte(m, body) && params_used_only_by_gte(m, cond);
}

bool remove_dead_state_elements(ir::Module& m, InstrId w, const std::vector<int>& callers) {
  if (!state_is_editable(m, w, callers)) return false;
  const std::vector<bool> dead = dead_elements(m, w, m.shape(w).tuple_elements().size());
  if (std::find(dead.begin(), dead.end(), true) == dead.end()) return false;
  drop_state_elements(m, w, dead);
  return true;
}

void drop_state_elements(ir::Module& m, InstrId w, const std::vector<bool>& dropped) {
  const ir::Shape state = m.shape(w);
  const size_t n = state.tuple_elements().size();
  const CompId cond = m.called(w)[0], body = m.called(w)[1];
  const InstrId root = m.computation(body).root;
  std::vector<int64_t> new_index(n, -1);
  std::vector<InstrId> kept_outputs, dropped_outputs;
  for (size_t k = 0, next = 0; k < n; ++k) {
    if (dropped[k]) dropped_outputs.push_back(m.operand(root, k));
    else new_index[k] = static_cast<int64_t>(next++), kept_outputs.push_back(m.operand(root, k));
  }
  const ir::Shape shape = kept_shape(state, new_index);
  // The loop and its users.
  const InstrId old_init = m.operand(w, 0);
  std::vector<InstrId> init_values;
  for (size_t k = 0; k < n; ++k)
    if (!dropped[k]) init_values.push_back(tuple_element(m, old_init, static_cast<int64_t>(k)));
  const InstrId new_init = m.add_instruction(m.computation_of(w), Opcode::kTuple, shape, init_values);
  m.set_operand(w, 0, new_init);
  m.mutable_payload(w).shape = shape;
  rewire_loop_users(m, w, state, old_init, new_index);
  remove_if_dead(m, old_init);
  // The body's root and both parameters.
  m.set_operands(root, kept_outputs);
  m.mutable_payload(root).shape = shape;
  renumber_parameter(m, body, shape, new_index);
  renumber_parameter(m, cond, shape, new_index);
  for (InstrId o : dropped_outputs) remove_if_dead(m, o);
}

InstrId extend_while_state(ir::Module& m, InstrId w, std::span<const InstrId> extra_init) {
  const CompId c = m.computation_of(w);
  const ir::Shape old_state = m.shape(w);
  const size_t n = old_state.tuple_elements().size();
  const InstrId old_init = m.operand(w, 0);
  std::vector<InstrId> values;
  std::vector<ir::Shape> elems = old_state.tuple_elements();
  for (size_t k = 0; k < n; ++k) values.push_back(tuple_element(m, old_init, static_cast<int64_t>(k)));
  for (InstrId e : extra_init) values.push_back(e), elems.push_back(m.shape(e));
  const ir::Shape state = ir::Shape::tuple(std::move(elems));
  std::vector<InstrId> users(m.users(w).begin(), m.users(w).end());
  const bool was_root = m.is_root(w);
  const InstrId new_init = m.add_instruction(c, Opcode::kTuple, state, values);
  m.set_operand(w, 0, new_init);
  m.mutable_payload(w).shape = state;
  remove_if_dead(m, old_init);
  std::vector<InstrId> others;
  for (InstrId u : users)
    if (m.opcode(u) != Opcode::kGetTupleElement) others.push_back(u);
  if (others.empty() && !was_root) return new_init;
  std::vector<InstrId> parts;
  for (size_t k = 0; k < n; ++k) parts.push_back(tuple_element(m, w, static_cast<int64_t>(k)));
  const InstrId whole = m.add_instruction(c, Opcode::kTuple, old_state, parts);
  for (InstrId u : others) {
    std::vector<InstrId> ops(m.operands(u).begin(), m.operands(u).end());
    std::replace(ops.begin(), ops.end(), w, whole);
    m.set_operands(u, ops);
  }
  if (was_root) m.set_root(c, whole);
  return new_init;
}

namespace {
bool holds_channel_op(const ir::Module& m, CompId c, int depth) {
  for (InstrId i : m.computation(c).order) {
    if (!m.is_live(i)) continue;
    const Opcode op = m.opcode(i);
    if (op == Opcode::kSend || op == Opcode::kSendDone || op == Opcode::kRecv || op == Opcode::kRecvDone) return true;
    for (CompId callee : m.called(i))
      if (depth < 64 && holds_channel_op(m, callee, depth + 1)) return true;
  }
  return false;
}
}  // namespace

bool calls_send_or_recv(const ir::Module& m, InstrId i) {
  for (CompId c : m.called(i))
    if (holds_channel_op(m, c, 0)) return true;
  return false;
}

bool computation_has_side_effect(const ir::Module& m, CompId c) {
  for (InstrId i : m.computation(c).order)
    if (m.is_live(i) && has_side_effect(m, i)) return true;
  return false;
}

namespace {
bool is_state_read(const ir::Module& m, InstrId g, InstrId param, int64_t k) {
  return m.opcode(g) == Opcode::kGetTupleElement && m.operand(g, 0) == param && m.attrs(g).tuple_index == k;
}
// True if `g` has a use other than operand `slot` of `root`.
bool has_other_use(const ir::Module& m, InstrId g, InstrId root, size_t slot) {
  for (InstrId u : m.users(g)) {
    if (u != root) return true;
    auto ops = m.operands(u);
    for (size_t j = 0; j < ops.size(); ++j)
      if (ops[j] == g && j != slot) return true;
  }
  return false;
}
}  // namespace

bool sink_constants_into_loop(ir::Module& m, InstrId w, bool scalars_only, bool keep_pass_through) {
  const InstrId init = m.operand(w, 0);
  const CompId cond = m.called(w)[0], body = m.called(w)[1];
  const InstrId root = m.computation(body).root;
  if (m.opcode(init) != Opcode::kTuple || m.opcode(root) != Opcode::kTuple) return false;
  if (m.computation(body).params.size() != 1 || m.computation(cond).params.size() != 1) return false;
  const InstrId bparam = m.computation(body).params[0], cparam = m.computation(cond).params[0];
  bool changed = false;
  for (size_t k = 0; k < m.operands(root).size() && k < m.operands(init).size(); ++k) {
    const InstrId value = m.operand(init, k);
    const auto key = static_cast<int64_t>(k);
    if (m.opcode(value) != Opcode::kConstant || is_elided_constant(m, value)) continue;
    if (scalars_only && (m.literal(value).is_tuple() || m.shape(value).rank() != 0)) continue;
    if (!is_state_read(m, m.operand(root, k), bparam, key)) continue;  // not loop-invariant
    InstrId copy = ir::kNoId;
    std::vector<InstrId> reads(m.users(bparam).begin(), m.users(bparam).end());
    for (InstrId g : reads) {
      if (!is_state_read(m, g, bparam, key) || (keep_pass_through && !has_other_use(m, g, root, k))) continue;
      if (copy == ir::kNoId) copy = m.add_clone(body, value, {});
      if (keep_pass_through) {
        replace_uses_except(m, g, copy, root, k);
      } else {
        replace_uses_except(m, g, copy, ir::kNoId, 0);
        remove_if_dead(m, g);
      }
      changed = true;
    }
    copy = ir::kNoId;
    reads.assign(m.users(cparam).begin(), m.users(cparam).end());
    for (InstrId g : reads) {
      if (!is_state_read(m, g, cparam, key) || (m.users(g).empty() && !m.is_root(g))) continue;
      if (copy == ir::kNoId) copy = m.add_clone(cond, value, {});
      replace_uses_except(m, g, copy, ir::kNoId, 0);
      remove_if_dead(m, g);
      changed = true;
    }
  }
  return changed;
}

bool remove_dead_code(ir::Module& m) {
  bool changed = false;
  const std::unordered_set<InstrId> fenced = with_control_edges(m);  // XLA keeps them
  for (CompId c : m.live_computations()) {
    for (size_t k = m.computation(c).order.size(); k-- > 0;) {
      const InstrId i = m.computation(c).order[k];
      if (m.is_live(i) && m.users(i).empty() && !m.is_root(i) && !fenced.count(i))
        changed |= remove_if_dead(m, i) > 0;
    }
  }
  std::vector<bool> reachable(m.computation_slots(), false);
  for (CompId c : callees_first(m)) reachable[c] = true;
  for (CompId c : m.live_computations())
    if (!reachable[c]) {
      m.remove_computation(c);
      changed = true;
    }
  return changed;
}

}  // namespace hlsgym::passes::control_flow
