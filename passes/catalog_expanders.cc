// The expanders pass family: one factory per line.
#include "passes/catalog.h"

namespace hlsgym::passes {

PassPtr make_all_reduce_simplifier();        // all_reduce_simplifier.cc
PassPtr make_batchnorm_expander();           // batchnorm_expander.cc
PassPtr make_bitcast_dtypes_expander();      // bitcast_dtypes_expander.cc
PassPtr make_change_op_data_type();          // dot_conv_casters.cc
PassPtr make_comparison_expander();          // comparison_expander.cc
PassPtr make_convolution_4d_expander();      // convolution_expanders.cc
PassPtr make_convolution_group_converter();  // convolution_group_converter.cc
PassPtr make_convolution_pred_expander();    // convolution_expanders.cc
PassPtr make_gather_expander();              // gather_expander.cc
PassPtr make_logistic_expander();            // logistic_expander.cc
PassPtr make_operand_upcaster();             // dot_conv_casters.cc
PassPtr make_result_caster();                // dot_conv_casters.cc
PassPtr make_scatter_expander();             // scatter_expander.cc
PassPtr make_select_and_scatter_expander();  // select_and_scatter_expander.cc

void register_expander_passes(Registry& r) {
  register_factories(r, {make_all_reduce_simplifier, make_batchnorm_expander, make_bitcast_dtypes_expander,
                         make_change_op_data_type, make_comparison_expander, make_convolution_4d_expander,
                         make_convolution_group_converter, make_convolution_pred_expander, make_gather_expander,
                         make_logistic_expander, make_operand_upcaster, make_result_caster, make_scatter_expander,
                         make_select_and_scatter_expander});
}

}  // namespace hlsgym::passes
