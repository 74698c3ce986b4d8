// The hls pass family: one factory per line.
#include "passes/catalog.h"

namespace hlsgym::passes {

PassPtr make_tree_height_reduction();
PassPtr make_strength_reduction();
PassPtr make_bitwidth_narrowing();
PassPtr make_fusion();
PassPtr make_loop_unroll_by_2();
PassPtr make_unroll_x2();
PassPtr make_unroll_halve();
PassPtr make_loop_pipeline_off();
PassPtr make_loop_pipeline_on();

void register_hls_passes(Registry& r) {
  register_factories(r, {
      make_tree_height_reduction,
      make_strength_reduction,
      make_bitwidth_narrowing,
      make_fusion,
      make_loop_unroll_by_2,
  });
}

// After every earlier action (registry.h), so stored policies keep their indices.
void register_directive_passes(Registry& r) {
  register_factories(r, {make_unroll_x2, make_unroll_halve}, kDirectiveActions);
  register_factories(r, {make_loop_pipeline_off, make_loop_pipeline_on}, kLoopPipelineActions);
}

}  // namespace hlsgym::passes
