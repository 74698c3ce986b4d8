#include "rtl/fixed_point.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <unordered_set>

#include "ir/error.h"
#include "ir/verifier.h"

namespace hlsgym::rtl {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;
using ir::Shape;

FixedFormat parse_fixed(const std::string& spec) {
  FixedFormat f;
  char comma = 0;
  int used = 0;
  const bool ok = std::sscanf(spec.c_str(), "%d%c%d%n", &f.width, &comma, &f.integer_bits, &used) == 3 && comma == ',' &&
                  used == static_cast<int>(spec.size());
  if (!ok || (f.width != 8 && f.width != 16 && f.width != 32) || f.integer_bits < 1 || f.integer_bits > f.width)
    throw Error("--fixed: expected W,I with W in 8, 16, 32 and 1 <= I <= W (e.g. 16,8), got '" + spec + "'");
  return f;
}

namespace {

bool fp(ElementType t) { return ir::is_floating(t) || ir::is_complex(t); }

bool has_float(const Shape& s) {
  if (s.is_tuple()) {
    for (const Shape& e : s.tuple_elements())
      if (has_float(e)) return true;
    return false;
  }
  return fp(s.element_type());
}

ElementType signed_of(int width) {
  switch (width) {
    case 8: return ElementType::kS8;
    case 16: return ElementType::kS16;
    case 32: return ElementType::kS32;
    default: return ElementType::kS64;
  }
}

// Ops whose float form carries over to fixed point unchanged once the types change.
bool scale_invariant(Opcode op) {
  switch (op) {
    case Opcode::kParameter: case Opcode::kAdd: case Opcode::kSubtract: case Opcode::kMaximum:
    case Opcode::kMinimum: case Opcode::kNegate: case Opcode::kAbs: case Opcode::kCompare: case Opcode::kSelect:
    case Opcode::kClamp: case Opcode::kCopy: case Opcode::kRemainder: case Opcode::kBroadcast: case Opcode::kReshape:
    case Opcode::kTranspose: case Opcode::kSlice: case Opcode::kConcatenate: case Opcode::kPad: case Opcode::kReverse:
    case Opcode::kTuple: case Opcode::kGetTupleElement: case Opcode::kReduce: case Opcode::kReduceWindow:
    case Opcode::kMap: case Opcode::kFusion: case Opcode::kCall: case Opcode::kOptimizationBarrier:
      return true;
    default:
      return false;
  }
}

class Quantizer {
 public:
  Quantizer(ir::Module& m, FixedFormat f)
      : m_(m), f_(f), s_(signed_of(f.width)), d_(signed_of(2 * f.width)), orig_(m.instruction_slots()) {
    for (ir::CompId c : m.live_computations())
      for (InstrId i : m.instructions(c)) orig_[i] = m.shape(i);
  }

  void run() {
    for (ir::CompId c : m_.computation_post_order())
      for (InstrId i : m_.post_order(c)) rewrite(c, i);
  }

 private:
  Shape retype(const Shape& s) const {
    if (s.is_tuple()) {
      std::vector<Shape> e;
      for (const Shape& x : s.tuple_elements()) e.push_back(retype(x));
      return Shape::tuple(std::move(e));
    }
    return fp(s.element_type()) ? Shape(s_, s.dims()) : Shape(s.element_type(), s.dims());
  }

  [[noreturn]] void refuse(InstrId i, const std::string& why) const {
    throw Error(fmt::format("--fixed: op {} ('{}') {}", ir::name(m_.opcode(i)), m_.name(i), why),
                {m_.source_file(), m_.payload(i).line});
  }

  // A value of `type` and `dims` equal to `v` everywhere (a broadcast scalar constant).
  InstrId splat(ir::CompId c, ElementType type, int64_t v, const std::vector<int64_t>& dims) {
    const InstrId k = m_.add_constant(c, ir::Literal::scalar_int(type, v));
    if (dims.empty()) return k;
    return m_.add_instruction(c, Opcode::kBroadcast, Shape(type, dims), std::span<const InstrId>(&k, 1));
  }
  InstrId unary(ir::CompId c, Opcode op, ElementType type, InstrId x) {
    return m_.add_instruction(c, op, Shape(type, m_.shape(x).dims()), std::span<const InstrId>(&x, 1));
  }
  InstrId binary(ir::CompId c, Opcode op, InstrId a, InstrId b) {
    const InstrId ops[] = {a, b};
    return m_.add_instruction(c, op, m_.shape(a), ops);
  }
  InstrId shift(ir::CompId c, Opcode op, InstrId x) {
    return binary(c, op, x, splat(c, m_.shape(x).element_type(), f_.fraction_bits(), m_.shape(x).dims()));
  }
  // Whether `x` holds a value that was a float before quantization: an original
  // instruction of a float (or tuple with a float) shape, or the rescaled stand-in this
  // pass made for one (operands are rewired to those as their producers are rewritten).
  bool was_float(InstrId x) const { return x < orig_.size() ? has_float(orig_[x]) : stand_ins_.count(x) > 0; }
  void replace(InstrId from, InstrId to) {
    stand_ins_.insert(to);
    m_.replace_all_uses(from, to);
    if (m_.users(from).empty() && !m_.is_root(from)) m_.remove_instruction(from);
  }
  // `x` followed by a shift by F that takes over all of x's uses (and its root status).
  void scale_after(ir::CompId c, InstrId x, Opcode op) {
    const std::vector<InstrId> users(m_.users(x).begin(), m_.users(x).end());
    const bool root = m_.is_root(x);
    const InstrId s = shift(c, op, x);
    stand_ins_.insert(s);
    for (InstrId u : users)
      for (size_t k = 0; k < m_.operands(u).size(); ++k)
        if (m_.operand(u, k) == x) m_.set_operand(u, k, s);
    if (root) m_.set_root(c, s);
  }

  void quantize_constant(InstrId i) {
    const ir::Literal& old = m_.literal(i);
    if (old.is_tuple()) refuse(i, "is a tuple constant");
    ir::Literal l(retype(old.shape()));
    const double scale = std::ldexp(1.0, f_.fraction_bits());
    const double hi = std::ldexp(1.0, f_.width - 1) - 1, lo = -std::ldexp(1.0, f_.width - 1);
    for (int64_t k = 0; k < l.element_count(); ++k) {
      const double v = old.get_double(k) * scale;
      l.set_int(k, std::isnan(v) ? 0 : static_cast<int64_t>(std::clamp(std::nearbyint(v), lo, hi)));
    }
    ir::InstrPayload& p = m_.mutable_payload(i);
    p.shape = l.shape();
    p.literal = std::make_shared<const ir::Literal>(std::move(l));
  }

  // (a op b) computed in 2W bits, then rescaled and narrowed back to W.
  void widen(ir::CompId c, InstrId i) {
    const Opcode op = m_.opcode(i);
    std::vector<InstrId> wide;
    const std::vector<InstrId> ops(m_.operands(i).begin(), m_.operands(i).end());  // adding moves the pool
    for (InstrId o : ops) {
      if (!was_float(o)) refuse(i, "mixes float and integer operands");
      wide.push_back(unary(c, Opcode::kConvert, d_, o));
    }
    if (op == Opcode::kDivide) wide[0] = shift(c, Opcode::kShiftLeft, wide[0]);
    const InstrId w = m_.add_clone(c, i, wide);
    m_.mutable_payload(w).shape = Shape(d_, m_.shape(i).dims());
    const InstrId scaled = op == Opcode::kDivide ? w : shift(c, Opcode::kShiftRightArithmetic, w);
    replace(i, unary(c, Opcode::kConvert, s_, scaled));
  }

  void convert(ir::CompId c, InstrId i) {
    const bool from_float = was_float(m_.operand(i, 0));
    const ElementType to = orig_[i].element_type();
    if (from_float && fp(to)) return;  // both are now sW: an identity convert
    if (fp(to)) return scale_after(c, i, Opcode::kShiftLeft);  // int -> sW, then scale
    if (to == ElementType::kPred) return;                             // nonzero stays nonzero
    m_.set_operand(i, 0, shift(c, Opcode::kShiftRightArithmetic, m_.operand(i, 0)));
  }

  void rewrite(ir::CompId c, InstrId i) {
    if (i >= orig_.size()) return;  // created by this pass
    const Opcode op = m_.opcode(i);
    bool touches = has_float(orig_[i]);
    for (InstrId o : m_.operands(i)) touches |= was_float(o);
    if (!touches) return;
    if (op == Opcode::kConstant) return quantize_constant(i);
    m_.mutable_payload(i).shape = retype(orig_[i]);
    if (op == Opcode::kCompare) m_.mutable_payload(i).attrs.comparison_type.clear();
    switch (op) {
      case Opcode::kMultiply: case Opcode::kDivide: case Opcode::kDot: case Opcode::kConvolution:
        return widen(c, i);
      case Opcode::kConvert: return convert(c, i);
      case Opcode::kIota: case Opcode::kSign: return scale_after(c, i, Opcode::kShiftLeft);
      default:
        if (!scale_invariant(op)) refuse(i, "has no fixed-point form (--fixed handles +, -, *, /, min, max, abs, "
                                            "compare, select, clamp, converts, dot, convolution, reductions and "
                                            "data movement)");
    }
  }

  ir::Module& m_;
  FixedFormat f_;
  ElementType s_, d_;
  std::vector<Shape> orig_;
  std::unordered_set<InstrId> stand_ins_;
};

}  // namespace

ir::Module quantize(const ir::Module& m, FixedFormat f) {
  ir::Module q = m.clone();
  Quantizer(q, f).run();
  ir::verify(q);
  return q;
}

}  // namespace hlsgym::rtl
