// call-inliner (XLA CallInliner): replaces every `call` by the body of the computation
// it calls, callees first so nested calls disappear in one run; computations left
// uncalled are removed.
#include <vector>

#include "passes/call_graph_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;

class CallInliner final : public Pass {
 public:
  std::string_view name() const override { return "call-inliner"; }
  std::string_view description() const override {
    return "inlines the bodies of called computations at every call site";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (ir::CompId c : m.computation_post_order()) {
      for (InstrId i : m.instructions(c)) {
        if (m.opcode(i) != ir::Opcode::kCall || m.called(i).size() != 1) continue;
        std::vector<InstrId> args(m.operands(i).begin(), m.operands(i).end());
        InstrId result = inline_computation(m, m.called(i)[0], c, args);
        replace_instruction(m, i, result);
        changed = true;
      }
    }
    if (changed) remove_unreachable_computations(m);
    return changed;
  }
};

}  // namespace

PassPtr make_call_inliner() { return std::make_unique<CallInliner>(); }

}  // namespace hlsgym::passes
