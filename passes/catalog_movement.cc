// The movement pass family (data movement, dot canonicalization, sorts, conversions):
// one factory per line.
#include "passes/catalog.h"

namespace hlsgym::passes {

PassPtr make_batch_dot_simplification();  // batch_dot_simplification.cc
PassPtr make_broadcast_canonicalizer();  // broadcast_canonicalizer.cc
PassPtr make_convert_mover();            // convert_mover.cc
PassPtr make_defuser();                  // defuser.cc
PassPtr make_dot_decomposer();           // dot_decomposer.cc
PassPtr make_dot_dimension_sorter();     // dot_dimension_sorter.cc
PassPtr make_dot_merger();               // dot_merger.cc
PassPtr make_reshape_mover();            // reshape_mover.cc
PassPtr make_simplify_fp_conversions();  // simplify_fp_conversions.cc
PassPtr make_slice_sinker();             // slice_sinker.cc
PassPtr make_sort_simplifier();          // sort_simplifier.cc
PassPtr make_stable_sort_expander();     // stable_sort_expander.cc
PassPtr make_transpose_folding();        // transpose_folding.cc
PassPtr make_tree_reduction_rewriter();  // tree_reduction_rewriter.cc

void register_movement_passes(Registry& r) {
  register_factories(r, {make_batch_dot_simplification, make_broadcast_canonicalizer, make_convert_mover, make_defuser,
                         make_dot_decomposer, make_dot_dimension_sorter, make_dot_merger, make_reshape_mover,
                         make_simplify_fp_conversions, make_slice_sinker, make_sort_simplifier, make_stable_sort_expander,
                         make_transpose_folding, make_tree_reduction_rewriter});
}

}  // namespace hlsgym::passes
