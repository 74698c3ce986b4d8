// The built-in passes. Names are XLA's name() strings where XLA has the pass
// (shared/reference/xla_passes.md), so `hlo-opt --passes=` users recognise them.
// Each family lists its passes, one factory per line, in its catalog_<family>.cc; the
// registry sorts them by name, and that sorted list is the RL action space.
#include "passes/catalog.h"

namespace hlsgym::passes {

PassPtr make_call_inliner();
PassPtr make_cse();
PassPtr make_cse_barrier_expander();
PassPtr make_dce();
PassPtr make_flatten_call_graph();
PassPtr make_sharding_remover();
PassPtr make_tuple_simplifier();
PassPtr make_zero_sized_hlo_elimination();

void register_factories(Registry& r, std::initializer_list<PassPtr (*)()> makes, ActionGroup group) {
  for (auto make : makes) {
    PassPtr probe = make();
    r.add({std::string(probe->name()), std::string(probe->description()), make, group});
  }
}

void register_builtin_passes(Registry& r) {
  register_factories(r, {make_call_inliner, make_cse, make_cse_barrier_expander, make_dce,
                         make_flatten_call_graph, make_sharding_remover, make_tuple_simplifier,
                         make_zero_sized_hlo_elimination});
  register_algebraic_simplifier_passes(r);
  register_control_flow_passes(r);
  register_movement_passes(r);
  register_expander_passes(r);
  register_hls_passes(r);
  register_directive_passes(r);
}

}  // namespace hlsgym::passes
