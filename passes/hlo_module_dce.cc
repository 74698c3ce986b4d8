// hlo-module-dce (XLA HloModuleDCE): dead code elimination that looks across while-loop
// boundaries. A loop state element is dead when nothing after the loop reads it (or the
// body passes it through unchanged), the condition and side effects do not read it, and
// no live element's next value reads it; dead elements are removed from the init, the
// body, the condition and the loop's shape (outer loops first, so an inner loop whose
// results just lost their last reader is cleaned in the same run). Then, as XLA's pass
// does with HloDCE, unused side-effect-free instructions and uncalled computations go.
#include <vector>

#include "passes/control_flow_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
namespace cf = control_flow;

class HloModuleDce final : public Pass {
 public:
  std::string_view name() const override { return "hlo-module-dce"; }
  std::string_view description() const override {
    return "removes dead while-loop state elements across loop boundaries, then dead code";
  }
  bool run(ir::Module& m) override {
    const std::vector<int> callers = cf::caller_counts(m);
    bool changed = false;
    for (InstrId w : cf::collect_ops(m, ir::Opcode::kWhile, /*callers_first=*/true))
      if (m.is_live(w)) changed |= cf::remove_dead_state_elements(m, w, callers);
    changed |= cf::remove_dead_code(m);
    return changed;
  }
};

}  // namespace

PassPtr make_hlo_module_dce() { return std::make_unique<HloModuleDce>(); }

}  // namespace hlsgym::passes
