// while-loop-invariant-code-motion (XLA WhileLoopInvariantCodeMotion with its defaults:
// hoist_constants=false, hoist_reshapes=false, hoist_other=true): an instruction of a
// while body whose operands are all loop-invariant — constants, state elements the
// body passes through unchanged, or other invariant instructions — and that has no side
// effect is computed once before the loop; its value enters the loop as a new state
// element that the body passes through. Constants, reshapes, bitcasts, broadcasts,
// iotas, reverses, slices, transposes and tuples are not worth hoisting on their own
// (they are copied out only when a hoisted user needs them). Instructions whose result
// is more than twice the bytes they read stay in the loop (hoisting would grow the loop
// state), as do while loops (hoisting one out of a loop that never runs could make a
// terminating program run forever). Loops that run their body at most once, loops
// whose body or condition has another caller, and bodies with domain or sharding /
// host-offload annotations are skipped; so are instructions with control edges.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "passes/control_flow_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::CompId;
using ir::InstrId;
using ir::Opcode;
namespace cf = control_flow;

bool not_worth_hoisting_alone(const ir::Module& m, InstrId i) {
  switch (m.opcode(i)) {
    case Opcode::kConstant: case Opcode::kReshape: case Opcode::kBitcast: case Opcode::kBroadcast:
    case Opcode::kIota: case Opcode::kReverse: case Opcode::kSlice: case Opcode::kTranspose:
    case Opcode::kTuple:
      return true;
    case Opcode::kCustomCall:
      return m.attrs(i).custom_call_target == "Sharding";
    default:
      return false;
  }
}

bool blocks_motion(const ir::Module& m, InstrId i) {
  if (m.opcode(i) == Opcode::kDomain) return true;
  if (m.opcode(i) != Opcode::kCustomCall) return false;
  const std::string& t = m.attrs(i).custom_call_target;
  return t == "SPMDFullToShardShape" || t == "SPMDShardToFullShape" || t == "MoveToHost" || t == "MoveToDevice";
}

int64_t array_bytes(const ir::Shape& s) { return s.byte_size(); }

// What the body analysis found: instructions to compute before the loop (in post order),
// and the invariant values they may read.
struct Hoisting {
  std::vector<InstrId> hoisted;
  std::unordered_set<InstrId> hoisted_set, invariant;
};

Hoisting find_hoistable(const ir::Module& m, CompId body, const std::unordered_set<InstrId>& fenced) {
  Hoisting h;
  const InstrId param = m.computation(body).params[0], root = m.computation(body).root;
  for (InstrId g : m.users(param)) {
    const auto k = static_cast<size_t>(m.attrs(g).tuple_index);
    const InstrId out = m.operand(root, k);
    if (m.shape(g).is_array() && m.opcode(out) == Opcode::kGetTupleElement && m.operand(out, 0) == param &&
        m.attrs(out).tuple_index == m.attrs(g).tuple_index)
      h.invariant.insert(g);
  }
  if (h.invariant.empty()) return h;  // XLA gives up: nothing in the state is invariant
  auto is_invariant = [&](InstrId o) { return h.invariant.count(o) || h.hoisted_set.count(o); };
  for (InstrId i : cf::local_post_order(m, body)) {
    const Opcode op = m.opcode(i);
    if (op == Opcode::kConstant) {
      if (!cf::is_elided_constant(m, i)) h.invariant.insert(i);
      continue;
    }
    if (i == root || op == Opcode::kParameter || (op == Opcode::kGetTupleElement && m.operand(i, 0) == param) ||
        op == Opcode::kAfterAll || op == Opcode::kWhile || has_side_effect(m, i) || fenced.count(i))
      continue;
    auto ops = m.operands(i);
    if (!std::all_of(ops.begin(), ops.end(), is_invariant)) continue;
    if (not_worth_hoisting_alone(m, i)) {  // copied out only for a hoisted user
      h.invariant.insert(i);
      continue;
    }
    int64_t in = 0;  // what would become loop state must not outgrow what it reads
    for (InstrId o : ops) in += array_bytes(m.shape(o));
    if (array_bytes(m.shape(i)) > 2 * in) continue;
    h.hoisted.push_back(i);
    h.hoisted_set.insert(i);
  }
  return h;
}

// Copies `needed` body instructions (in body post order) before loop `w`; reads of
// invariant state become the init values. Returns the copy of each body instruction.
std::unordered_map<InstrId, InstrId> copy_before_loop(ir::Module& m, InstrId w, CompId body,
                                                      const std::unordered_set<InstrId>& needed) {
  const CompId c = m.computation_of(w);
  const InstrId init = m.operand(w, 0), param = m.computation(body).params[0];
  std::unordered_map<InstrId, InstrId> copy;
  std::unordered_map<int64_t, InstrId> init_value;
  std::vector<InstrId> ops;
  for (InstrId i : cf::local_post_order(m, body)) {
    if (!needed.count(i)) continue;
    if (m.opcode(i) == Opcode::kGetTupleElement && m.operand(i, 0) == param) {
      const int64_t k = m.attrs(i).tuple_index;
      auto it = init_value.find(k);
      if (it == init_value.end()) it = init_value.emplace(k, cf::tuple_element(m, init, k)).first;
      copy[i] = it->second;
      continue;
    }
    ops.clear();
    for (InstrId o : m.operands(i)) ops.push_back(copy.at(o));
    copy[i] = m.add_clone(c, i, ops);
  }
  return copy;
}

bool hoist_from(ir::Module& m, InstrId w, const std::unordered_set<InstrId>& fenced) {
  const CompId cond = m.called(w)[0], body = m.called(w)[1];
  const InstrId root = m.computation(body).root;
  const size_t n = m.shape(w).tuple_elements().size();
  if (m.opcode(root) != Opcode::kTuple || m.operands(root).size() != n || !m.users(root).empty()) return false;
  if (!cf::params_used_only_by_gte(m, body) || !cf::params_used_only_by_gte(m, cond)) return false;
  for (InstrId i : m.instructions(body))
    if (blocks_motion(m, i)) return false;
  const Hoisting h = find_hoistable(m, body, fenced);
  std::vector<InstrId> live_ins;  // hoisted values the loop still reads
  for (InstrId i : h.hoisted)
    for (InstrId u : m.users(i))
      if (!h.hoisted_set.count(u)) {
        live_ins.push_back(i);
        break;
      }
  if (live_ins.empty()) return false;
  if (cf::runs_at_most_once(m, w)) return false;
  // Everything the live-ins are computed from, within the body.
  std::unordered_set<InstrId> needed(live_ins.begin(), live_ins.end());
  std::vector<InstrId> work(live_ins.begin(), live_ins.end());
  while (!work.empty()) {
    InstrId x = work.back();
    work.pop_back();
    if (m.opcode(x) == Opcode::kGetTupleElement && m.operand(x, 0) == m.computation(body).params[0]) continue;
    for (InstrId o : m.operands(x))
      if (needed.insert(o).second) work.push_back(o);
  }
  auto copy = copy_before_loop(m, w, body, needed);
  std::vector<InstrId> extra;
  for (InstrId i : live_ins) extra.push_back(copy.at(i));
  cf::extend_while_state(m, w, extra);
  const ir::Shape state = m.shape(w);
  const InstrId bparam = m.computation(body).params[0];
  m.mutable_payload(bparam).shape = state;
  m.mutable_payload(m.computation(cond).params[0]).shape = state;
  std::vector<InstrId> passed;
  for (size_t t = 0; t < live_ins.size(); ++t) {
    ir::Attributes a;
    a.tuple_index = static_cast<int64_t>(n + t);
    const InstrId bparam_ops[] = {bparam};
    const InstrId g = m.add_instruction(body, Opcode::kGetTupleElement, m.shape(live_ins[t]), bparam_ops, a);
    m.replace_all_uses(live_ins[t], g);
    passed.push_back(g);
  }
  std::vector<InstrId> outs(m.operands(root).begin(), m.operands(root).end());
  outs.insert(outs.end(), passed.begin(), passed.end());
  m.set_operands(root, outs);
  m.mutable_payload(root).shape = state;
  for (auto it = h.hoisted.rbegin(); it != h.hoisted.rend(); ++it) remove_if_dead(m, *it);
  return true;
}

class WhileLoopInvariantCodeMotion final : public Pass {
 public:
  std::string_view name() const override { return "while-loop-invariant-code-motion"; }
  std::string_view description() const override {
    return "hoists loop-invariant side-effect-free instructions out of while bodies";
  }
  bool run(ir::Module& m) override {
    const std::vector<int> callers = cf::caller_counts(m);
    // XLA leaves an instruction with control edges where it is: moving it out of the body
    // would drop the edge.
    const std::unordered_set<InstrId> fenced = with_control_edges(m);
    bool changed = false;
    // Inner loops first: what leaves an inner body may then leave the outer one too.
    for (InstrId w : cf::collect_ops(m, Opcode::kWhile, /*callers_first=*/false)) {
      if (!m.is_live(w) || m.called(w).size() != 2 || !m.shape(w).is_tuple()) continue;
      if (callers[m.called(w)[0]] != 1 || callers[m.called(w)[1]] != 1) continue;
      changed |= hoist_from(m, w, fenced);
    }
    return changed;
  }
};

}  // namespace

PassPtr make_while_loop_invariant_code_motion() { return std::make_unique<WhileLoopInvariantCodeMotion>(); }

}  // namespace hlsgym::passes
