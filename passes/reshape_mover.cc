// reshape-mover (XLA ReshapeMover): an elementwise op whose operands are all the same
// rearrangement (reshapes from one shape, or transposes with one permutation) of values
// of one shape — or operands that change shape for free: constants (rearranged back),
// broadcasts of scalars (rebuilt in the source shape), an rng with no other user (made in
// the source shape) — becomes that rearrangement of the elementwise op on the sources:
//   add(reshape(a), reshape(b)) -> reshape(add(a, b))
// Rearrangements sink towards the outputs, where they meet and cancel (algsimp merges
// reshape chains). As in XLA, an op moves only if every user of each rearrangement it
// reads moves too (else the rearrangement stays and the loop would hold both shapes), a
// rearrangement of a free operand (reshape of a constant) is not worth moving, and scalar
// operands stay. Data movement commutes with elementwise arithmetic: exact.
#include <algorithm>
#include <unordered_set>

#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

bool is_rearrange(const ir::Module& m, InstrId i) {
  return m.opcode(i) == Opcode::kReshape || m.opcode(i) == Opcode::kTranspose;
}

// Changes shape for free: a constant (its literal is rearranged), an rng with one user
// (made in the other shape; two copies would draw different numbers), a broadcast of a
// scalar.
bool changes_shape_for_free(const ir::Module& m, InstrId i) {
  switch (m.opcode(i)) {
    case Opcode::kConstant: return true;
    case Opcode::kRng: return m.users(i).size() == 1;
    case Opcode::kBroadcast: return m.shape(m.operand(i, 0)).rank() == 0;
    default: return false;
  }
}

// A rearrangement worth moving: of a value that cannot change shape for free, with more
// than one element.
bool is_nontrivial_rearrange(const ir::Module& m, InstrId i) {
  return is_rearrange(m, i) && m.shape(i).is_array() && m.shape(i).element_count() != 1 &&
         !changes_shape_for_free(m, m.operand(i, 0));
}

// Same rearrangement: same opcode and result dims, and the same source dims (reshape) or
// permutation (transpose).
bool same_rearrange(const ir::Module& m, InstrId a, InstrId b) {
  if (m.opcode(a) != m.opcode(b) || m.shape(a).dims() != m.shape(b).dims()) return false;
  if (m.opcode(a) == Opcode::kTranspose) return m.attrs(a).dimensions == m.attrs(b).dimensions;
  return m.shape(m.operand(a, 0)).dims() == m.shape(m.operand(b, 0)).dims();
}

// The first nontrivial rearrangement `e` reads, if every operand has e's dims and is
// either the same rearrangement or free to change shape; kNoId otherwise.
InstrId common_rearrange(const ir::Module& m, InstrId e) {
  InstrId first = ir::kNoId;
  for (InstrId o : m.operands(e)) {
    if (m.shape(o).dims() != m.shape(e).dims()) return ir::kNoId;
    if (changes_shape_for_free(m, o)) continue;
    if (!is_nontrivial_rearrange(m, o)) return ir::kNoId;
    if (first == ir::kNoId) first = o;
    else if (!same_rearrange(m, first, o)) return ir::kNoId;
  }
  if (first == ir::kNoId || !m.shape(m.operand(first, 0)).is_static()) return ir::kNoId;
  return first;
}

bool is_candidate(const ir::Module& m, InstrId e) {
  return ir::info(m.opcode(e)).elementwise && !m.operands(e).empty() && !has_side_effect(m, e) &&
         common_rearrange(m, e) != ir::kNoId;
}

// Drops candidates until every nontrivial rearrangement a candidate reads is read by
// candidates only (XLA's TryReshapeMoveOnCandidates).
void keep_closed_under_users(const ir::Module& m, std::unordered_set<InstrId>& candidates) {
  for (bool removed = true; removed && !candidates.empty();) {
    removed = false;
    std::unordered_set<InstrId> rearranges;
    for (InstrId e : candidates)
      for (InstrId o : m.operands(e))
        if (is_nontrivial_rearrange(m, o)) rearranges.insert(o);
    for (InstrId r : rearranges) {
      const auto users = m.users(r);
      if (std::all_of(users.begin(), users.end(), [&](InstrId u) { return candidates.count(u) > 0; })) continue;
      for (InstrId u : users) removed |= candidates.erase(u) > 0;
    }
  }
}

std::vector<int64_t> inverse_permutation(const std::vector<int64_t>& p) {
  std::vector<int64_t> inv(p.size());
  for (size_t k = 0; k < p.size(); ++k) inv[static_cast<size_t>(p[k])] = static_cast<int64_t>(k);
  return inv;
}

// Operand `o` of the moved op in the source shape `dims` of rearrangement `r`.
InstrId in_source_shape(ir::Module& m, expand::Builder& b, InstrId r, InstrId o, const std::vector<int64_t>& dims) {
  switch (m.opcode(o)) {
    case Opcode::kReshape: case Opcode::kTranspose:
      return m.operand(o, 0);
    case Opcode::kConstant:
      if (m.opcode(r) == Opcode::kReshape) {
        const InstrId ops[] = {o};
        return m.add_instruction(m.computation_of(o), Opcode::kReshape, ir::Shape(m.shape(o).element_type(), dims), ops);
      } else {
        ir::Attributes a;
        a.dimensions = inverse_permutation(m.attrs(r).dimensions);
        const InstrId ops[] = {o};
        return m.add_instruction(m.computation_of(o), Opcode::kTranspose, ir::Shape(m.shape(o).element_type(), dims),
                                 ops, std::move(a));
      }
    case Opcode::kBroadcast:
      return b.broadcast(m.operand(o, 0), dims, {});
    default: {  // an rng with this one user, made in the source shape
      const auto span = m.operands(o);
      const std::vector<InstrId> ops(span.begin(), span.end());
      return m.add_instruction(m.computation_of(o), m.opcode(o), ir::Shape(m.shape(o).element_type(), dims), ops,
                               m.attrs(o));
    }
  }
}

void move_below(ir::Module& m, InstrId e, InstrId r) {
  const std::vector<int64_t> source_dims = m.shape(m.operand(r, 0)).dims();
  expand::Builder b(m, m.computation_of(e));
  const auto span = m.operands(e);
  const std::vector<InstrId> operands(span.begin(), span.end());  // the pool may grow below
  std::vector<InstrId> sources;
  for (InstrId o : operands)
    sources.push_back(m.shape(o).rank() == 0 ? o : in_source_shape(m, b, r, o, source_dims));
  const ir::Shape s(m.shape(e).element_type(), source_dims);
  const InstrId inner = m.add_instruction(m.computation_of(e), m.opcode(e), s, sources, m.attrs(e));
  const InstrId ops[] = {inner};
  ir::Shape out(m.shape(e).element_type(), m.shape(e).dims());
  const InstrId outer = m.add_instruction(m.computation_of(e), m.opcode(r), out, ops, m.attrs(r));
  expand::replace_with(m, e, outer);
}

class ReshapeMover final : public Pass {
 public:
  std::string_view name() const override { return "reshape-mover"; }
  std::string_view description() const override {
    return "sinks identical reshapes/transposes below the elementwise ops that consume them";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (ir::CompId c : m.live_computations()) {
      std::unordered_set<InstrId> candidates;
      const std::vector<InstrId> order = m.post_order(c);
      for (InstrId e : order)
        if (is_candidate(m, e)) candidates.insert(e);
      keep_closed_under_users(m, candidates);
      // Each candidate's rearrangement is chosen before any moves: moving one op turns
      // its result into a rearrangement a later candidate may read.
      std::vector<std::pair<InstrId, InstrId>> moves;
      for (InstrId e : order)
        if (candidates.count(e)) moves.emplace_back(e, common_rearrange(m, e));
      for (auto [e, r] : moves) move_below(m, e, r);
      changed |= !moves.empty();
    }
    return changed;
  }
};

}  // namespace

PassPtr make_reshape_mover() { return std::make_unique<ReshapeMover>(); }

}  // namespace hlsgym::passes
