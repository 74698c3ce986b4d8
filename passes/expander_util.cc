#include "passes/expander_util.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>

#include "ir/float_formats.h"
#include "ir/shape_inference.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes::expand {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

std::vector<InstrId> find_all(const ir::Module& m, std::initializer_list<Opcode> ops) {
  std::vector<InstrId> out;
  for (ir::CompId c = 0; c < m.computation_slots(); ++c) {
    const ir::Computation& comp = m.computation(c);
    if (comp.dead) continue;
    for (InstrId i : comp.order) {
      if (!m.is_live(i)) continue;
      const Opcode op = m.opcode(i);
      for (Opcode o : ops)
        if (op == o) {
          out.push_back(i);
          break;
        }
    }
  }
  return out;
}

void replace_with(ir::Module& m, InstrId old, InstrId replacement) {
  // Only a freshly built replacement takes over the old layout; an existing value keeps its own.
  const bool fresh = m.users(replacement).empty() && !m.is_root(replacement);
  if (fresh && m.shape(old).compatible(m.shape(replacement)) && !(m.shape(old) == m.shape(replacement)))
    m.mutable_payload(replacement).shape = m.shape(old);
  replace_instruction(m, old, replacement);
}

ir::CompId binary_computation(ir::Module& m, Opcode op, ElementType t, const std::string& prefix) {
  const ir::CompId c = m.add_computation(m.unique_name(prefix));
  const ir::Shape s = ir::Shape::scalar(t);
  const InstrId p0 = m.add_parameter(c, 0, s, m.unique_name("lhs"));
  const InstrId p1 = m.add_parameter(c, 1, s, m.unique_name("rhs"));
  const InstrId ops[] = {p0, p1};
  const ir::Shape rs = op == Opcode::kCompare ? ir::Shape::scalar(ElementType::kPred) : s;
  m.set_root(c, m.add_instruction(c, op, rs, ops));
  return c;
}

std::vector<bool> fusion_bodies(const ir::Module& m) {
  std::vector<bool> out(m.computation_slots(), false);
  for (InstrId i : find_all(m, {Opcode::kFusion}))
    for (ir::CompId c : m.called(i)) out[c] = true;
  return out;
}

std::vector<int64_t> all_dims_except(int64_t n, int64_t skip) {
  std::vector<int64_t> out;
  for (int64_t d = 0; d < n; ++d)
    if (d != skip) out.push_back(d);
  return out;
}

namespace {

// Checks every value of a <= 16-bit type: converting it to `to` and back is the identity
// (NaN stays NaN). Uses the interpreter's own float encoders.
bool small_type_converts_exactly(ElementType from, ElementType to) {
  const int w = ir::bit_width(from);
  for (uint64_t bits = 0; bits < (uint64_t{1} << w); ++bits) {
    double v;
    if (ir::is_floating(from)) v = ir::float_bits_to_double(from, bits);
    else if (ir::is_signed_integral(from)) v = static_cast<double>(static_cast<int64_t>(bits << (64 - w)) >> (64 - w));
    else v = static_cast<double>(bits);
    if (ir::is_floating(to)) {
      const double back = ir::float_bits_to_double(to, ir::double_to_float_bits(to, v));
      if (std::isnan(v) ? !std::isnan(back) : back != v || std::signbit(back) != std::signbit(v)) return false;
    } else {
      return false;  // float -> integer is never exact; integer -> integer handled by the caller
    }
  }
  return true;
}

bool integer_widens(ElementType from, ElementType to) {
  const int wf = ir::bit_width(from), wt = ir::bit_width(to);
  if (ir::is_signed_integral(from)) return ir::is_signed_integral(to) && wt >= wf;
  return ir::is_unsigned_integral(to) ? wt >= wf : wt > wf;
}

}  // namespace

bool converts_exactly(ElementType from, ElementType to) {
  if (from == to) return true;
  const bool from_num = ir::is_integral(from) || ir::is_floating(from);
  const bool to_num = ir::is_integral(to) || ir::is_floating(to);
  if (!from_num || !to_num) return false;
  if (ir::is_integral(from) && ir::is_integral(to)) return integer_widens(from, to);
  if (ir::is_floating(from) && ir::is_integral(to)) return false;
  if (to == ElementType::kF64 && (from == ElementType::kF32 || from == ElementType::kS32 || from == ElementType::kU32))
    return true;
  if (ir::bit_width(from) > 16) return false;
  static std::mutex mu;
  static std::map<std::pair<ElementType, ElementType>, bool> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find({from, to});
  if (it == cache.end()) it = cache.emplace(std::pair{from, to}, small_type_converts_exactly(from, to)).first;
  return it->second;
}

InstrId Builder::op(Opcode op, std::span<const InstrId> operands, ir::Attributes attrs,
                    std::span<const ir::CompId> called) {
  ir::Shape s = ir::infer_shape(m_, op, operands, attrs, called);
  return shaped(op, std::move(s), operands, std::move(attrs), called);
}

InstrId Builder::shaped(Opcode op, ir::Shape shape, std::span<const InstrId> operands, ir::Attributes attrs,
                        std::span<const ir::CompId> called) {
  const InstrId i = m_.add_instruction(c_, op, std::move(shape), operands, std::move(attrs));
  if (!called.empty()) m_.mutable_payload(i).called.assign(called.begin(), called.end());
  return i;
}

InstrId Builder::constant(ir::Literal value) { return m_.add_constant(c_, std::move(value)); }

InstrId Builder::scalar(ElementType t, double v) { return constant(ir::Literal::scalar_double(t, v)); }

InstrId Builder::scalar_int(ElementType t, int64_t v) { return constant(ir::Literal::scalar_int(t, v)); }

InstrId Builder::splat(ElementType t, double v, const std::vector<int64_t>& dims) {
  const InstrId s = scalar(t, v);
  return dims.empty() ? s : broadcast(s, dims, {});
}

InstrId Builder::splat_int(ElementType t, int64_t v, const std::vector<int64_t>& dims) {
  const InstrId s = scalar_int(t, v);
  return dims.empty() ? s : broadcast(s, dims, {});
}

InstrId Builder::binary(Opcode op, InstrId a, InstrId b) {
  const InstrId ops[] = {a, b};
  return this->op(op, ops);
}

InstrId Builder::compare(InstrId a, InstrId b, ir::ComparisonDirection d) {
  ir::Attributes at;
  at.direction = d;
  const InstrId ops[] = {a, b};
  return op(Opcode::kCompare, ops, std::move(at));
}

InstrId Builder::select(InstrId p, InstrId a, InstrId b) {
  const InstrId ops[] = {p, a, b};
  return op(Opcode::kSelect, ops);
}

InstrId Builder::convert(InstrId x, ElementType t) {
  if (m_.shape(x).element_type() == t) return x;
  return shaped(Opcode::kConvert, ir::Shape(t, m_.shape(x).dims()), {&x, 1});
}

InstrId Builder::bitcast_convert(InstrId x, ElementType t) {
  if (m_.shape(x).element_type() == t) return x;
  return shaped(Opcode::kBitcastConvert, ir::Shape(t, m_.shape(x).dims()), {&x, 1});
}

InstrId Builder::reshape(InstrId x, const std::vector<int64_t>& dims) {
  if (m_.shape(x).dims() == dims) return x;
  return shaped(Opcode::kReshape, ir::Shape(m_.shape(x).element_type(), dims), {&x, 1});
}

InstrId Builder::broadcast(InstrId x, const std::vector<int64_t>& dims, std::vector<int64_t> mapping) {
  ir::Attributes at;
  at.dimensions = std::move(mapping);
  return shaped(Opcode::kBroadcast, ir::Shape(m_.shape(x).element_type(), dims), {&x, 1}, std::move(at));
}

InstrId Builder::transpose(InstrId x, std::vector<int64_t> permutation) {
  std::vector<int64_t> identity(permutation.size());
  std::iota(identity.begin(), identity.end(), 0);
  if (permutation == identity) return x;
  ir::Attributes at;
  at.dimensions = std::move(permutation);
  return op(Opcode::kTranspose, {&x, 1}, std::move(at));
}

InstrId Builder::iota(ElementType t, const std::vector<int64_t>& dims, int64_t dimension) {
  ir::Attributes at;
  at.iota_dimension = dimension;
  return shaped(Opcode::kIota, ir::Shape(t, dims), {}, std::move(at));
}

InstrId Builder::slice(InstrId x, std::vector<ir::SliceDim> ranges) {
  ir::Attributes at;
  at.slice = std::move(ranges);
  return op(Opcode::kSlice, {&x, 1}, std::move(at));
}

InstrId Builder::element(InstrId vector, int64_t k) {
  if (m_.shape(vector).dim(0) == 1) return reshape(vector, {});
  return reshape(slice(vector, {ir::SliceDim{k, k + 1, 1}}), {});
}

InstrId Builder::dynamic_slice(InstrId x, std::span<const InstrId> starts, std::vector<int64_t> sizes) {
  std::vector<InstrId> ops{x};
  ops.insert(ops.end(), starts.begin(), starts.end());
  ir::Attributes at;
  at.dynamic_slice_sizes = std::move(sizes);
  return op(Opcode::kDynamicSlice, ops, std::move(at));
}

InstrId Builder::dynamic_update_slice(InstrId x, InstrId update, std::span<const InstrId> starts) {
  std::vector<InstrId> ops{x, update};
  ops.insert(ops.end(), starts.begin(), starts.end());
  return op(Opcode::kDynamicUpdateSlice, ops);
}

InstrId Builder::reduce(InstrId x, InstrId init, std::vector<int64_t> dims, ir::CompId to_apply) {
  ir::Attributes at;
  at.dimensions = std::move(dims);
  const InstrId ops[] = {x, init};
  return op(Opcode::kReduce, ops, std::move(at), {&to_apply, 1});
}

InstrId Builder::tuple(std::span<const InstrId> elements) { return op(Opcode::kTuple, elements); }

InstrId Builder::get_tuple_element(InstrId t, int64_t index) {
  ir::Attributes at;
  at.tuple_index = index;
  return op(Opcode::kGetTupleElement, {&t, 1}, std::move(at));
}

}  // namespace hlsgym::passes::expand
