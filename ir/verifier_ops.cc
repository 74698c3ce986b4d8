#include "ir/verifier_ops.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ir/error.h"

namespace hlsgym::ir {
namespace {

[[noreturn]] void fail(const std::string& what) { throw Error(what); }

std::string str(const Shape& s) { return s.to_string(false); }

const Shape& operand_shape(const Module& m, InstrId i, size_t k) { return m.shape(m.operand(i, k)); }

void need_operands(const Module& m, InstrId i, size_t at_least) {
  if (m.operands(i).size() < at_least)
    fail(fmt::format("{} needs at least {} operand(s), has {}", name(m.opcode(i)), at_least, m.operands(i).size()));
}

// Sorted, without repeats, every entry in [0, bound).
void check_dim_list(const std::vector<int64_t>& v, int64_t bound, const char* what, bool sorted = true) {
  for (size_t k = 0; k < v.size(); ++k) {
    if (v[k] < 0 || v[k] >= bound) fail(fmt::format("{} {{{}}}: {} is outside [0, {})", what, fmt::join(v, ","), v[k], bound));
    if (sorted && k > 0 && v[k] <= v[k - 1]) fail(fmt::format("{} {{{}}} must be sorted without repeats", what, fmt::join(v, ",")));
  }
  if (!sorted) {
    std::vector<int64_t> s = v;
    std::sort(s.begin(), s.end());
    if (std::adjacent_find(s.begin(), s.end()) != s.end())
      fail(fmt::format("{} {{{}}} has a repeated dimension", what, fmt::join(v, ",")));
  }
}

bool contains(const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); }

// Indices with index_vector_dim == rank have an implicit trailing dimension of size 1.
std::vector<int64_t> expanded_indices(const Shape& indices, int64_t index_vector_dim) {
  if (!indices.is_array() || !(is_integral(indices.element_type())))
    fail("the indices must be an integer array, are " + str(indices));
  if (index_vector_dim < 0 || index_vector_dim > indices.rank())
    fail(fmt::format("index_vector_dim={} is outside [0, {}]", index_vector_dim, indices.rank()));
  std::vector<int64_t> d = indices.dims();
  if (index_vector_dim == indices.rank()) d.push_back(1);
  return d;
}

void check_array(const Shape& s, const char* what) {
  if (!s.is_array()) fail(fmt::format("{} must be an array, is {}", what, str(s)));
}

void check_scatter(const Module& m, InstrId i) {
  const auto ops = m.operands(i);
  const size_t n = (ops.size() - 1) / 2;
  const ScatterDims& d = *m.attrs(i).scatter_dims;
  const Shape& operand = m.shape(ops[0]);
  const Shape& updates = m.shape(ops[n + 1]);
  for (size_t k = 0; k < n; ++k) {
    check_array(m.shape(ops[k]), "a scatter operand");
    check_array(m.shape(ops[n + 1 + k]), "a scatter update");
    if (m.shape(ops[k]).dims() != operand.dims()) fail("scatter operands must have the same dimensions");
    if (m.shape(ops[n + 1 + k]).dims() != updates.dims()) fail("scatter updates must have the same dimensions");
    if (m.shape(ops[n + 1 + k]).element_type() != m.shape(ops[k]).element_type())
      fail(fmt::format("scatter update {} has another element type than operand {}", str(m.shape(ops[n + 1 + k])),
                       str(m.shape(ops[k]))));
  }
  const std::vector<int64_t> idx = expanded_indices(operand_shape(m, i, n), d.index_vector_dim);
  const int64_t idx_rank = static_cast<int64_t>(idx.size());
  check_dim_list(d.update_window_dims, updates.rank(), "update_window_dims");
  check_dim_list(d.inserted_window_dims, operand.rank(), "inserted_window_dims");
  check_dim_list(d.input_batching_dims, operand.rank(), "input_batching_dims");
  check_dim_list(d.scatter_indices_batching_dims, idx_rank, "scatter_indices_batching_dims", false);
  for (int64_t b : d.input_batching_dims)
    if (contains(d.inserted_window_dims, b)) fail("input_batching_dims and inserted_window_dims overlap");
  if (contains(d.scatter_indices_batching_dims, d.index_vector_dim))
    fail("scatter_indices_batching_dims contains index_vector_dim");
  if (d.input_batching_dims.size() != d.scatter_indices_batching_dims.size())
    fail("input_batching_dims and scatter_indices_batching_dims need the same length");
  const int64_t index_count = idx[static_cast<size_t>(d.index_vector_dim)];
  if (static_cast<int64_t>(d.scatter_dims_to_operand_dims.size()) != index_count)
    fail(fmt::format("scatter_dims_to_operand_dims has {} entries but the index vectors have {}",
                     d.scatter_dims_to_operand_dims.size(), index_count));
  check_dim_list(d.scatter_dims_to_operand_dims, operand.rank(), "scatter_dims_to_operand_dims", false);
  const size_t window = d.update_window_dims.size();
  if (static_cast<int64_t>(window + d.inserted_window_dims.size() + d.input_batching_dims.size()) != operand.rank())
    fail(fmt::format("update_window_dims ({}) + inserted_window_dims ({}) + input_batching_dims ({}) must equal "
                     "the operand rank {}", window, d.inserted_window_dims.size(), d.input_batching_dims.size(),
                     operand.rank()));
  if (static_cast<int64_t>(window) + idx_rank - 1 != updates.rank())
    fail(fmt::format("updates {} need rank {} (window dimensions + index batch dimensions)", str(updates),
                     static_cast<int64_t>(window) + idx_rank - 1));
  // Window dimensions of the updates fit the operand dimensions they land in.
  size_t w = 0;
  for (int64_t od = 0; od < operand.rank(); ++od) {
    if (contains(d.inserted_window_dims, od) || contains(d.input_batching_dims, od)) continue;
    const int64_t ud = d.update_window_dims[w++];
    if (updates.dim(ud) > operand.dim(od))
      fail(fmt::format("update window dimension {} (size {}) is larger than operand dimension {} (size {})", ud,
                       updates.dim(ud), od, operand.dim(od)));
  }
  // The other update dimensions are the index batch dimensions, in order.
  size_t b = 0;
  for (int64_t ud = 0; ud < updates.rank(); ++ud) {
    if (contains(d.update_window_dims, ud)) continue;
    if (b == static_cast<size_t>(d.index_vector_dim)) ++b;
    if (updates.dim(ud) != idx[b])
      fail(fmt::format("update scatter dimension {} (size {}) differs from the indices' dimension {} (size {})", ud,
                       updates.dim(ud), b, idx[b]));
    ++b;
  }
}

void check_dynamic_slice(const Module& m, InstrId i, size_t first_index) {
  need_operands(m, i, first_index);
  const Shape& operand = operand_shape(m, i, 0);
  check_array(operand, "the sliced operand");
  const size_t n = m.operands(i).size();
  // The older form, one rank-1 index vector (what dynamic-index-splitter rewrites).
  const bool vector_form = n == first_index + 1 && [&] {
    const Shape& v = operand_shape(m, i, first_index);
    return v.is_array() && v.rank() == 1 && v.dim(0) == operand.rank() && is_integral(v.element_type());
  }();
  if (!vector_form && static_cast<int64_t>(n - first_index) != operand.rank())
    fail(fmt::format("{} needs {} scalar start indices for {}, has {}", name(m.opcode(i)), operand.rank(), str(operand),
                     n - first_index));
  for (size_t k = first_index; k < n && !vector_form; ++k) {
    const Shape& s = operand_shape(m, i, k);
    if (!s.is_array() || s.rank() != 0 || !is_integral(s.element_type()))
      fail(fmt::format("start index {} must be an integer scalar, is {}", k - first_index, str(s)));
  }
  if (m.opcode(i) != Opcode::kDynamicUpdateSlice) return;
  const Shape& update = operand_shape(m, i, 1);
  check_array(update, "the update");
  if (update.rank() != operand.rank() || update.element_type() != operand.element_type())
    fail(fmt::format("update {} must have the rank and element type of the operand {}", str(update), str(operand)));
  for (int64_t d = 0; d < operand.rank(); ++d)
    if (update.dim(d) > operand.dim(d))
      fail(fmt::format("update {} is larger than the operand {} in dimension {}", str(update), str(operand), d));
}

void check_convert_like(const Module& m, InstrId i) {
  const Opcode op = m.opcode(i);
  const Shape& in = operand_shape(m, i, 0);
  const Shape& out = m.shape(i);
  check_array(in, "the operand");
  check_array(out, "the result");
  if (op == Opcode::kConvert || op == Opcode::kStochasticConvert) {
    if (in.dims() != out.dims())
      fail(fmt::format("{} from {} to {} changes the dimensions", name(op), str(in), str(out)));
    return;
  }
  if (op == Opcode::kReshape) {
    if (in.element_type() != out.element_type())
      fail(fmt::format("reshape from {} to {} changes the element type (use convert or bitcast-convert)", str(in),
                       str(out)));
    return;
  }
  if (op == Opcode::kBitcast) {
    if (in.is_static() && out.is_static() && in.byte_size() != out.byte_size())
      fail(fmt::format("bitcast from {} to {} changes the byte size", str(in), str(out)));
    return;
  }
  // bitcast-convert: same bit width keeps the dimensions; a wider input gains a minor
  // dimension of (input width / output width), a narrower one loses it.
  const int wi = bit_width(in.element_type()), wo = bit_width(out.element_type());
  std::vector<int64_t> want = in.dims();
  if (wi > wo) want.push_back(wi / wo);
  if (wi < wo) {
    if (want.empty() || want.back() != wo / wi)
      fail(fmt::format("bitcast-convert from {} to {} needs a minor dimension of {}", str(in), str(out), wo / wi));
    want.pop_back();
  }
  if ((wi > wo ? wi % wo : wo % wi) != 0 || want != out.dims())
    fail(fmt::format("bitcast-convert from {} to {} does not preserve the bits", str(in), str(out)));
}

void check_threefry(const Module& m, InstrId i) {
  const Shape& out = m.shape(i);
  if (m.operands(i).size() != 4) fail(fmt::format("cuda_threefry2x32 takes key0, key1, x0, x1, has {} operands", m.operands(i).size()));
  if (!out.is_tuple() || out.tuple_elements().size() != 2 || !out.tuple_element(0).compatible(out.tuple_element(1)) ||
      out.tuple_element(0).element_type() != ElementType::kU32)
    fail("cuda_threefry2x32 returns a pair of u32 arrays of one shape, not " + str(out));
  const int64_t n = out.tuple_element(0).element_count();
  for (size_t k = 0; k < 4; ++k) {
    const Shape& s = operand_shape(m, i, k);
    if (!s.is_array() || s.element_type() != ElementType::kU32 || (s.element_count() != 1 && s.element_count() != n))
      fail(fmt::format("cuda_threefry2x32 operand {} is {}; it must be u32 with {} elements (or one)", k, str(s), n));
  }
}

// XLA's ShapeInference::InferFftShape.
void check_fft(const Module& m, InstrId i) {
  const Attributes& a = m.attrs(i);
  const Shape& in = operand_shape(m, i, 0);
  const Shape& out = m.shape(i);
  check_array(out, "the fft result");
  const std::string& t = a.fft_type;
  if (t != "FFT" && t != "IFFT" && t != "RFFT" && t != "IRFFT")
    fail("fft needs fft_type= FFT, IFFT, RFFT or IRFFT");
  const auto& len = a.fft_length;
  const int64_t k = static_cast<int64_t>(len.size());
  if (k < 1 || k > 3 || k > in.rank())
    fail(fmt::format("fft_length needs 1 to 3 entries, at most the operand rank {}", in.rank()));
  for (int64_t n : len)
    if (n < 0) fail("fft_length entries must be non-negative");
  const bool real_in = t == "RFFT", real_out = t == "IRFFT";
  const ElementType ti = in.element_type(), to = out.element_type();
  if (real_in ? !(ti == ElementType::kF32 || ti == ElementType::kF64) : !is_complex(ti))
    fail(fmt::format("{} takes a {} operand, not {}", t, real_in ? "f32 or f64" : "complex", str(in)));
  if (real_out ? !(to == ElementType::kF32 || to == ElementType::kF64) : !is_complex(to))
    fail(fmt::format("{} returns a {} array, not {}", t, real_out ? "f32 or f64" : "complex", str(out)));
  if (bit_width(real_in ? to : ti) != 2 * bit_width(real_in ? ti : to) && (real_in || real_out))
    fail(fmt::format("{} from {} to {} changes the precision", t, str(in), str(out)));
  if (!real_in && !real_out && ti != to) fail(fmt::format("{} from {} to {} changes the element type", t, str(in), str(out)));
  // The transformed dimensions: the real side has fft_length, the complex side keeps n/2+1 of the last.
  const Shape& real_side = real_out ? out : in;
  std::vector<int64_t> expect = in.dims();
  for (int64_t d = 0; d < k; ++d) {
    const int64_t axis = in.rank() - k + d;
    if (real_side.rank() != in.rank() || real_side.dim(axis) != len[static_cast<size_t>(d)])
      fail(fmt::format("{} with fft_length {{{}}} does not match {}", t, fmt::join(len, ","), str(real_side)));
  }
  if (real_in) expect.back() = len.back() / 2 + 1;
  if (real_out) expect.back() = len.back();
  if (real_out && in.dims().back() != len.back() / 2 + 1)
    fail(fmt::format("IRFFT of length {} needs {} complex entries in the last dimension of {}", len.back(),
                     len.back() / 2 + 1, str(in)));
  if (out.dims() != expect) fail(fmt::format("{} of {} gives dimensions [{}], declared {}", t, str(in), fmt::join(expect, ","), str(out)));
}

// Ops whose operands are values: an element-wise op, a movement, a contraction, ...
// A token or a tuple there has no elements to compute with.
bool takes_array_operands(Opcode op) {
  switch (info(op).category) {
    case OpCategory::kUnary: case OpCategory::kBinary: case OpCategory::kTernary: case OpCategory::kContraction:
    case OpCategory::kIndexing: case OpCategory::kReduction: case OpCategory::kNormalization:
    case OpCategory::kLinearAlgebra:
      return true;
    case OpCategory::kDataMovement:
      return op != Opcode::kCopy && op != Opcode::kCopyStart && op != Opcode::kCopyDone;
    default:
      return op == Opcode::kAllReduce || op == Opcode::kAllReduceStart || op == Opcode::kReduceScatter ||
             op == Opcode::kAllGather || op == Opcode::kAllToAll;
  }
}

// The scalar parameters and result an applied computation must have.
// `tuple_result`: the applied computation returns a tuple even of one element (a
// one-input reduction whose result XLA lets be a 1-tuple).
void check_applied(const Module& m, CompId k, const std::vector<ElementType>& params, const std::vector<ElementType>& results,
                   const char* role, bool tuple_result = false) {
  const Computation& c = m.computation(k);
  if (c.params.size() != params.size())
    fail(fmt::format("{} {} takes {} parameters, needs {}", role, c.name, c.params.size(), params.size()));
  for (size_t p = 0; p < params.size(); ++p) {
    if (c.params[p] == kNoId) continue;  // a numbering gap is reported with the computation
    const Shape& s = m.shape(c.params[p]);
    if (!s.is_array() || s.rank() != 0 || s.element_type() != params[p])
      fail(fmt::format("{} {} parameter {} is {}, needs {}[]", role, c.name, p, str(s), element_type_name(params[p])));
  }
  if (c.root == kNoId || results.empty()) return;
  const Shape& r = m.shape(c.root);
  std::vector<Shape> want;
  for (ElementType t : results) want.push_back(Shape::scalar(t));
  const Shape expect = want.size() == 1 && !tuple_result ? want[0] : Shape::tuple(want);
  if (!r.compatible(expect)) fail(fmt::format("{} {} returns {}, needs {}", role, c.name, str(r), str(expect)));
}

void check_call_arguments(const Module& m, InstrId i, CompId k, std::span<const InstrId> args, const char* role) {
  const Computation& c = m.computation(k);
  if (c.params.size() != args.size())
    fail(fmt::format("{} {} takes {} parameters, is given {}", role, c.name, c.params.size(), args.size()));
  for (size_t p = 0; p < args.size(); ++p)
    if (c.params[p] != kNoId && !m.shape(c.params[p]).compatible(m.shape(args[p])))
      fail(fmt::format("{} {} parameter {} is {} but is given {} ({})", role, c.name, p, str(m.shape(c.params[p])),
                       str(m.shape(args[p])), m.name(args[p])));
  (void)i;
}

std::vector<ElementType> element_types(const Module& m, std::span<const InstrId> ops) {
  std::vector<ElementType> t;
  for (InstrId o : ops) t.push_back(m.shape(o).element_type());
  return t;
}

void check_signatures(const Module& m, InstrId i) {
  const Opcode op = m.opcode(i);
  const auto& called = m.called(i);
  const auto ops = m.operands(i);
  if (called.empty()) return;
  switch (op) {
    case Opcode::kReduce: case Opcode::kReduceWindow: {
      if (ops.size() < 2 || ops.size() % 2) return;  // reported by shape inference
      // XLA's reducer signature: (accumulators..., inputs...) -> accumulators.
      const size_t n = ops.size() / 2;
      std::vector<ElementType> acc = element_types(m, ops.subspan(n));
      std::vector<ElementType> params = acc;
      for (ElementType t : element_types(m, ops.subspan(0, n))) params.push_back(t);
      return check_applied(m, called[0], params, acc, "to_apply", m.shape(i).is_tuple());
    }
    case Opcode::kMap:
      // XLA's map takes operands of one shape; on a scalar operand the interpreter and the
      // passes disagreed (a fuzzed --check failure), so it is refused as XLA refuses it.
      for (size_t k = 0; k < ops.size(); ++k)
        if (operand_shape(m, i, k).dims() != m.shape(i).dims())
          fail(fmt::format("map operand {} is {}; every operand must have the result's dimensions, {}", k,
                           str(operand_shape(m, i, k)), str(m.shape(i))));
      return check_applied(m, called[0], element_types(m, ops), {m.shape(i).element_type()}, "to_apply");
    case Opcode::kSort: {
      std::vector<ElementType> params;
      for (ElementType t : element_types(m, ops)) params.insert(params.end(), {t, t});
      return check_applied(m, called[0], params, {ElementType::kPred}, "comparator");
    }
    case Opcode::kScatter: {
      const size_t n = (ops.size() - 1) / 2;
      std::vector<ElementType> acc = element_types(m, ops.subspan(0, n));
      std::vector<ElementType> params = acc;
      params.insert(params.end(), acc.begin(), acc.end());
      return check_applied(m, called[0], params, acc, "to_apply");
    }
    case Opcode::kSelectAndScatter: {
      if (called.size() < 2) return;
      const ElementType t = operand_shape(m, i, 0).element_type(), s = operand_shape(m, i, 1).element_type();
      check_applied(m, called[0], {t, t}, {ElementType::kPred}, "select");
      return check_applied(m, called[1], {s, s}, {s}, "scatter");
    }
    case Opcode::kAllReduce: case Opcode::kAllReduceStart: case Opcode::kReduceScatter: {
      if (ops.empty()) return;
      std::vector<ElementType> t = {operand_shape(m, i, 0).element_type()};
      return check_applied(m, called[0], {t[0], t[0]}, t, "to_apply");
    }
    case Opcode::kCall: case Opcode::kFusion: {
      const char* role = op == Opcode::kCall ? "to_apply" : "calls";
      check_call_arguments(m, i, called[0], ops, role);
      // a fuzzed fusion declared f32[512,12] over a body returning f32[512,512]: the
      // interpreter and the inlining passes read it differently
      const Computation& c = m.computation(called[0]);
      if (c.root != kNoId && !m.shape(c.root).compatible(m.shape(i)))
        fail(fmt::format("{} {} returns {} but the {} is declared {}", role, c.name, str(m.shape(c.root)), ir::name(op),
                         str(m.shape(i))));
      return;
    }
    case Opcode::kWhile:
      if (called.size() != 2 || ops.size() != 1) return;
      check_call_arguments(m, i, called[0], ops, "condition");
      return check_call_arguments(m, i, called[1], ops, "body");
    case Opcode::kConditional: {
      if (ops.empty()) fail("conditional needs a selector operand");
      const Shape& p = operand_shape(m, i, 0);
      if (!p.is_array() || p.rank() != 0 ||
          (p.element_type() != ElementType::kPred && p.element_type() != ElementType::kS32))
        fail("the conditional's selector must be pred[] or s32[], is " + str(p));
      if (p.element_type() == ElementType::kPred && called.size() != 2)
        fail("a conditional on a pred takes two branches");
      for (size_t k = 0; k < called.size() && k + 1 < ops.size(); ++k)
        check_call_arguments(m, i, called[k], ops.subspan(k + 1, 1), "branch");
      return;
    }
    default:
      return;
  }
}

// all-gather concatenates the participants' operands along its dimension, reduce-scatter
// keeps one participant's shard of the reduced operand along it: the rank, the element
// type and every other dimension stay, and the gathered (scattered) dimension is a
// multiple (a divisor) of the operand's. The interpreter reads the operand at the
// result's indices, so a result larger than this rule allows is an out-of-bounds read.
// A rank-0 operand of a variadic one (torch_xla's bf16[] companion) is passed through.
void check_gather_scatter(const Module& m, InstrId i) {
  const Opcode op = m.opcode(i);
  const bool gather = op == Opcode::kAllGather;
  const auto& dims = m.attrs(i).dimensions;
  if (dims.size() != 1) fail(fmt::format("{} needs one dimension (dimensions={{d}})", name(op)));
  const int64_t d = dims[0];
  const size_t n = m.operands(i).size();
  const Shape& out = m.shape(i);
  if (n > 1 && (!out.is_tuple() || out.tuple_elements().size() != n))
    fail(fmt::format("{} of {} operands returns {}, not a tuple of {}", name(op), n, str(out), n));
  for (size_t k = 0; k < n; ++k) {
    const Shape& in = operand_shape(m, i, k);
    const Shape& res = n == 1 ? out : out.tuple_element(static_cast<int64_t>(k));
    if (!res.is_array() || res.element_type() != in.element_type() || res.rank() != in.rank())
      fail(fmt::format("{} of {} cannot return {}", name(op), str(in), str(res)));
    if (in.rank() == 0) continue;
    if (d < 0 || d >= in.rank()) fail(fmt::format("{} dimension {} is out of range for {}", name(op), d, str(in)));
    bool ok = true;
    for (int64_t x = 0; x < in.rank(); ++x)
      if (x != d) ok &= res.dim(x) == in.dim(x);
    const int64_t whole = gather ? res.dim(d) : in.dim(d), part = gather ? in.dim(d) : res.dim(d);
    ok &= part == 0 ? whole == 0 : whole >= part && whole % part == 0;
    if (!ok)
      fail(fmt::format("{} of {} along dimension {} cannot return {}: the other dimensions stay and dimension {} {} {}",
                       name(op), str(in), d, str(res), d, gather ? "grows to a multiple of" : "shrinks to a divisor of",
                       in.dim(d)));
  }
}

void check_collective(const Module& m, InstrId i) {
  const Opcode op = m.opcode(i);
  need_operands(m, i, 1);
  if (op == Opcode::kAllGather || op == Opcode::kReduceScatter) return check_gather_scatter(m, i);
  if (op != Opcode::kAllReduce && op != Opcode::kAllReduceStart) return;
  // One replica's view: all-reduce returns its operands' shapes.
  std::vector<Shape> s;
  for (InstrId o : m.operands(i)) s.push_back(m.shape(o));
  const Shape expect = s.size() == 1 ? s[0] : Shape::tuple(s);
  if (op == Opcode::kAllReduce && !m.shape(i).compatible(expect))
    fail(fmt::format("all-reduce of {} cannot return {}", str(expect), str(m.shape(i))));
}

void check_one(const Module& m, InstrId i) {
  const Opcode op = m.opcode(i);
  if (takes_array_operands(op))
    for (size_t k = 0; k < m.operands(i).size(); ++k) {
      const Shape& s = operand_shape(m, i, k);
      if (!s.is_array()) fail(fmt::format("operand {} ({}) is {}, not an array of values", k, m.name(m.operand(i, k)), str(s)));
    }
  switch (op) {
    case Opcode::kConvert: case Opcode::kStochasticConvert: case Opcode::kReshape: case Opcode::kBitcast:
    case Opcode::kBitcastConvert:
      check_convert_like(m, i);
      break;
    case Opcode::kGather: {
      const Shape inferred = infer_gather_shape(operand_shape(m, i, 0), operand_shape(m, i, 1), *m.attrs(i).gather_dims);
      if (!inferred.compatible(m.shape(i)))
        fail(fmt::format("declared shape {} but the operands give {}", str(m.shape(i)), str(inferred)));
      break;
    }
    case Opcode::kScatter: check_scatter(m, i); break;
    case Opcode::kFft: check_fft(m, i); break;
    case Opcode::kDynamicSlice: check_dynamic_slice(m, i, 1); break;
    case Opcode::kDynamicUpdateSlice: check_dynamic_slice(m, i, 2); break;
    case Opcode::kAllReduce: case Opcode::kAllReduceStart: case Opcode::kReduceScatter: case Opcode::kAllGather:
    case Opcode::kAllToAll: case Opcode::kCollectivePermute:
      check_collective(m, i);
      break;
    case Opcode::kCustomCall:
      if (m.attrs(i).custom_call_target == "cuda_threefry2x32") check_threefry(m, i);
      break;
    case Opcode::kReduce:
      for (size_t k = 0; k + 1 < m.attrs(i).dimensions.size(); ++k)
        if (contains(std::vector<int64_t>(m.attrs(i).dimensions.begin() + static_cast<std::ptrdiff_t>(k) + 1,
                                          m.attrs(i).dimensions.end()),
                     m.attrs(i).dimensions[k]))
          fail(fmt::format("reduce dimensions {{{}}} repeat a dimension", fmt::join(m.attrs(i).dimensions, ",")));
      break;
    default: break;
  }
  check_signatures(m, i);
}

}  // namespace

Shape infer_gather_shape(const Shape& operand, const Shape& indices, const GatherDims& d) {
  check_array(operand, "the gather operand");
  const std::vector<int64_t> idx = expanded_indices(indices, d.index_vector_dim);
  const int64_t batch_rank = static_cast<int64_t>(idx.size()) - 1;
  const int64_t out_rank = static_cast<int64_t>(d.offset_dims.size()) + batch_rank;
  check_dim_list(d.offset_dims, out_rank, "offset_dims");
  check_dim_list(d.collapsed_slice_dims, operand.rank(), "collapsed_slice_dims");
  check_dim_list(d.operand_batching_dims, operand.rank(), "operand_batching_dims");
  check_dim_list(d.start_indices_batching_dims, static_cast<int64_t>(idx.size()), "start_indices_batching_dims", false);
  if (contains(d.start_indices_batching_dims, d.index_vector_dim))
    fail("start_indices_batching_dims contains index_vector_dim");
  if (d.operand_batching_dims.size() != d.start_indices_batching_dims.size())
    fail("operand_batching_dims and start_indices_batching_dims need the same length");
  for (int64_t b : d.operand_batching_dims)
    if (contains(d.collapsed_slice_dims, b)) fail("operand_batching_dims and collapsed_slice_dims overlap");
  const int64_t index_count = idx[static_cast<size_t>(d.index_vector_dim)];
  if (static_cast<int64_t>(d.start_index_map.size()) != index_count)
    fail(fmt::format("start_index_map has {} entries but the index vectors have {}", d.start_index_map.size(), index_count));
  check_dim_list(d.start_index_map, operand.rank(), "start_index_map", false);
  if (static_cast<int64_t>(d.slice_sizes.size()) != operand.rank())
    fail(fmt::format("slice_sizes needs {} entries for {}", operand.rank(), str(operand)));
  for (int64_t k = 0; k < operand.rank(); ++k) {
    const int64_t s = d.slice_sizes[static_cast<size_t>(k)];
    if (s < 0 || s > operand.dim(k))
      fail(fmt::format("slice size {} is outside [0, {}] for dimension {} of {}", s, operand.dim(k), k, str(operand)));
    if ((contains(d.collapsed_slice_dims, k) || contains(d.operand_batching_dims, k)) && s > 1)
      fail(fmt::format("collapsed or batching dimension {} needs slice size 0 or 1, has {}", k, s));
  }
  if (static_cast<int64_t>(d.offset_dims.size() + d.collapsed_slice_dims.size() + d.operand_batching_dims.size()) !=
      operand.rank())
    fail(fmt::format("offset_dims ({}) + collapsed_slice_dims ({}) + operand_batching_dims ({}) must equal the operand "
                     "rank {}", d.offset_dims.size(), d.collapsed_slice_dims.size(), d.operand_batching_dims.size(),
                     operand.rank()));
  std::vector<int64_t> offsets;  // slice sizes of the kept operand dimensions, in order
  for (int64_t k : d.offset_operand_dims(operand.rank())) offsets.push_back(d.slice_sizes[static_cast<size_t>(k)]);
  std::vector<int64_t> out;
  size_t next_offset = 0, next_batch = 0;
  for (int64_t k = 0; k < out_rank; ++k) {
    if (contains(d.offset_dims, k)) {
      out.push_back(offsets[next_offset++]);
      continue;
    }
    if (next_batch == static_cast<size_t>(d.index_vector_dim)) ++next_batch;
    out.push_back(idx[next_batch++]);
  }
  return Shape(operand.element_type(), out);
}

std::string check_operation(const Module& m, InstrId i) {
  try {
    check_one(m, i);
  } catch (const Error& e) {
    return e.message();
  }
  return "";
}

std::string check_shape_size(const Shape& s) {
  if (s.is_tuple()) {
    for (const Shape& e : s.tuple_elements())
      if (std::string w = check_shape_size(e); !w.empty()) return w;
    return "";
  }
  if (!s.is_array()) return "";
  int64_t n = std::max(1, bit_width(s.element_type()));
  for (int64_t d : s.dims()) {
    if (d < 0 && d != kUnboundedDim) return fmt::format("{} has a negative dimension", str(s));
    // Bits, not bytes: sub-byte types and the byte size both stay below 2^63.
    if (d > 0 && __builtin_mul_overflow(n, d, &n))
      return fmt::format("{} has more elements than a 64-bit size can count", str(s));
  }
  return "";
}

std::string find_call_cycle(const Module& m, InstrId* caller) {
  const size_t n = m.computation_slots();
  std::vector<uint8_t> colour(n, 0);  // 0 new, 1 on the path, 2 done
  std::vector<CompId> path;
  std::vector<std::vector<CompId>> callees(n);
  std::vector<std::vector<InstrId>> call_sites(n);
  for (CompId c : m.live_computations())
    for (InstrId i : m.computation(c).order)
      if (m.is_live(i))
        for (CompId k : m.called(i))
          if (k < n) callees[c].push_back(k), call_sites[c].push_back(i);
  std::string found;
  // Iterative DFS: a deep call chain must not overflow the stack.
  std::vector<std::pair<CompId, size_t>> stack;
  for (CompId start : m.live_computations()) {
    if (colour[start]) continue;
    stack.emplace_back(start, 0);
    colour[start] = 1;
    path.push_back(start);
    while (!stack.empty()) {
      auto& [c, k] = stack.back();
      if (k == callees[c].size()) {
        colour[c] = 2;
        stack.pop_back();
        path.pop_back();
        continue;
      }
      const InstrId site = call_sites[c][k];
      const CompId next = callees[c][k++];
      if (colour[next] == 1) {
        if (caller) *caller = site;
        auto it = std::find(path.begin(), path.end(), next);
        for (; it != path.end(); ++it) found += m.computation(*it).name + " -> ";
        return found + m.computation(next).name;
      }
      if (colour[next] == 0) {
        colour[next] = 1;
        path.push_back(next);
        stack.emplace_back(next, 0);
      }
    }
  }
  return "";
}

}  // namespace hlsgym::ir
