// The built-in passes: one line each. Names are XLA's name() strings where XLA has the
// pass (shared/reference/xla_passes.md), so `hlo-opt --passes=` users recognise them.
#include "passes/registry.h"

namespace hlsgym::passes {

PassPtr make_call_inliner();
PassPtr make_cse();
PassPtr make_cse_barrier_expander();
PassPtr make_dce();
PassPtr make_flatten_call_graph();
PassPtr make_sharding_remover();
PassPtr make_tuple_simplifier();
PassPtr make_zero_sized_hlo_elimination();

void register_builtin_passes(Registry& r) {
  for (auto make : {make_call_inliner, make_cse, make_cse_barrier_expander, make_dce,
                    make_flatten_call_graph, make_sharding_remover, make_tuple_simplifier,
                    make_zero_sized_hlo_elimination}) {
    PassPtr probe = make();
    r.add({std::string(probe->name()), std::string(probe->description()), make});
  }
}

}  // namespace hlsgym::passes
