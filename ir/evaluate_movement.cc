// Data movement: broadcast, reshape/bitcast, transpose, slice, concatenate, pad, iota,
// reverse, tuple and get-tuple-element.
#include <cstring>

#include "ir/bitcast_layout.h"
#include "ir/evaluate_internal.h"

namespace hlsgym::ir::eval {

std::vector<int64_t> unravel(int64_t linear, std::span<const int64_t> dims) {
  std::vector<int64_t> idx(dims.size());
  for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
    if (dims[d] == 0) return idx;
    idx[d] = linear % dims[d];
    linear /= dims[d];
  }
  return idx;
}

int64_t ravel(std::span<const int64_t> index, std::span<const int64_t> strides) {
  int64_t l = 0;
  for (size_t d = 0; d < index.size(); ++d) l += index[d] * strides[d];
  return l;
}

void copy_element(const Literal& from, int64_t i, Literal& to, int64_t j) {
  const int w = from.element_bytes();
  std::memcpy(to.bytes().data() + j * w, from.bytes().data() + i * w, static_cast<size_t>(w));
}

Literal scalar_at(const Literal& from, int64_t i) {
  Literal s(Shape::scalar(from.shape().element_type()));
  copy_element(from, i, s, 0);
  return s;
}

namespace {
// Output element k takes input element source(out_index); used by every pure gather of
// elements (broadcast, transpose, slice, reverse).
template <typename Source>
Literal remap(const Shape& out_shape, const Literal& in, Source source) {
  Literal out(out_shape);
  const auto& od = out_shape.dims();
  const auto in_strides = row_major_strides(in.shape().dims());
  std::vector<int64_t> idx(od.size(), 0), src(in.shape().rank(), 0);
  const int64_t n = out.element_count();
  for (int64_t k = 0; k < n; ++k) {
    source(idx, src);
    copy_element(in, ravel(src, in_strides), out, k);
    for (int64_t d = static_cast<int64_t>(od.size()) - 1; d >= 0; --d) {  // odometer increment
      if (++idx[d] < od[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

Literal pad(const OpContext& c) {
  const Literal& in = *c.args[0];
  Literal out(c.shape());
  const int64_t n = out.element_count();
  for (int64_t k = 0; k < n; ++k) copy_element(*c.args[1], 0, out, k);
  const auto& pads = c.attrs().padding;
  const auto out_strides = row_major_strides(c.shape().dims());
  const int64_t m = in.element_count();
  for (int64_t k = 0; k < m; ++k) {
    auto idx = unravel(k, in.shape().dims());
    bool inside = true;
    for (size_t d = 0; d < idx.size(); ++d) {
      idx[d] = pads[d].low + idx[d] * (pads[d].interior + 1);
      inside &= idx[d] >= 0 && idx[d] < c.shape().dim(static_cast<int64_t>(d));
    }
    if (inside) copy_element(in, k, out, ravel(idx, out_strides));
  }
  return out;
}

Literal concatenate(const OpContext& c) {
  Literal out(c.shape());
  const int64_t cd = c.attrs().dimensions.at(0);
  const auto out_strides = row_major_strides(c.shape().dims());
  int64_t offset = 0;
  for (const Literal* a : c.args) {
    const int64_t n = a->element_count();
    for (int64_t k = 0; k < n; ++k) {
      auto idx = unravel(k, a->shape().dims());
      idx[cd] += offset;
      copy_element(*a, k, out, ravel(idx, out_strides));
    }
    offset += a->shape().dim(cd);
  }
  return out;
}

Literal iota(const OpContext& c) {
  Literal out(c.shape());
  const int64_t d = c.attrs().iota_dimension;
  const int64_t n = out.element_count();
  for (int64_t k = 0; k < n; ++k) {
    const int64_t v = unravel(k, c.shape().dims())[d];
    if (is_floating(c.shape().element_type())) out.set_double(k, static_cast<double>(v));
    else out.set_int(k, v);
  }
  return out;
}
}  // namespace

bool handles_movement(Opcode op) {
  switch (op) {
    case Opcode::kBroadcast: case Opcode::kReshape: case Opcode::kBitcast: case Opcode::kTranspose:
    case Opcode::kSlice: case Opcode::kConcatenate: case Opcode::kPad: case Opcode::kIota:
    case Opcode::kReverse: case Opcode::kTuple: case Opcode::kGetTupleElement:
    case Opcode::kOptimizationBarrier:
      return true;
    default:
      return false;
  }
}

Literal eval_movement(const OpContext& c) {
  const Attributes& a = c.attrs();
  switch (c.m.opcode(c.i)) {
    case Opcode::kBroadcast:
      return remap(c.shape(), *c.args[0], [&](const std::vector<int64_t>& o, std::vector<int64_t>& s) {
        for (size_t k = 0; k < a.dimensions.size(); ++k) s[k] = o[a.dimensions[k]];
      });
    case Opcode::kReshape: case Opcode::kBitcast: {
      // A bitcast reads the operand's memory in the result's layout; where the layouts
      // are not both row-major that moves elements (XLA's physical reinterpretation).
      const Shape& from = c.m.shape(c.m.operand(c.i, 0));  // the instruction's: a literal has no layout
      if (c.m.opcode(c.i) == Opcode::kBitcast && !bitcast_is_reshape(from, c.shape())) {
        if (from.element_type() != c.shape().element_type() || from.element_count() != c.shape().element_count())
          c.fail("a bitcast between layouts must keep the element type and count");
        Literal out(c.shape());
        for (int64_t k = 0; k < out.element_count(); ++k) copy_element(*c.args[0], bitcast_source(from, c.shape(), k), out, k);
        return out;
      }
      Literal out(c.shape());
      auto src = c.args[0]->bytes();
      if (src.size() != out.bytes().size()) c.fail("reshape/bitcast changes the byte size");
      std::copy(src.begin(), src.end(), out.bytes().begin());
      return out;
    }
    case Opcode::kTranspose:
      return remap(c.shape(), *c.args[0], [&](const std::vector<int64_t>& o, std::vector<int64_t>& s) {
        for (size_t k = 0; k < a.dimensions.size(); ++k) s[a.dimensions[k]] = o[k];
      });
    case Opcode::kSlice:
      return remap(c.shape(), *c.args[0], [&](const std::vector<int64_t>& o, std::vector<int64_t>& s) {
        for (size_t k = 0; k < o.size(); ++k) s[k] = a.slice[k].start + o[k] * a.slice[k].stride;
      });
    case Opcode::kReverse: {
      const Shape& in = c.args[0]->shape();
      return remap(c.shape(), *c.args[0], [&](const std::vector<int64_t>& o, std::vector<int64_t>& s) {
        s = o;
        for (int64_t d : a.dimensions) s[d] = in.dim(d) - 1 - o[d];
      });
    }
    case Opcode::kConcatenate: return concatenate(c);
    case Opcode::kPad: return pad(c);
    case Opcode::kIota: return iota(c);
    case Opcode::kTuple: {
      Literal out(c.shape());
      for (size_t k = 0; k < c.args.size(); ++k) out.tuple_elements()[k] = *c.args[k];
      return out;
    }
    case Opcode::kGetTupleElement:
      return c.args[0]->tuple_elements().at(static_cast<size_t>(a.tuple_index));
    case Opcode::kOptimizationBarrier: return *c.args[0];
    default: c.fail("not a data-movement op");
  }
}

}  // namespace hlsgym::ir::eval
