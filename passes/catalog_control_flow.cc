// The control flow pass family: one factory per line.
#include "passes/catalog.h"

namespace hlsgym::passes {

PassPtr make_computation_deduplicator();        // computation_deduplicator.cc
PassPtr make_conditional_canonicalizer();       // conditional_canonicalizer.cc
PassPtr make_conditional_simplifier();          // conditional_simplifier.cc
PassPtr make_conditional_to_select();           // conditional_to_select.cc
PassPtr make_constant_folding();                // constant_folding.cc
PassPtr make_dynamic_dimension_simplifier();    // dynamic_dimension_simplifier.cc
PassPtr make_dynamic_index_splitter();          // dynamic_index_splitter.cc
PassPtr make_hlo_module_dce();                  // hlo_module_dce.cc
PassPtr make_map_inliner();                     // map_inliner.cc
PassPtr make_while_loop_constant_sinking();     // while_loop_constant_sinking.cc
PassPtr make_while_loop_invariant_code_motion();  // while_loop_invariant_code_motion.cc
PassPtr make_while_loop_simplifier();           // while_loop_simplifier.cc
PassPtr make_while_loop_unroller();             // while_loop_unroller.cc

void register_control_flow_passes(Registry& r) {
  register_factories(r, {
      make_computation_deduplicator,
      make_conditional_canonicalizer,
      make_conditional_simplifier,
      make_conditional_to_select,
      make_constant_folding,
      make_dynamic_dimension_simplifier,
      make_dynamic_index_splitter,
      make_hlo_module_dce,
      make_map_inliner,
      make_while_loop_constant_sinking,
      make_while_loop_invariant_code_motion,
      make_while_loop_simplifier,
      make_while_loop_unroller,
  });
}

}  // namespace hlsgym::passes
