// simplify-while-loops (XLA WhileLoopSimplifier), for loops whose body and condition
// belong to them alone (XLA's bail-out too), and never for loops with send/recv (the
// other side matches on the loop). In XLA's order, one state rewrite per loop and run:
// - loop-invariant scalar state elements that start as constants are replaced by that
//   constant inside the body and condition (XLA's TryPropagateConstant);
// - a loop whose static trip count is 0 becomes its init value (the condition must be
//   free of side effects: it ran once);
// - a loop whose static trip count is 1 becomes an inlined copy of its body applied to
//   the init value (no side effects anywhere in the loop);
// - repeated loop-invariant elements become one (TryRemoveRepeatedWhileTupleIndices);
// - a nested state tuple becomes flat (TryFlattenNestedTuples);
// - dead state elements are removed: those the condition and side effects do not read,
//   that no surviving element reads, and that after the loop are unused or passed
//   through unchanged (their uses then read the init value);
// - elements the body sets to their constant init value leave the state
//   (TryRemoveConstantParams);
// - induction variables are merged into one trip counter (TryMergeInductionVariables).
// The trip count comes from evaluating the condition and the body with the interpreter
// on the state elements that start as constants (control_flow::static_trip_count).
// Code holding elided constants is not copied (their placeholder values follow names).
// After a change, dead code is removed (XLA runs HloDCE there too).
#include "passes/call_graph_util.h"
#include "passes/control_flow_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"
#include "passes/while_loop_simplifier_rewrites.h"

namespace hlsgym::passes {
namespace {
using ir::CompId;
using ir::InstrId;
namespace cf = control_flow;

bool skips_trip_count_one(const ir::Module& m, InstrId w) {
  const ir::OpaqueAttribute* a = m.attrs(w).find_opaque("frontend_attributes");
  return a && a->value.find("skip-simplify-while-loops_trip-count-one") != std::string::npos;
}

// Trip count 0: the init value; trip count 1: the body inlined. True if `w` is gone.
bool try_remove_loop(ir::Module& m, InstrId w) {
  const CompId cond = m.called(w)[0], body = m.called(w)[1];
  if (cf::computation_has_side_effect(m, cond)) return false;
  const std::optional<int64_t> trips = cf::static_trip_count(m, w, 1);
  if (!trips) return false;
  const InstrId init = m.operand(w, 0);
  if (*trips == 0) {
    m.replace_all_uses(w, init);
    m.remove_instruction(w);  // even with a side-effecting body: it never runs
    remove_if_dead(m, init);
    return true;
  }
  if (cf::computation_has_side_effect(m, body) || cf::contains_elided_constant(m, body) ||
      skips_trip_count_one(m, w))
    return false;
  const InstrId init_ops[] = {init};
  const InstrId result = inline_computation(m, body, m.computation_of(w), init_ops);
  replace_instruction(m, w, result);
  return true;
}

class WhileLoopSimplifier final : public Pass {
 public:
  std::string_view name() const override { return "simplify-while-loops"; }
  std::string_view description() const override {
    return "removes while loops with trip count 0, inlines trip count 1, drops dead, repeated and constant loop state, flattens it, merges induction variables";
  }
  bool run(ir::Module& m) override {
    const std::vector<int> callers = cf::caller_counts(m);
    bool changed = false;
    for (InstrId w : cf::collect_ops(m, ir::Opcode::kWhile, /*callers_first=*/false)) {
      if (!m.is_live(w) || m.called(w).size() != 2 || !m.shape(w).is_tuple()) continue;
      const CompId cond = m.called(w)[0], body = m.called(w)[1];
      if (callers[cond] != 1 || callers[body] != 1 || cf::calls_send_or_recv(m, w)) continue;
      changed |= cf::sink_constants_into_loop(m, w, /*scalars_only=*/true, /*keep_pass_through=*/false);
      if (try_remove_loop(m, w) || while_loop::remove_repeated_elements(m, w, callers) ||
          while_loop::flatten_nested_state(m, w) || cf::remove_dead_state_elements(m, w, callers) ||
          while_loop::remove_constant_elements(m, w, callers)) {
        changed = true;
        continue;
      }
      // XLA leaves out S16 and U16 (it has no literals of them); so does hlsgym, to match.
      for (ir::ElementType t : {ir::ElementType::kS8, ir::ElementType::kU8, ir::ElementType::kS32,
                                ir::ElementType::kU32, ir::ElementType::kS64, ir::ElementType::kU64})
        changed |= while_loop::merge_induction_variables(m, w, t, callers);
    }
    if (changed) cf::remove_dead_code(m);  // as XLA runs HloDCE after a change
    return changed;
  }
};

}  // namespace

PassPtr make_while_loop_simplifier() { return std::make_unique<WhileLoopSimplifier>(); }

}  // namespace hlsgym::passes
