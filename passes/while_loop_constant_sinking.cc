// while-loop-constant-sinking (XLA WhileLoopConstantSinking, sink_broadcast_of_constants
// = false): a state element that the body passes through unchanged and whose init value
// is a constant is that constant in every iteration, so its reads in the body and the
// condition become copies of the constant (the body still passes the element through;
// simplify-while-loops can then drop it). Outer loops go first, so a constant sunk into
// an outer body can sink into an inner loop in the same run. Loops whose body or
// condition is shared with another caller, and elided constants, are left alone.
#include "passes/control_flow_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
namespace cf = control_flow;

class WhileLoopConstantSinking final : public Pass {
 public:
  std::string_view name() const override { return "while-loop-constant-sinking"; }
  std::string_view description() const override {
    return "replaces reads of loop-invariant constant loop state by the constant inside the loop";
  }
  bool run(ir::Module& m) override {
    const std::vector<int> callers = cf::caller_counts(m);
    bool changed = false;
    for (InstrId w : cf::collect_ops(m, ir::Opcode::kWhile, /*callers_first=*/true)) {
      if (!m.is_live(w) || m.called(w).size() != 2) continue;
      if (callers[m.called(w)[0]] != 1 || callers[m.called(w)[1]] != 1) continue;
      changed |= cf::sink_constants_into_loop(m, w, /*scalars_only=*/false);
    }
    return changed;
  }
};

}  // namespace

PassPtr make_while_loop_constant_sinking() { return std::make_unique<WhileLoopConstantSinking>(); }

}  // namespace hlsgym::passes
