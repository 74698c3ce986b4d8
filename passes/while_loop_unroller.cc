// while_loop_unroller (XLA WhileLoopUnroller, unroll_factor = -1: full unrolling): a
// while loop with a static trip count (found by evaluating its condition and body on the
// state elements that start as constants) becomes that many inlined copies of its body,
// chained from the init value. As XLA's defaults bound it: at most 64 iterations, a body
// of at most 800 instructions, and at most 10000 instructions added. Loops with side
// effects are not unrolled (the copies would repeat them outside a loop), nor loops
// whose body holds elided constants, nor loops with control edges (as XLA).
// (loop-unroll-by-2, an HLS pass, doubles the body instead and keeps the loop.)
#include "passes/call_graph_util.h"
#include "passes/control_flow_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::CompId;
using ir::InstrId;
namespace cf = control_flow;

constexpr int64_t kMaxTrips = 64, kMaxBody = 800, kMaxExpansion = 10000;

bool unroll(ir::Module& m, InstrId w, const std::unordered_set<InstrId>& fenced) {
  // As XLA: a loop with control edges stays (the copies would not carry them).
  if (m.called(w).size() != 2 || !m.shape(w).is_tuple() || has_side_effect(m, w) || fenced.count(w)) return false;
  const CompId body = m.called(w)[1];
  const auto body_size = static_cast<int64_t>(m.instruction_count(body));
  if (body_size > kMaxBody || cf::contains_elided_constant(m, body)) return false;
  const std::optional<int64_t> trips = cf::static_trip_count(m, w, kMaxTrips);
  if (!trips || *trips * body_size > kMaxExpansion) return false;
  const CompId c = m.computation_of(w);
  InstrId state = m.operand(w, 0);
  for (int64_t t = 0; t < *trips; ++t) {
    const InstrId args[] = {state};
    state = inline_computation(m, body, c, args);
  }
  replace_instruction(m, w, state);
  return true;
}

class WhileLoopUnroller final : public Pass {
 public:
  std::string_view name() const override { return "while_loop_unroller"; }
  std::string_view description() const override {
    return "fully unrolls while loops with a small static trip count into copies of the body";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    const std::unordered_set<InstrId> fenced = with_control_edges(m);
    for (InstrId w : cf::collect_ops(m, ir::Opcode::kWhile, /*callers_first=*/false))
      if (m.is_live(w)) changed |= unroll(m, w, fenced);
    if (changed) remove_unreachable_computations(m);
    return changed;
  }
};

}  // namespace

PassPtr make_while_loop_unroller() { return std::make_unique<WhileLoopUnroller>(); }

}  // namespace hlsgym::passes
