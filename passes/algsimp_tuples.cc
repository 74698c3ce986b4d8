// Rules for tuple-shaped instructions of the algebraic simplifier: a tuple constant
// becomes a tuple of constants, a variadic reduce of an empty input its inits, a reduce or
// reduce-window of one input written as a 1-tuple a plain one (with a reducer returning
// the value, not a 1-tuple), and an opt-barrier keeps only the tuple elements read
// after it. All of them only regroup values, so they are exact.
#include <algorithm>

#include "passes/algsimp_rules.h"

namespace hlsgym::passes::algsimp {
namespace {

// A copy of computation `c` whose root is the one element of its 1-tuple root.
ir::CompId untupled_copy(ir::Module& m, ir::CompId c) {
  const ir::CompId nc = m.add_computation(m.unique_name(m.computation(c).name + ".untupled"));
  std::vector<InstrId> copy(m.instruction_slots(), ir::kNoId);
  for (InstrId x : m.post_order(c)) {
    std::vector<InstrId> ops;
    for (InstrId o : m.operands(x)) ops.push_back(copy[o]);
    copy[x] = m.add_clone(nc, x, ops);
  }
  m.set_root(nc, copy[m.operand(m.computation(c).root, 0)]);
  return nc;
}

// reduce or reduce-window (x, init) with result (T) and a reducer returning (t) ->
// tuple(the same op with result T and a reducer returning t).
bool unary_variadic_to_plain(Rewriter& r, InstrId i) {
  ir::Module& m = r.m;
  if (m.operands(i).size() != 2 || m.called(i).size() != 1 || m.shape(i).tuple_elements().size() != 1) return false;
  const ir::CompId c = m.called(i)[0];
  const InstrId root = m.computation(c).root;
  if (m.opcode(root) != Opcode::kTuple || m.operands(root).size() != 1) return false;
  const ir::CompId nc = untupled_copy(m, c);
  const InstrId ops[] = {m.operand(i, 0), m.operand(i, 1)};
  const InstrId plain = m.add_clone(r.comp, i, ops);
  ir::InstrPayload& p = m.mutable_payload(plain);
  p.shape = m.shape(i).tuple_element(0);
  p.called = {nc};
  const InstrId tuple_ops[] = {plain};
  return r.replace(i, r.make_shaped(Opcode::kTuple, m.shape(i), tuple_ops));
}

// opt-barrier(tuple(...)) read only through get-tuple-elements, some elements never:
// a barrier over the others (the tuple dies with the old barrier). As in XLA, an element
// computed for other users too stays behind the barrier.
bool prune_optimization_barrier(Rewriter& r, InstrId i) {
  ir::Module& m = r.m;
  const InstrId t = m.operand(i, 0);
  if (m.opcode(t) != Opcode::kTuple || m.users(t).size() != 1 || m.is_root(i)) return false;
  const size_t n = m.operands(t).size();
  std::vector<bool> read(n, false);
  for (InstrId u : m.users(i)) {
    if (m.opcode(u) != Opcode::kGetTupleElement) return false;
    read[static_cast<size_t>(m.attrs(u).tuple_index)] = true;
  }
  for (size_t k = 0; k < n; ++k) read[k] = read[k] || m.users(m.operand(t, k)).size() > 1;
  if (std::all_of(read.begin(), read.end(), [](bool b) { return b; })) return false;
  std::vector<InstrId> kept;
  std::vector<Shape> shapes;
  std::vector<int64_t> new_index(n, -1);
  for (size_t k = 0; k < n; ++k) {
    if (!read[k]) continue;
    new_index[k] = static_cast<int64_t>(kept.size());
    kept.push_back(m.operand(t, k));
    shapes.push_back(m.shape(kept.back()));
  }
  const Shape tuple_shape = Shape::tuple(std::move(shapes));
  const InstrId nt = r.make_shaped(Opcode::kTuple, tuple_shape, kept);
  const InstrId nt_ops[] = {nt};
  const InstrId barrier = r.make_shaped(Opcode::kOptimizationBarrier, tuple_shape, nt_ops, m.attrs(i));
  const std::vector<InstrId> users(m.users(i).begin(), m.users(i).end());
  for (InstrId u : users) {
    ir::Attributes a = m.attrs(u);
    a.tuple_index = new_index[static_cast<size_t>(a.tuple_index)];
    const InstrId ops[] = {barrier};
    r.replace(u, r.make_shaped(Opcode::kGetTupleElement, m.shape(u), ops, std::move(a)));
  }
  return true;
}

}  // namespace

static bool simplify_tuple_constant(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const ir::Literal& l = m.literal(i);
  if (!l.is_tuple() || l.elided()) return false;
  std::vector<InstrId> elements;
  for (const ir::Literal& e : l.tuple_elements()) elements.push_back(r.m.add_constant(r.comp, e));
  return r.replace(i, r.make_shaped(Opcode::kTuple, m.shape(i), elements));
}

static bool simplify_variadic_reduce(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  if (unary_variadic_to_plain(r, i)) return true;
  const size_t n = m.operands(i).size() / 2;
  if (n < 2 || m.operands(i).size() != 2 * n || !m.shape(i).is_tuple()) return false;
  // Reducing nothing: each output is its init.
  if (!static_array(m.shape(m.operand(i, 0))) || m.shape(m.operand(i, 0)).element_count() != 0) return false;
  for (size_t k = 0; k < n; ++k)
    if (m.shape(m.operand(i, n + k)).rank() != 0) return false;
  std::vector<InstrId> outs;
  for (size_t k = 0; k < n; ++k)
    outs.push_back(r.broadcast_scalar(m.operand(i, n + k), m.shape(i).tuple_element(static_cast<int64_t>(k)).dims()));
  return r.replace(i, r.make_shaped(Opcode::kTuple, m.shape(i), outs));
}

bool simplify_tuple_shaped(Rewriter& r, InstrId i) {
  switch (r.m.opcode(i)) {
    case Opcode::kConstant: return simplify_tuple_constant(r, i);
    case Opcode::kReduce: return simplify_variadic_reduce(r, i);
    case Opcode::kReduceWindow: return unary_variadic_to_plain(r, i);
    case Opcode::kOptimizationBarrier: return prune_optimization_barrier(r, i);
    default: return false;
  }
}

}  // namespace hlsgym::passes::algsimp
