// The hls pass family: one factory per line.
#include "passes/catalog.h"

namespace hlsgym::passes {

PassPtr make_tree_height_reduction();
PassPtr make_strength_reduction();
PassPtr make_bitwidth_narrowing();
PassPtr make_fusion();
PassPtr make_loop_unroll_by_2();

void register_hls_passes(Registry& r) {
  register_factories(r, {
      make_tree_height_reduction,
      make_strength_reduction,
      make_bitwidth_narrowing,
      make_fusion,
      make_loop_unroll_by_2,
  });
}

}  // namespace hlsgym::passes
