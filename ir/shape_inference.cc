#include "ir/shape_inference.h"

#include <algorithm>
#include <fmt/format.h>

#include "ir/error.h"

namespace hlsgym::ir {
namespace {

[[noreturn]] void fail(Opcode op, const std::string& what) {
  throw Error(fmt::format("{}: {}", name(op), what));
}

std::string str(const Shape& s) { return s.to_string(false); }

Shape same_dims(const Shape& s, ElementType t) {
  Shape r(t, s.dims());
  for (int64_t d = 0; d < static_cast<int64_t>(s.dynamic_dims().size()); ++d)
    if (s.dynamic_dims()[d]) r.set_dynamic(d, true);
  return r;
}

const Shape& array_operand(Opcode op, const Module& m, std::span<const InstrId> ops, size_t k) {
  if (k >= ops.size()) fail(op, fmt::format("needs at least {} operands, has {}", k + 1, ops.size()));
  const Shape& s = m.shape(ops[k]);
  if (!s.is_array()) fail(op, fmt::format("operand {} must be an array, is {}", k, str(s)));
  return s;
}

ElementType real_part_type(ElementType t) {
  return t == ElementType::kC128 ? ElementType::kF64 : t == ElementType::kC64 ? ElementType::kF32 : t;
}

Shape elementwise(const Module& m, Opcode op, std::span<const InstrId> ops) {
  const Shape& a = array_operand(op, m, ops, 0);
  for (size_t k = 1; k < ops.size(); ++k) {
    const Shape& b = array_operand(op, m, ops, k);
    if (b.dims() != a.dims())
      fail(op, fmt::format("operand shapes {} and {} differ", str(a), str(b)));
    if (op != Opcode::kComplex && b.element_type() != a.element_type())
      fail(op, fmt::format("operand element types differ ({} and {}); convert one explicitly",
                           element_type_name(a.element_type()), element_type_name(b.element_type())));
  }
  switch (op) {
    case Opcode::kCompare: case Opcode::kIsFinite: return same_dims(a, ElementType::kPred);
    case Opcode::kAbs: case Opcode::kReal: case Opcode::kImag:
      return same_dims(a, real_part_type(a.element_type()));
    case Opcode::kComplex:
      return same_dims(a, a.element_type() == ElementType::kF64 ? ElementType::kC128 : ElementType::kC64);
    default: return same_dims(a, a.element_type());
  }
}

Shape select_or_clamp(const Module& m, Opcode op, std::span<const InstrId> ops) {
  if (ops.size() != 3) fail(op, "needs 3 operands");
  const Shape& p = array_operand(op, m, ops, 0);
  const Shape& x = array_operand(op, m, ops, 1);
  const Shape& y = array_operand(op, m, ops, 2);
  if (op == Opcode::kSelect) {
    if (p.element_type() != ElementType::kPred) fail(op, "the predicate must be pred, is " + str(p));
    if (!x.compatible(y)) fail(op, fmt::format("branch shapes {} and {} differ", str(x), str(y)));
    if (p.rank() != 0 && p.dims() != x.dims())
      fail(op, fmt::format("predicate shape {} does not match {}", str(p), str(x)));
    return same_dims(x, x.element_type());
  }
  // clamp(min, operand, max): bounds are scalars or the operand's shape.
  for (const Shape* b : {&p, &y}) {
    if (b->element_type() != x.element_type())
      fail(op, fmt::format("bound {} and operand {} have different element types", str(*b), str(x)));
    if (b->rank() != 0 && b->dims() != x.dims())
      fail(op, fmt::format("bound {} must be a scalar or match the operand {}", str(*b), str(x)));
  }
  return same_dims(x, x.element_type());
}

int64_t windowed_size(int64_t in, const WindowDim& w) {
  const int64_t dilated_in = in == 0 ? 0 : (in - 1) * w.base_dilation + 1;
  const int64_t padded = dilated_in + w.pad_low + w.pad_high;
  const int64_t win = (w.size - 1) * w.window_dilation + 1;
  if (padded < win || w.stride <= 0) return 0;
  return (padded - win) / w.stride + 1;
}

// As in XLA, a reduction's result is a tuple when its reducer returns one, which a
// one-input reduction may do too: `(f32[]) reduce(x, init)` with a reducer returning (f32[]).
Shape reduce_like_result(const Module& m, Opcode op, std::span<const InstrId> ops,
                         const std::vector<int64_t>& dims, std::span<const CompId> called) {
  const size_t n = ops.size() / 2;
  std::vector<Shape> results;
  for (size_t k = 0; k < n; ++k) results.push_back(Shape(m.shape(ops[n + k]).element_type(), dims));
  const bool reducer_returns_tuple = !called.empty() && called[0] != kNoId &&
                                     m.computation(called[0]).root != kNoId &&
                                     m.shape(m.computation(called[0]).root).is_tuple();
  return n == 1 && !reducer_returns_tuple ? results[0] : Shape::tuple(std::move(results));
}

Shape reduce(const Module& m, Opcode op, std::span<const InstrId> ops, const Attributes& a,
             std::span<const CompId> called) {
  if (ops.size() < 2 || ops.size() % 2) fail(op, "needs inputs followed by as many init values");
  const Shape& in = array_operand(op, m, ops, 0);
  const size_t n = ops.size() / 2;
  for (size_t k = 0; k < n; ++k) {
    if (m.shape(ops[k]).dims() != in.dims()) fail(op, "all inputs must have the same dimensions");
    if (m.shape(ops[n + k]).rank() != 0) fail(op, "init values must be scalars");
  }
  std::vector<int64_t> keep;
  for (int64_t d = 0; d < in.rank(); ++d) {
    if (std::count(a.dimensions.begin(), a.dimensions.end(), d) == 0) keep.push_back(in.dim(d));
  }
  for (int64_t d : a.dimensions)
    if (d < 0 || d >= in.rank()) fail(op, fmt::format("dimension {} out of range for {}", d, str(in)));
  return reduce_like_result(m, op, ops, keep, called);
}

Shape reduce_window(const Module& m, Opcode op, std::span<const InstrId> ops, const Attributes& a,
                    std::span<const CompId> called) {
  const Shape& in = array_operand(op, m, ops, 0);
  if (!a.window || static_cast<int64_t>(a.window->size()) != in.rank())
    fail(op, fmt::format("window must have one entry per dimension of {}", str(in)));
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < in.rank(); ++d) dims.push_back(windowed_size(in.dim(d), (*a.window)[d]));
  return reduce_like_result(m, op, ops, dims, called);
}

Shape transpose(const Module& m, Opcode op, std::span<const InstrId> ops, const Attributes& a) {
  const Shape& in = array_operand(op, m, ops, 0);
  std::vector<int64_t> perm = a.dimensions, sorted = a.dimensions;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t k = 0; k < static_cast<int64_t>(sorted.size()); ++k)
    if (sorted[k] != k || static_cast<int64_t>(sorted.size()) != in.rank())
      fail(op, fmt::format("dimensions must be a permutation of 0..{}", in.rank() - 1));
  if (sorted.size() != static_cast<size_t>(in.rank()))
    fail(op, fmt::format("dimensions must be a permutation of 0..{}", in.rank() - 1));
  std::vector<int64_t> out;
  for (int64_t p : perm) out.push_back(in.dim(p));
  return Shape(in.element_type(), out);
}

Shape slice(const Module& m, Opcode op, std::span<const InstrId> ops, const Attributes& a) {
  const Shape& in = array_operand(op, m, ops, 0);
  if (static_cast<int64_t>(a.slice.size()) != in.rank())
    fail(op, fmt::format("slice needs {} ranges for {}", in.rank(), str(in)));
  std::vector<int64_t> out;
  for (int64_t d = 0; d < in.rank(); ++d) {
    const SliceDim& s = a.slice[d];
    if (s.start < 0 || s.limit > in.dim(d) || s.start > s.limit || s.stride <= 0)
      fail(op, fmt::format("range [{}:{}:{}] is out of bounds for dimension {} of {}", s.start,
                           s.limit, s.stride, d, str(in)));
    out.push_back((s.limit - s.start + s.stride - 1) / s.stride);
  }
  return Shape(in.element_type(), out);
}

Shape concatenate(const Module& m, Opcode op, std::span<const InstrId> ops, const Attributes& a) {
  const Shape& first = array_operand(op, m, ops, 0);
  if (a.dimensions.size() != 1 || a.dimensions[0] < 0 || a.dimensions[0] >= first.rank())
    fail(op, "needs one dimension in range");
  const int64_t cd = a.dimensions[0];
  std::vector<int64_t> out = first.dims();
  for (size_t k = 1; k < ops.size(); ++k) {
    const Shape& s = array_operand(op, m, ops, k);
    if (s.rank() != first.rank() || s.element_type() != first.element_type())
      fail(op, fmt::format("operands {} and {} do not match", str(first), str(s)));
    for (int64_t d = 0; d < s.rank(); ++d)
      if (d != cd && s.dim(d) != first.dim(d))
        fail(op, fmt::format("operands {} and {} differ outside dimension {}", str(first), str(s), cd));
    out[cd] += s.dim(cd);
  }
  return Shape(first.element_type(), out);
}

Shape pad(const Module& m, Opcode op, std::span<const InstrId> ops, const Attributes& a) {
  const Shape& in = array_operand(op, m, ops, 0);
  const Shape& v = array_operand(op, m, ops, 1);
  if (v.rank() != 0 || v.element_type() != in.element_type())
    fail(op, "the padding value must be a scalar of the operand's element type");
  if (static_cast<int64_t>(a.padding.size()) != in.rank())
    fail(op, fmt::format("padding needs {} entries for {}", in.rank(), str(in)));
  std::vector<int64_t> out;
  for (int64_t d = 0; d < in.rank(); ++d) {
    const PadDim& p = a.padding[d];
    if (p.interior < 0) fail(op, "interior padding must be non-negative");
    const int64_t n = in.dim(d);
    const int64_t size = p.low + p.high + n + (n > 0 ? (n - 1) * p.interior : 0);
    if (size < 0) fail(op, "padding makes a dimension negative");
    out.push_back(size);
  }
  return Shape(in.element_type(), out);
}

Shape dot(const Module& m, Opcode op, std::span<const InstrId> ops, const Attributes& a) {
  const Shape& l = array_operand(op, m, ops, 0);
  const Shape& r = array_operand(op, m, ops, 1);
  DotDims d = a.dot_dims.value_or(DotDims{});
  if (d.lhs_batch.size() != d.rhs_batch.size() || d.lhs_contracting.size() != d.rhs_contracting.size())
    fail(op, "lhs and rhs need as many batch and contracting dimensions");
  auto check = [&](const Shape& s, const std::vector<int64_t>& v) {
    for (int64_t x : v)
      if (x < 0 || x >= s.rank()) fail(op, fmt::format("dimension {} out of range for {}", x, str(s)));
  };
  check(l, d.lhs_batch), check(l, d.lhs_contracting), check(r, d.rhs_batch), check(r, d.rhs_contracting);
  for (size_t k = 0; k < d.lhs_contracting.size(); ++k)
    if (l.dim(d.lhs_contracting[k]) != r.dim(d.rhs_contracting[k]))
      fail(op, fmt::format("contracting dimension sizes differ: {} (dim {}) and {} (dim {})", str(l),
                           d.lhs_contracting[k], str(r), d.rhs_contracting[k]));
  for (size_t k = 0; k < d.lhs_batch.size(); ++k)
    if (l.dim(d.lhs_batch[k]) != r.dim(d.rhs_batch[k])) fail(op, "batch dimension sizes differ");
  std::vector<int64_t> out;
  for (int64_t b : d.lhs_batch) out.push_back(l.dim(b));
  auto free_dims = [&](const Shape& s, const std::vector<int64_t>& batch, const std::vector<int64_t>& con) {
    for (int64_t x = 0; x < s.rank(); ++x)
      if (std::count(batch.begin(), batch.end(), x) == 0 && std::count(con.begin(), con.end(), x) == 0)
        out.push_back(s.dim(x));
  };
  free_dims(l, d.lhs_batch, d.lhs_contracting);
  free_dims(r, d.rhs_batch, d.rhs_contracting);
  return Shape(l.element_type(), out);
}

Shape convolution(const Module& m, Opcode op, std::span<const InstrId> ops, const Attributes& a) {
  const Shape& l = array_operand(op, m, ops, 0);
  const Shape& r = array_operand(op, m, ops, 1);
  if (!a.conv_dims || !a.window) fail(op, "needs window and dim_labels");
  const ConvDims& d = *a.conv_dims;
  const size_t n = d.input_spatial.size();
  if (a.window->size() != n || static_cast<int64_t>(n + 2) != l.rank() || r.rank() != l.rank())
    fail(op, "window, dim_labels and operand ranks disagree");
  auto within = [](int64_t rank, std::initializer_list<int64_t> idx, const std::vector<int64_t>& sp) {
    for (int64_t x : idx) if (x < 0 || x >= rank) return false;
    for (int64_t x : sp) if (x < 0 || x >= rank) return false;
    return true;
  };
  if (!within(l.rank(), {d.input_batch, d.input_feature}, d.input_spatial) ||
      !within(r.rank(), {d.kernel_input_feature, d.kernel_output_feature}, d.kernel_spatial) ||
      !within(l.rank(), {d.output_batch, d.output_feature}, d.output_spatial))
    fail(op, "dim_labels do not match the operand ranks");
  if (a.feature_group_count <= 0 || a.batch_group_count <= 0) fail(op, "group counts must be positive");
  if (l.dim(d.input_feature) != r.dim(d.kernel_input_feature) * a.feature_group_count)
    fail(op, fmt::format("input features {} != kernel input features {} x feature_group_count {}",
                         l.dim(d.input_feature), r.dim(d.kernel_input_feature), a.feature_group_count));
  for (size_t s = 0; s < n; ++s)
    if ((*a.window)[s].size != r.dim(d.kernel_spatial[s]))
      fail(op, fmt::format("window size {} does not match kernel spatial size {}", (*a.window)[s].size,
                           r.dim(d.kernel_spatial[s])));
  std::vector<int64_t> out(n + 2);
  out[d.output_batch] = l.dim(d.input_batch) / a.batch_group_count;
  out[d.output_feature] = r.dim(d.kernel_output_feature);
  for (size_t s = 0; s < n; ++s)
    out[d.output_spatial[s]] = windowed_size(l.dim(d.input_spatial[s]), (*a.window)[s]);
  return Shape(l.element_type(), out);
}

const Shape& root_shape(const Module& m, Opcode op, std::span<const CompId> called, size_t k) {
  if (k >= called.size() || called[k] == kNoId) fail(op, "missing called computation");
  const Computation& c = m.computation(called[k]);
  if (c.root == kNoId) fail(op, "called computation '" + c.name + "' has no root");
  return m.shape(c.root);
}

Shape tuple_of_operands(const Module& m, std::span<const InstrId> ops) {
  std::vector<Shape> s;
  for (InstrId o : ops) s.push_back(m.shape(o));
  return Shape::tuple(std::move(s));
}
}  // namespace

bool can_infer_shape(Opcode op) {
  switch (op) {
    case Opcode::kParameter: case Opcode::kConstant: case Opcode::kConvert:
    case Opcode::kBitcastConvert: case Opcode::kBroadcast: case Opcode::kReshape:
    case Opcode::kBitcast: case Opcode::kIota: case Opcode::kCustomCall: case Opcode::kRng:
    case Opcode::kRngBitGenerator: case Opcode::kFusion: case Opcode::kGather:
    case Opcode::kDynamicReshape: case Opcode::kStochasticConvert:
      return false;
    default: {
      const OpCategory c = info(op).category;
      return c != OpCategory::kCollective && c != OpCategory::kCommunication &&
             c != OpCategory::kLinearAlgebra && c != OpCategory::kLeaf &&
             c != OpCategory::kRandom && c != OpCategory::kOpaque &&
             op != Opcode::kAsyncStart && op != Opcode::kAsyncDone && op != Opcode::kAsyncUpdate &&
             op != Opcode::kCopyStart && op != Opcode::kCopyDone && op != Opcode::kDomain &&
             op != Opcode::kAfterAll && op != Opcode::kAddDependency && op != Opcode::kScan &&
             op != Opcode::kShuffle && op != Opcode::kRaggedDot && op != Opcode::kScaledDot;
    }
  }
}

Shape infer_shape(const Module& m, Opcode op, std::span<const InstrId> ops, const Attributes& a,
                  std::span<const CompId> called) {
  if (!can_infer_shape(op)) fail(op, "the result shape cannot be inferred; give a type");
  const OpcodeInfo& inf = info(op);
  switch (op) {
    case Opcode::kSelect: case Opcode::kClamp: return select_or_clamp(m, op, ops);
    case Opcode::kCopy: case Opcode::kReducePrecision: case Opcode::kOptimizationBarrier:
    case Opcode::kReverse: case Opcode::kSelectAndScatter: case Opcode::kDynamicUpdateSlice:
    case Opcode::kWhile:
      if (ops.empty()) fail(op, "needs an operand");
      return m.shape(ops[0]);
    case Opcode::kTranspose: return transpose(m, op, ops, a);
    case Opcode::kSlice: return slice(m, op, ops, a);
    case Opcode::kDynamicSlice: {
      const Shape& in = array_operand(op, m, ops, 0);
      if (static_cast<int64_t>(a.dynamic_slice_sizes.size()) != in.rank())
        fail(op, fmt::format("dynamic_slice_sizes needs {} entries", in.rank()));
      for (int64_t d = 0; d < in.rank(); ++d)
        if (a.dynamic_slice_sizes[d] > in.dim(d) || a.dynamic_slice_sizes[d] < 0)
          fail(op, fmt::format("slice size {} exceeds dimension {} of {}", a.dynamic_slice_sizes[d], d, str(in)));
      return Shape(in.element_type(), a.dynamic_slice_sizes);
    }
    case Opcode::kConcatenate: return concatenate(m, op, ops, a);
    case Opcode::kPad: return pad(m, op, ops, a);
    case Opcode::kDot: return dot(m, op, ops, a);
    case Opcode::kConvolution: return convolution(m, op, ops, a);
    case Opcode::kReduce: return reduce(m, op, ops, a, called);
    case Opcode::kReduceWindow: return reduce_window(m, op, ops, a, called);
    case Opcode::kTuple: return tuple_of_operands(m, ops);
    case Opcode::kGetTupleElement: {
      if (ops.size() != 1) fail(op, "needs one operand");
      const Shape& t = m.shape(ops[0]);
      if (!t.is_tuple()) fail(op, "operand must be a tuple, is " + str(t));
      if (a.tuple_index < 0 || a.tuple_index >= static_cast<int64_t>(t.tuple_elements().size()))
        fail(op, fmt::format("index {} out of range for {}", a.tuple_index, str(t)));
      return t.tuple_element(a.tuple_index);
    }
    case Opcode::kCall: case Opcode::kConditional: return root_shape(m, op, called, 0);
    case Opcode::kMap: {
      const Shape& in = array_operand(op, m, ops, 0);
      return Shape(root_shape(m, op, called, 0).element_type(), in.dims());
    }
    case Opcode::kSort: case Opcode::kScatter: case Opcode::kAllReduce: {
      const size_t n = op == Opcode::kScatter ? (ops.size() - 1) / 2 : ops.size();
      if (n == 1) return m.shape(ops[0]);
      return tuple_of_operands(m, ops.subspan(0, n));
    }
    case Opcode::kTopK: {
      const Shape& in = array_operand(op, m, ops, 0);
      std::vector<int64_t> d = in.dims();
      if (d.empty() || a.k < 0 || a.k > d.back()) fail(op, "k must be within the last dimension");
      d.back() = a.k;
      return Shape::tuple({Shape(in.element_type(), d), Shape(ElementType::kS32, d)});
    }
    case Opcode::kBatchNormTraining: case Opcode::kBatchNormGrad: case Opcode::kBatchNormInference: {
      const Shape& in = array_operand(op, m, ops, 0);
      if (a.feature_index < 0 || a.feature_index >= in.rank()) fail(op, "feature_index out of range");
      if (op == Opcode::kBatchNormInference) return in;
      Shape feat(in.element_type(), {in.dim(a.feature_index)});
      return Shape::tuple({in, feat, feat});
    }
    default: break;
  }
  if (inf.elementwise) return elementwise(m, op, ops);
  fail(op, "the result shape cannot be inferred; give a type");
}

}  // namespace hlsgym::ir
