// convolution-group-converter (XLA ConvolutionGroupConverter; the CPU pipeline runs it for
// batch groups, then for feature groups): a convolution with feature_group_count G > 1 (or
// batch_group_count G > 1) becomes a plain convolution, by XLA's extra-spatial-dimension
// construction. The group index is split off the input feature (or input batch) dimension
// and off the kernel output feature dimension as a new spatial dimension of size G, and
// the window gains a dimension {size G, stride G-1, base dilation G}: output position p of
// that dimension then meets input group p only with kernel group p, so each output feature
// sums exactly the products of its own group, in the same order as the grouped
// convolution (the new dimension is innermost), and the interpreter's double accumulation
// gives the same bits. A reshape merges the output's new dimension back.
//
// XLA, with filter_expansion=true, instead builds a block-diagonal filter for depthwise
// convolutions (one input feature per group) and multiplies the other groups' inputs by
// zero; that is exact only for finite inputs (inf * 0 = NaN), so it is not used here.
#include <algorithm>

#include "ir/error.h"
#include "ir/shape_inference.h"
#include "passes/expander_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

// Splits dimension `at` of `dims` into [g, dims[at] / g].
std::vector<int64_t> split(std::vector<int64_t> dims, int64_t at, int64_t g) {
  dims[at] /= g;
  dims.insert(dims.begin() + at, g);
  return dims;
}

// Dimension numbers after a new dimension is inserted at `at`.
int64_t shifted(int64_t dim, int64_t at) { return dim >= at ? dim + 1 : dim; }
void shift_all(std::vector<int64_t>& dims, int64_t at) {
  for (int64_t& d : dims) d = shifted(d, at);
}

bool matches(const ir::Module& m, InstrId i) {
  const ir::Attributes& a = m.attrs(i);
  if (m.operands(i).size() != 2 || !a.conv_dims || !a.window) return false;
  if ((a.feature_group_count > 1) == (a.batch_group_count > 1)) return false;  // none, or both (invalid)
  for (InstrId s : {m.operand(i, 0), m.operand(i, 1), i})
    if (!m.shape(s).is_array() || !m.shape(s).is_static()) return false;
  try {
    if (ir::infer_shape(m, Opcode::kConvolution, m.operands(i), a, {}).dims() != m.shape(i).dims()) return false;
  } catch (const Error&) {
    return false;
  }
  const ir::ConvDims& d = *a.conv_dims;
  const int64_t g = std::max(a.feature_group_count, a.batch_group_count);
  const int64_t split_input = a.feature_group_count > 1 ? d.input_feature : d.input_batch;
  const int64_t out_features = m.shape(m.operand(i, 1)).dim(d.kernel_output_feature);
  return m.shape(m.operand(i, 0)).dim(split_input) % g == 0 && out_features % g == 0 && out_features > 0;
}

InstrId ungroup(ir::Module& m, InstrId i) {
  const ir::Attributes& a = m.attrs(i);
  const bool feature_groups = a.feature_group_count > 1;
  const int64_t g = feature_groups ? a.feature_group_count : a.batch_group_count;
  ir::ConvDims d = *a.conv_dims;
  // Input: the group becomes a spatial dimension right before the feature (or batch) one.
  const int64_t in_at = feature_groups ? d.input_feature : d.input_batch;
  const std::vector<int64_t> in_dims = split(m.shape(m.operand(i, 0)).dims(), in_at, g);
  d.input_batch = shifted(d.input_batch, in_at), d.input_feature = shifted(d.input_feature, in_at);
  shift_all(d.input_spatial, in_at);
  d.input_spatial.push_back(in_at);
  // Kernel and output: the group splits off the output feature dimension.
  const int64_t k_at = d.kernel_output_feature;
  const std::vector<int64_t> k_dims = split(m.shape(m.operand(i, 1)).dims(), k_at, g);
  d.kernel_input_feature = shifted(d.kernel_input_feature, k_at), d.kernel_output_feature = k_at + 1;
  shift_all(d.kernel_spatial, k_at);
  d.kernel_spatial.push_back(k_at);
  const int64_t o_at = d.output_feature;
  const std::vector<int64_t> o_dims = split(m.shape(i).dims(), o_at, g);
  d.output_batch = shifted(d.output_batch, o_at), d.output_feature = o_at + 1;
  shift_all(d.output_spatial, o_at);
  d.output_spatial.push_back(o_at);
  ir::Window w = *a.window;
  w.push_back(ir::WindowDim{g, g - 1, 0, 0, g, 1, false});

  expand::Builder b(m, m.computation_of(i));
  const InstrId ops[] = {b.reshape(m.operand(i, 0), in_dims), b.reshape(m.operand(i, 1), k_dims)};
  const InstrId conv = m.add_clone(m.computation_of(i), i, ops);
  ir::InstrPayload& p = m.mutable_payload(conv);
  p.shape = ir::Shape(m.shape(i).element_type(), o_dims);
  p.attrs.conv_dims = d;
  p.attrs.window = w;
  p.attrs.feature_group_count = 1;
  p.attrs.batch_group_count = 1;
  return b.reshape(conv, m.shape(i).dims());
}

class ConvolutionGroupConverter final : public Pass {
 public:
  std::string_view name() const override { return "convolution-group-converter"; }
  std::string_view description() const override {
    return "turns grouped convolutions (feature or batch groups) into plain convolutions";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kConvolution})) {
      if (!matches(m, i)) continue;
      expand::replace_with(m, i, ungroup(m, i));
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_convolution_group_converter() { return std::make_unique<ConvolutionGroupConverter>(); }

}  // namespace hlsgym::passes
