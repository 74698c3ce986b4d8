#include "passes/control_flow_util.h"

#include <algorithm>
#include <exception>
#include <string>
#include <unordered_set>

#include "ir/evaluate.h"
#include "ir/verifier.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes::control_flow {
using ir::CompId;
using ir::InstrId;
using ir::Literal;
using ir::Opcode;

std::vector<int> caller_counts(const ir::Module& m) {
  std::vector<int> counts(m.computation_slots(), 0);
  for (CompId c : m.live_computations())
    for (InstrId i : m.computation(c).order)
      if (m.is_live(i))
        for (CompId k : m.called(i))
          if (k < counts.size()) ++counts[k];
  return counts;
}

std::vector<InstrId> local_post_order(const ir::Module& m, CompId c) {
  const ir::Computation& comp = m.computation(c);
  std::unordered_map<InstrId, uint32_t> index;
  index.reserve(comp.order.size());
  for (InstrId i : comp.order)
    if (m.is_live(i)) index.emplace(i, static_cast<uint32_t>(index.size()));
  std::vector<uint8_t> state(index.size(), 0);
  std::vector<InstrId> out;
  out.reserve(index.size());
  std::vector<std::pair<InstrId, uint32_t>> stack;
  auto visit = [&](InstrId start) {
    auto it = index.find(start);
    if (it == index.end() || state[it->second]) return;
    state[it->second] = 1;
    stack.emplace_back(start, 0);
    while (!stack.empty()) {
      auto& [id, k] = stack.back();
      auto ops = m.operands(id);
      if (k < ops.size()) {
        const InstrId next = ops[k++];
        auto nt = index.find(next);
        if (nt != index.end() && !state[nt->second]) {
          state[nt->second] = 1;
          stack.emplace_back(next, 0);
        }
        continue;
      }
      out.push_back(id);
      stack.pop_back();
    }
  };
  for (InstrId p : comp.params)
    if (p != ir::kNoId) visit(p);
  if (comp.root != ir::kNoId) visit(comp.root);
  for (InstrId i : comp.order) visit(i);
  return out;
}

std::vector<CompId> callees_first(const ir::Module& m) {
  std::vector<CompId> out;
  if (m.entry() == ir::kNoId) return out;
  std::vector<uint8_t> state(m.computation_slots(), 0);
  // Iterative DFS; an entry is (computation, position in its instruction order, position
  // in that instruction's callee list).
  struct Frame { CompId c; size_t i, k; };
  std::vector<Frame> stack{{m.entry(), 0, 0}};
  state[m.entry()] = 1;
  while (!stack.empty()) {
    Frame& f = stack.back();
    const auto& order = m.computation(f.c).order;
    if (f.i == order.size()) {
      out.push_back(f.c);
      stack.pop_back();
      continue;
    }
    const InstrId i = order[f.i];
    const auto* called = m.is_live(i) ? &m.called(i) : nullptr;
    if (!called || f.k >= called->size()) {
      ++f.i, f.k = 0;
      continue;
    }
    const CompId next = (*called)[f.k++];
    if (next < state.size() && !state[next] && !m.computation(next).dead) {
      state[next] = 1;
      stack.push_back({next, 0, 0});
    }
  }
  return out;
}

bool is_elided_constant(const ir::Module& m, InstrId i) {
  return m.opcode(i) == Opcode::kConstant && m.payload(i).literal && m.literal(i).elided();
}

namespace {
bool elided_in(const ir::Module& m, CompId c, std::unordered_set<CompId>& seen) {
  if (!seen.insert(c).second) return false;
  for (InstrId i : m.computation(c).order) {
    if (!m.is_live(i)) continue;
    if (is_elided_constant(m, i)) return true;
    for (CompId k : m.called(i))
      if (elided_in(m, k, seen)) return true;
  }
  return false;
}

// Copies computations (and what they call) from one module into another, keeping names,
// so that a small module can be handed to the interpreter.
class Copier {
 public:
  Copier(const ir::Module& from, ir::Module& to) : from_(from), to_(to) {}

  InstrId copy_instruction(CompId into, InstrId i, std::span<const InstrId> operands) {
    const ir::InstrPayload& p = from_.payload(i);
    std::vector<CompId> called;
    for (CompId k : p.called) called.push_back(copy_computation(k));
    InstrId id = to_.add_instruction(into, from_.opcode(i), p.shape, operands, p.attrs, p.name);
    if (p.literal || !called.empty()) {
      ir::InstrPayload& np = to_.mutable_payload(id);
      np.literal = p.literal;
      np.called = std::move(called);
    }
    return id;
  }

 private:
  CompId copy_computation(CompId c) {
    if (auto it = map_.find(c); it != map_.end()) return it->second;
    const CompId nc = to_.add_computation(from_.computation(c).name);
    map_.emplace(c, nc);
    std::unordered_map<InstrId, InstrId> ids;
    std::vector<InstrId> ops;
    for (InstrId i : local_post_order(from_, c)) {
      ops.clear();
      for (InstrId o : from_.operands(i)) ops.push_back(ids.at(o));
      ids.emplace(i, copy_instruction(nc, i, ops));
    }
    to_.set_root(nc, ids.at(from_.computation(c).root));
    return nc;
  }

  const ir::Module& from_;
  ir::Module& to_;
  std::unordered_map<CompId, CompId> map_;
};

// dynamic-slice / dynamic-update-slice in the scalar-index form the interpreter reads.
bool indexing_form_ok(const ir::Module& m, InstrId i, std::span<const Literal* const> operands) {
  const Opcode op = m.opcode(i);
  if (op != Opcode::kDynamicSlice && op != Opcode::kDynamicUpdateSlice) return true;
  const size_t first = op == Opcode::kDynamicSlice ? 1 : 2;
  if (operands.empty() || operands.size() != first + static_cast<size_t>(operands[0]->shape().rank()))
    return false;
  for (size_t k = first; k < operands.size(); ++k)
    if (operands[k]->shape().rank() != 0) return false;
  return true;
}
}  // namespace

bool contains_elided_constant(const ir::Module& m, CompId c) {
  std::unordered_set<CompId> seen;
  return elided_in(m, c, seen);
}

std::optional<Literal> evaluate_instruction(const ir::Module& m, InstrId i,
                                            std::span<const Literal* const> operands) {
  if (operands.size() != m.operands(i).size() || !indexing_form_ok(m, i, operands)) return std::nullopt;
  for (const Literal* o : operands)
    if (o == nullptr || o->elided()) return std::nullopt;
  ir::Module tmp("evaluate_one");
  const CompId entry = tmp.add_computation("entry");
  tmp.set_entry(entry);
  std::vector<InstrId> params;
  std::vector<Literal> args;
  for (size_t k = 0; k < operands.size(); ++k) {
    params.push_back(tmp.add_parameter(entry, static_cast<int64_t>(k), operands[k]->shape(),
                                       "arg" + std::to_string(k)));
    args.push_back(*operands[k]);
  }
  Copier copier(m, tmp);
  tmp.set_root(entry, copier.copy_instruction(entry, i, params));
  if (!ir::verify_all(tmp).empty()) return std::nullopt;
  try {
    ir::EvalOptions o;
    o.allow_placeholders = false;
    o.max_while_iterations = 100'000;
    ir::EvalResult r = ir::evaluate(tmp, args, o);
    if (r.uses_placeholders || !r.value.shape().compatible(m.shape(i))) return std::nullopt;
    return std::move(r.value);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// ---- partial evaluation of loop computations ----

StateEvaluator::StateEvaluator(const ir::Module& m, CompId c, const std::vector<const Literal*>& known)
    : m_(m), param_(m.computation(c).params.empty() ? ir::kNoId : m.computation(c).params[0]), known_(known) {}

const Literal* StateEvaluator::value(InstrId i) { return compute(i, 0); }

namespace {
// Ops never evaluated ahead of time: side effects, placeholders, loops, device queries.
bool opaque_to_evaluation(const ir::Module& m, InstrId i) {
  switch (m.opcode(i)) {
    case Opcode::kCustomCall: case Opcode::kRng: case Opcode::kRngBitGenerator:
    case Opcode::kRngGetAndUpdateState: case Opcode::kWhile: case Opcode::kAfterAll:
    case Opcode::kPartitionId: case Opcode::kReplicaId: case Opcode::kParameter:
      return true;
    default:
      return ir::info(m.opcode(i)).category == ir::OpCategory::kCollective || has_side_effect(m, i);
  }
}
}  // namespace

const Literal* StateEvaluator::compute(InstrId i, int depth) {
  const Opcode op = m_.opcode(i);
  if (op == Opcode::kConstant)
    return m_.payload(i).literal && !m_.literal(i).elided() ? &m_.literal(i) : nullptr;
  if (op == Opcode::kGetTupleElement && m_.operand(i, 0) == param_) {
    const auto k = static_cast<size_t>(m_.attrs(i).tuple_index);
    return k < known_.size() ? known_[k] : nullptr;
  }
  if (auto it = memo_.find(i); it != memo_.end()) return it->second ? &*it->second : nullptr;
  std::optional<Literal> result;
  const ir::Shape& s = m_.shape(i);
  const bool small = s.is_tuple() ? s.byte_size() <= (1 << 16) : s.is_array() && s.element_count() <= 4096;
  if (depth < 64 && budget_-- > 0 && small && !opaque_to_evaluation(m_, i)) {
    std::vector<const Literal*> ops;
    for (InstrId o : m_.operands(i)) ops.push_back(compute(o, depth + 1));
    if (std::find(ops.begin(), ops.end(), nullptr) == ops.end()) result = evaluate_instruction(m_, i, ops);
  }
  auto& slot = memo_[i];  // node-based map: the address stays valid
  slot = std::move(result);
  return slot ? &*slot : nullptr;
}

std::vector<bool> state_indices_read(const ir::Module& m, CompId c, InstrId i, size_t n) {
  std::vector<bool> read(n, false);
  const InstrId param = m.computation(c).params.empty() ? ir::kNoId : m.computation(c).params[0];
  std::unordered_set<InstrId> seen{i};
  std::vector<InstrId> work{i};
  while (!work.empty()) {
    InstrId x = work.back();
    work.pop_back();
    if (x == param) {  // the whole state flows somewhere: assume everything is read
      std::fill(read.begin(), read.end(), true);
      return read;
    }
    if (m.opcode(x) == Opcode::kGetTupleElement && m.operand(x, 0) == param) {
      const auto k = static_cast<size_t>(m.attrs(x).tuple_index);
      if (k < n) read[k] = true;
      continue;
    }
    for (InstrId o : m.operands(x))
      if (seen.insert(o).second) work.push_back(o);
  }
  return read;
}

namespace {
// The constant init value of every element in `needed`, or false if one is not constant.
bool constant_init(const ir::Module& m, InstrId init, const std::vector<bool>& needed,
                   std::vector<const Literal*>& known) {
  for (size_t k = 0; k < needed.size(); ++k) {
    if (!needed[k]) continue;
    if (m.opcode(init) == Opcode::kTuple) {
      InstrId e = m.operand(init, k);
      // get-tuple-element(tuple(..., c, ...)) is c (what tuple-simplifier would fold).
      while (m.opcode(e) == Opcode::kGetTupleElement && m.opcode(m.operand(e, 0)) == Opcode::kTuple)
        e = m.operand(m.operand(e, 0), static_cast<size_t>(m.attrs(e).tuple_index));
      if (m.opcode(e) != Opcode::kConstant || m.literal(e).elided()) return false;
      known[k] = &m.literal(e);
    } else if (m.opcode(init) == Opcode::kConstant && !m.literal(init).elided() && m.literal(init).is_tuple()) {
      known[k] = &m.literal(init).tuple_elements()[k];
    } else {
      return false;
    }
  }
  return true;
}
}  // namespace

namespace {
// The state elements the condition of loop `w` reads, closed over what the body computes
// them from (all of them false if the body root is not a tuple of the state).
std::vector<bool> elements_deciding_the_exit(const ir::Module& m, InstrId w, size_t n, bool tuple_root) {
  const CompId cond = m.called(w)[0], body = m.called(w)[1];
  const InstrId body_root = m.computation(body).root;
  std::vector<bool> needed = state_indices_read(m, cond, m.computation(cond).root, n);
  for (bool grew = true; grew && tuple_root;) {
    grew = false;
    for (size_t k = 0; k < n; ++k) {
      if (!needed[k]) continue;
      auto reads = state_indices_read(m, body, m.operand(body_root, k), n);
      for (size_t j = 0; j < n; ++j)
        if (reads[j] && !needed[j]) needed[j] = grew = true;
    }
  }
  return needed;
}

bool is_loop_with_tuple_state(const ir::Module& m, InstrId w) {
  return m.opcode(w) == Opcode::kWhile && m.called(w).size() == 2 && m.shape(w).is_tuple();
}
}  // namespace

std::optional<int64_t> static_trip_count(const ir::Module& m, InstrId w, int64_t limit) {
  if (!is_loop_with_tuple_state(m, w)) return std::nullopt;
  const CompId cond = m.called(w)[0], body = m.called(w)[1];
  const size_t n = m.shape(w).tuple_elements().size();
  const InstrId cond_root = m.computation(cond).root, body_root = m.computation(body).root;
  const bool tuple_root = m.opcode(body_root) == Opcode::kTuple && m.operands(body_root).size() == n;
  const std::vector<bool> needed = elements_deciding_the_exit(m, w, n, tuple_root);
  std::vector<const Literal*> known(n, nullptr);
  if (!constant_init(m, m.operand(w, 0), needed, known)) return std::nullopt;
  std::vector<std::optional<Literal>> state(n), next(n);
  for (int64_t it = 0; it <= limit; ++it) {
    StateEvaluator ce(m, cond, known);
    const Literal* go = ce.value(cond_root);
    if (!go || go->is_tuple() || go->element_count() != 1) return std::nullopt;
    if (go->get_int(0) == 0) return it;
    if (it == limit || !tuple_root) return std::nullopt;
    StateEvaluator be(m, body, known);
    for (size_t k = 0; k < n; ++k) {
      if (!needed[k]) continue;
      const Literal* v = be.value(m.operand(body_root, k));
      if (!v) return std::nullopt;
      next[k] = *v;
    }
    std::swap(state, next);
    for (size_t k = 0; k < n; ++k) known[k] = state[k] ? &*state[k] : nullptr;
  }
  return std::nullopt;
}

bool runs_at_most_once(const ir::Module& m, InstrId w) {
  if (auto trips = static_trip_count(m, w, 1)) return *trips <= 1;
  if (!is_loop_with_tuple_state(m, w)) return false;
  const CompId cond = m.called(w)[0], body = m.called(w)[1];
  const size_t n = m.shape(w).tuple_elements().size();
  const InstrId body_root = m.computation(body).root;
  if (m.opcode(body_root) != Opcode::kTuple || m.operands(body_root).size() != n) return false;
  const std::vector<bool> needed = elements_deciding_the_exit(m, w, n, true);
  // What one run of the body leaves in the deciding elements, whatever the start.
  const std::vector<const Literal*> unknown(n, nullptr);
  StateEvaluator be(m, body, unknown);
  std::vector<std::optional<Literal>> after(n);
  std::vector<const Literal*> known(n, nullptr);
  for (size_t k = 0; k < n; ++k) {
    if (!needed[k]) continue;
    const Literal* v = be.value(m.operand(body_root, k));
    if (!v) return false;
    after[k] = *v;
    known[k] = &*after[k];
  }
  StateEvaluator ce(m, cond, known);
  const Literal* go = ce.value(m.computation(cond).root);
  return go && !go->is_tuple() && go->element_count() == 1 && go->get_int(0) == 0;
}

InstrId tuple_element(ir::Module& m, InstrId t, int64_t k) {
  if (m.opcode(t) == Opcode::kTuple) return m.operand(t, static_cast<size_t>(k));
  ir::Attributes a;
  a.tuple_index = k;
  const InstrId t_ops[] = {t};
  return m.add_instruction(m.computation_of(t), Opcode::kGetTupleElement, m.shape(t).tuple_element(k), t_ops,
                           std::move(a));
}

bool params_used_only_by_gte(const ir::Module& m, CompId c) {
  const auto& params = m.computation(c).params;
  if (params.size() != 1 || params[0] == ir::kNoId) return false;
  if (m.is_root(params[0])) return false;
  for (InstrId u : m.users(params[0]))
    if (m.opcode(u) != Opcode::kGetTupleElement) return false;
  return true;
}

std::vector<InstrId> collect_ops(const ir::Module& m, Opcode op, bool callers_first) {
  // One cheap scan first: most modules have no loop or conditional at all, and the
  // computation order costs more than the scan.
  bool any = false;
  for (CompId c : m.live_computations())
    for (InstrId i : m.computation(c).order) any = any || (m.is_live(i) && m.opcode(i) == op);
  if (!any) return {};
  std::vector<CompId> order = callees_first(m);
  if (callers_first) std::reverse(order.begin(), order.end());
  std::vector<InstrId> out;
  for (CompId c : order)
    for (InstrId i : m.computation(c).order)
      if (m.is_live(i) && m.opcode(i) == op) out.push_back(i);
  return out;
}

}  // namespace hlsgym::passes::control_flow
