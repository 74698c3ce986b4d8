// Two small convolution expanders.
//  - convolution_4d_expander (XLA Convolution4DExpander): a convolution with four spatial
//    dimensions of which some are trivial (input size 1, no padding, so kernel and output
//    size 1 there) becomes reshapes around a convolution without those dimensions.
//  - convolution-pred-expander (XLA ConvolutionPredExpander): a pred convolution is
//    computed in f16 and converted back. The interpreter's pred convolution is "any
//    product true"; in f16 the sum of the 0/1 products is nonzero exactly then (a count
//    that overflows f16 becomes inf, still nonzero), so the result is the same.
#include <algorithm>

#include "ir/error.h"
#include "ir/shape_inference.h"
#include "passes/expander_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

bool static_conv(const ir::Module& m, InstrId i) {
  if (m.operands(i).size() != 2 || !m.attrs(i).conv_dims || !m.attrs(i).window) return false;
  for (InstrId s : {m.operand(i, 0), m.operand(i, 1), i})
    if (!m.shape(s).is_array() || !m.shape(s).is_static()) return false;
  try {  // dimension numbers in range and consistent with the shapes
    return ir::infer_shape(m, Opcode::kConvolution, m.operands(i), m.attrs(i), {}).dims() == m.shape(i).dims();
  } catch (const Error&) {
    return false;
  }
}

// Spatial positions s whose input size is 1 without padding (and kernel and output size 1).
std::vector<size_t> trivial_spatial(const ir::Module& m, InstrId i) {
  const ir::ConvDims& d = *m.attrs(i).conv_dims;
  const ir::Window& w = *m.attrs(i).window;
  const ir::Shape &in = m.shape(m.operand(i, 0)), &k = m.shape(m.operand(i, 1)), &out = m.shape(i);
  std::vector<size_t> out_positions;
  for (size_t s = 0; s < d.input_spatial.size() && s < w.size(); ++s)
    if (in.dim(d.input_spatial[s]) == 1 && w[s].pad_low == 0 && w[s].pad_high == 0 &&
        k.dim(d.kernel_spatial[s]) == 1 && out.dim(d.output_spatial[s]) == 1)
      out_positions.push_back(s);
  return out_positions;
}

// `dim` renumbered after deleting the dimensions in `removed`.
int64_t renumber(int64_t dim, const std::vector<int64_t>& removed) {
  return dim - std::count_if(removed.begin(), removed.end(), [&](int64_t r) { return r < dim; });
}

std::vector<int64_t> without(const std::vector<int64_t>& dims, const std::vector<int64_t>& removed) {
  std::vector<int64_t> out;
  for (int64_t k = 0; k < static_cast<int64_t>(dims.size()); ++k)
    if (std::find(removed.begin(), removed.end(), k) == removed.end()) out.push_back(dims[k]);
  return out;
}

InstrId drop_trivial_spatial(ir::Module& m, InstrId i, const std::vector<size_t>& trivial) {
  const ir::ConvDims& d = *m.attrs(i).conv_dims;
  const ir::Window& w = *m.attrs(i).window;
  std::vector<int64_t> rin, rk, rout;
  for (size_t s : trivial) {
    rin.push_back(d.input_spatial[s]);
    rk.push_back(d.kernel_spatial[s]);
    rout.push_back(d.output_spatial[s]);
  }
  ir::ConvDims nd;
  ir::Window nw;
  nd.input_batch = renumber(d.input_batch, rin), nd.input_feature = renumber(d.input_feature, rin);
  nd.kernel_input_feature = renumber(d.kernel_input_feature, rk);
  nd.kernel_output_feature = renumber(d.kernel_output_feature, rk);
  nd.output_batch = renumber(d.output_batch, rout), nd.output_feature = renumber(d.output_feature, rout);
  for (size_t s = 0; s < d.input_spatial.size(); ++s) {
    if (std::find(trivial.begin(), trivial.end(), s) != trivial.end()) continue;
    nd.input_spatial.push_back(renumber(d.input_spatial[s], rin));
    nd.kernel_spatial.push_back(renumber(d.kernel_spatial[s], rk));
    nd.output_spatial.push_back(renumber(d.output_spatial[s], rout));
    nw.push_back(w[s]);
  }
  expand::Builder b(m, m.computation_of(i));
  const InstrId ops[] = {b.reshape(m.operand(i, 0), without(m.shape(m.operand(i, 0)).dims(), rin)),
                         b.reshape(m.operand(i, 1), without(m.shape(m.operand(i, 1)).dims(), rk))};
  const InstrId conv = m.add_clone(m.computation_of(i), i, ops);
  ir::InstrPayload& p = m.mutable_payload(conv);
  p.shape = ir::Shape(m.shape(i).element_type(), without(m.shape(i).dims(), rout));
  p.attrs.conv_dims = nd;
  p.attrs.window = nw;
  return b.reshape(conv, m.shape(i).dims());
}

class Convolution4DExpander final : public Pass {
 public:
  std::string_view name() const override { return "convolution_4d_expander"; }
  std::string_view description() const override {
    return "removes trivial (size-1, unpadded) spatial dimensions of 4-D convolutions";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kConvolution})) {
      if (!static_conv(m, i) || m.attrs(i).conv_dims->input_spatial.size() != 4) continue;
      const std::vector<size_t> trivial = trivial_spatial(m, i);
      if (trivial.empty()) continue;
      expand::replace_with(m, i, drop_trivial_spatial(m, i, trivial));
      changed = true;
    }
    return changed;
  }
};

class ConvolutionPredExpander final : public Pass {
 public:
  std::string_view name() const override { return "convolution-pred-expander"; }
  std::string_view description() const override {
    return "computes pred convolutions in f16 and converts the result back to pred";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kConvolution})) {
      if (!static_conv(m, i)) continue;
      const ElementType p = ElementType::kPred;
      if (m.shape(i).element_type() != p || m.shape(m.operand(i, 0)).element_type() != p ||
          m.shape(m.operand(i, 1)).element_type() != p)
        continue;
      expand::Builder b(m, m.computation_of(i));
      const InstrId ops[] = {b.convert(m.operand(i, 0), ElementType::kF16),
                             b.convert(m.operand(i, 1), ElementType::kF16)};
      const InstrId conv = m.add_clone(m.computation_of(i), i, ops);
      m.mutable_payload(conv).shape = ir::Shape(ElementType::kF16, m.shape(i).dims());
      expand::replace_with(m, i, b.convert(conv, p));
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_convolution_4d_expander() { return std::make_unique<Convolution4DExpander>(); }
PassPtr make_convolution_pred_expander() { return std::make_unique<ConvolutionPredExpander>(); }

}  // namespace hlsgym::passes
