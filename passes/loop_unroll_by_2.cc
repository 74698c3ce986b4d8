// loop-unroll-by-2 (an HLS pass, not in XLA; XLA's while_loop_unroller unrolls fully):
// a counted while loop with an even static trip count gets a body that runs the old
// body twice, so it iterates half as often. In hardware this exposes two iterations to
// the scheduler at once (more parallelism, a larger datapath).
//
// Counted loop, as this pass recognizes it (after tuple-simplifier, the usual form):
// - the condition is `compare(get-tuple-element(state, k), N), direction=LT` (or N GT
//   the element) with N an integer scalar constant;
// - the body's root is a tuple whose element k is `add(get-tuple-element(param, k), 1)`;
// - the loop's operand is a tuple whose element k is an integer scalar constant S.
// Then the loop runs T = N - S times (0 if N <= S) and element k runs S, S+1, ..., N-1
// without overflowing. When T >= 2 is even, the doubled body computes two iterations
// exactly, and the condition it skips (after the first half) would have been true:
// k's value there is S + 2j + 1 < N. The body is doubled in place, so it must be called
// by this loop only; loops whose body or condition has side effects are not unrolled
// (that would duplicate them), nor loops that carry a known_trip_count backend_config.
// The doubled body no longer has the `add(gte(param, k), 1)` form, so a second run
// leaves it alone.
#include <unordered_map>
#include <vector>

#include "passes/hls_range.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using hls::Int;
using ir::CompId;
using ir::InstrId;
using ir::Opcode;

// The value of an integer scalar constant (sign- or zero-extended as its type reads).
std::optional<Int> scalar_int(const ir::Module& m, InstrId i) {
  if (m.opcode(i) != Opcode::kConstant) return std::nullopt;
  const ir::Literal& l = m.literal(i);
  const ir::ElementType t = m.shape(i).element_type();
  if (l.is_tuple() || l.elided() || !ir::is_integral(t) || m.shape(i).rank() != 0) return std::nullopt;
  return ir::is_unsigned_integral(t) ? Int(l.get_bits(0)) : Int(l.get_int(0));
}

// True if `i` is get-tuple-element(`param`), index=k.
bool is_element_of(const ir::Module& m, InstrId i, InstrId param, int64_t k) {
  return m.opcode(i) == Opcode::kGetTupleElement && m.operand(i, 0) == param && m.attrs(i).tuple_index == k;
}

struct Bound {
  int64_t index = -1;  // tuple element holding the induction variable
  Int limit = 0;       // the loop runs while it is below this
};

// `compare(gte(p, k), N) LT` or `compare(N, gte(p, k)) GT` as the condition's root.
std::optional<Bound> loop_bound(const ir::Module& m, CompId cond) {
  const ir::Computation& c = m.computation(cond);
  if (c.params.size() != 1 || c.params[0] == ir::kNoId || c.root == ir::kNoId || m.opcode(c.root) != Opcode::kCompare)
    return std::nullopt;
  const auto dir = m.attrs(c.root).direction;
  InstrId element = m.operand(c.root, 0), limit = m.operand(c.root, 1);
  if (dir == ir::ComparisonDirection::kGt) std::swap(element, limit);
  else if (dir != ir::ComparisonDirection::kLt) return std::nullopt;
  const auto n = scalar_int(m, limit);
  if (!n || m.opcode(element) != Opcode::kGetTupleElement || m.operand(element, 0) != c.params[0])
    return std::nullopt;
  if (!ir::is_integral(m.shape(element).element_type())) return std::nullopt;
  return Bound{m.attrs(element).tuple_index, *n};
}

// The body's root tuple sets element k to gte(param, k) + 1.
bool steps_by_one(const ir::Module& m, CompId body, int64_t k) {
  const ir::Computation& b = m.computation(body);
  if (b.params.size() != 1 || b.params[0] == ir::kNoId || b.root == ir::kNoId || m.opcode(b.root) != Opcode::kTuple)
    return false;
  if (k < 0 || k >= static_cast<int64_t>(m.operands(b.root).size())) return false;
  const InstrId next = m.operand(b.root, static_cast<size_t>(k));
  if (m.opcode(next) != Opcode::kAdd) return false;
  for (int side = 0; side < 2; ++side) {
    const auto one = scalar_int(m, m.operand(next, static_cast<size_t>(1 - side)));
    if (one && *one == 1 && is_element_of(m, m.operand(next, static_cast<size_t>(side)), b.params[0], k)) return true;
  }
  return false;
}

class LoopUnrollBy2 final : public Pass {
 public:
  std::string_view name() const override { return "loop-unroll-by-2"; }
  std::string_view description() const override {
    return "HLS pass: counted while loops with an even static trip count run a doubled body "
           "half as often";
  }
  bool run(ir::Module& m) override {
    std::vector<InstrId> loops;
    std::vector<int> callers(m.computation_slots(), 0);
    for (CompId c : m.live_computations())
      for (InstrId i : m.computation(c).order) {
        if (!m.is_live(i)) continue;
        for (CompId k : m.called(i)) ++callers[k];
        if (m.opcode(i) == Opcode::kWhile) loops.push_back(i);
      }
    bool changed = false;
    for (InstrId w : loops)
      if (unrollable(m, w, callers)) {
        double_body(m, m.called(w)[1]);
        changed = true;
      }
    return changed;
  }

 private:
  static bool unrollable(const ir::Module& m, InstrId w, const std::vector<int>& callers) {
    const auto& called = m.called(w);
    if (called.size() != 2 || m.operands(w).size() != 1 || callers[called[1]] != 1) return false;
    if (const auto* bc = m.attrs(w).find_opaque("backend_config");
        bc && bc->value.find("known_trip_count") != std::string::npos)
      return false;
    const auto bound = loop_bound(m, called[0]);
    if (!bound || !steps_by_one(m, called[1], bound->index)) return false;
    const InstrId init = m.operand(w, 0);
    if (m.opcode(init) != Opcode::kTuple || bound->index >= static_cast<int64_t>(m.operands(init).size()))
      return false;
    const auto start = scalar_int(m, m.operand(init, static_cast<size_t>(bound->index)));
    if (!start || bound->limit <= *start) return false;
    const Int trips = bound->limit - *start;
    if (trips < 2 || trips % 2 != 0) return false;
    return !has_side_effect(m, w);  // checks the condition and body (and what they call)
  }

  // Appends a second copy of the body that reads the first copy's result.
  static void double_body(ir::Module& m, CompId body) {
    const InstrId param = m.computation(body).params[0];
    const InstrId first_root = m.computation(body).root;
    std::unordered_map<InstrId, InstrId> copy{{param, first_root}};
    for (InstrId i : m.post_order(body)) {
      if (i == param) continue;
      std::vector<InstrId> ops;
      for (InstrId o : m.operands(i)) ops.push_back(copy.at(o));
      copy[i] = m.add_clone(body, i, ops);
    }
    m.set_root(body, copy.at(first_root));
  }
};

}  // namespace

PassPtr make_loop_unroll_by_2() { return std::make_unique<LoopUnrollBy2>(); }

}  // namespace hlsgym::passes
