// defuser (XLA Defuser): every fusion instruction is replaced by the instructions of its
// fused computation, inlined at the call site: the inverse of `fusion`, so an order can
// undo a fusion that the hardware cost does not reward. Exact.
#include "passes/call_graph_util.h"
#include "passes/expander_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

class Defuser final : public Pass {
 public:
  std::string_view name() const override { return "defuser"; }
  std::string_view description() const override {
    return "inlines every fusion instruction's fused computation at its call site (undoes fusion)";
  }
  bool run(ir::Module& m) override {
    const std::vector<InstrId> fusions = expand::find_all(m, {Opcode::kFusion});
    for (InstrId f : fusions) {
      const auto ops = m.operands(f);
      const std::vector<InstrId> args(ops.begin(), ops.end());
      const InstrId root = inline_computation(m, m.called(f)[0], m.computation_of(f), args);
      expand::replace_with(m, f, root);
    }
    if (!fusions.empty()) remove_unreachable_computations(m);
    return !fusions.empty();
  }
};

}  // namespace

PassPtr make_defuser() { return std::make_unique<Defuser>(); }

}  // namespace hlsgym::passes
