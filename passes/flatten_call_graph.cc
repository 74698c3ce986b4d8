// flatten-call-graph (XLA FlattenCallGraph): a computation called from several
// sequential call sites (call, while, conditional) gets one copy per call site, so
// later passes may specialise each without affecting the others. Computations applied
// by reduce/map/sort/... (embedded contexts) are left shared, as XLA does; one called
// from both kinds of site (XLA's kBoth context) keeps its embedded callers and every
// sequential call site gets a copy.
#include <vector>

#include "passes/call_graph_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::CompId;
using ir::InstrId;
using ir::Opcode;

bool is_sequential_site(Opcode op) {
  return op == Opcode::kCall || op == Opcode::kWhile || op == Opcode::kConditional;
}

struct Site {
  InstrId instr;
  size_t slot;  // index into called()
};

class FlattenCallGraph final : public Pass {
 public:
  std::string_view name() const override { return "flatten-call-graph"; }
  std::string_view description() const override {
    return "gives each sequential call site (call, while, conditional) its own computation";
  }
  bool run(ir::Module& m) override {
    // Sites of every callee, gathered once and extended as copies are made.
    std::vector<std::vector<Site>> sites(m.computation_slots());
    std::vector<bool> embedded(m.computation_slots());
    auto order = m.computation_post_order();
    for (CompId c : order) add_sites_in(m, c, sites, embedded);
    bool changed = false;
    // Callers before callees: a copy's own callees are processed later, with the copy's
    // call sites already recorded.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const CompId target = *it;
      if (target >= sites.size() || sites[target].empty()) continue;
      const bool both = target < embedded.size() && embedded[target];  // each sequential site gets a copy
      if (sites[target].size() <= 1 && !both) continue;
      for (size_t s = both ? 0 : 1; s < sites[target].size(); ++s) {
        const Site site = sites[target][s];
        CompId copy = clone_computation(m, target, m.unique_name(m.computation(target).name));
        m.mutable_payload(site.instr).called[site.slot] = copy;
        sites.resize(m.computation_slots());
        embedded.resize(m.computation_slots());
        add_sites_in(m, copy, sites, embedded);
      }
      sites[target].resize(both ? 0 : 1);
      changed = true;
    }
    return changed;
  }

 private:
  static void add_sites_in(const ir::Module& m, CompId c, std::vector<std::vector<Site>>& sites,
                          std::vector<bool>& embedded) {
    for (InstrId i : m.instructions(c)) {
      const auto& called = m.called(i);
      if (!is_sequential_site(m.opcode(i))) {
        for (CompId callee : called) {
          if (callee >= embedded.size()) embedded.resize(callee + 1);
          embedded[callee] = true;
        }
        continue;
      }
      for (size_t k = 0; k < called.size(); ++k) {
        if (called[k] >= sites.size()) sites.resize(called[k] + 1);
        sites[called[k]].push_back({i, k});
      }
    }
  }
};

}  // namespace

PassPtr make_flatten_call_graph() { return std::make_unique<FlattenCallGraph>(); }

}  // namespace hlsgym::passes
