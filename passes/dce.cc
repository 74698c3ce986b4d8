// dce (XLA HloDCE): removes instructions nothing uses that have no side effects, and
// computations no live instruction calls. Parameters are never removed, nor (as in XLA)
// instructions with control edges.
#include <vector>

#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {

class Dce final : public Pass {
 public:
  std::string_view name() const override { return "dce"; }
  std::string_view description() const override {
    return "removes unused side-effect-free instructions and uncalled computations";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    const std::unordered_set<ir::InstrId> fenced = with_control_edges(m);  // XLA keeps them
    for (ir::CompId c : m.live_computations()) {
      // Backwards, so users go before their operands; remove_if_dead follows chains.
      for (size_t k = m.computation(c).order.size(); k-- > 0;) {
        const ir::InstrId i = m.computation(c).order[k];
        if (m.is_live(i) && m.users(i).empty() && !m.is_root(i) && !fenced.count(i))
          changed |= remove_if_dead(m, i) > 0;
      }
    }
    std::vector<bool> reachable(m.computation_slots(), false);
    for (ir::CompId c : m.computation_post_order()) reachable[c] = true;
    for (ir::CompId c : m.live_computations()) {
      if (!reachable[c]) {
        m.remove_computation(c);
        changed = true;
      }
    }
    return changed;
  }
};

}  // namespace

PassPtr make_dce() { return std::make_unique<Dce>(); }

}  // namespace hlsgym::passes
