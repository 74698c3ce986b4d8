#include "rtl/fixed_point.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_map>

#include "ir/error.h"
#include "ir/frontend_attributes.h"
#include "ir/input_range.h"
#include "ir/verifier.h"
#include "rtl/fixed_point_internal.h"

namespace hlsgym::rtl {
using fixed::Fx;
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;
using ir::Shape;

FixedFormat parse_fixed(const std::string& spec) {
  try {
    return ir::parse_fixed_format(spec);
  } catch (const Error& e) {
    throw Error("--fixed: " + e.message());
  }
}

namespace {

bool fp(ElementType t) { return ir::is_floating(t) || ir::is_complex(t); }

bool has_float(const Shape& s) {
  if (s.is_tuple()) return std::any_of(s.tuple_elements().begin(), s.tuple_elements().end(), has_float);
  return fp(s.element_type());
}

// Ops that only move, pick or compare values: their operands are put into the result's
// format and the op keeps its form.
bool moves_values(Opcode op) {
  switch (op) {
    case Opcode::kMaximum: case Opcode::kMinimum: case Opcode::kSelect: case Opcode::kClamp: case Opcode::kCopy:
    case Opcode::kRemainder: case Opcode::kBroadcast: case Opcode::kReshape: case Opcode::kTranspose:
    case Opcode::kSlice: case Opcode::kConcatenate: case Opcode::kPad: case Opcode::kReverse:
    case Opcode::kDynamicSlice: case Opcode::kDynamicUpdateSlice: case Opcode::kGather:
    case Opcode::kOptimizationBarrier:
      return true;
    default:
      return false;
  }
}

// Ops whose work is done by a called computation (or that pass tuples on): operands in
// the default format, the result in it too.
bool in_default_format(Opcode op) {
  switch (op) {
    case Opcode::kReduce: case Opcode::kReduceWindow: case Opcode::kMap: case Opcode::kFusion: case Opcode::kCall:
    case Opcode::kWhile: case Opcode::kConditional: case Opcode::kTuple: case Opcode::kGetTupleElement:
    case Opcode::kSort: case Opcode::kScatter: case Opcode::kSelectAndScatter:
      return true;
    default:
      return false;
  }
}

// The real function a unary float op computes, for its fixed-point table; null if none.
std::function<long double(long double)> real_function(Opcode op) {
  switch (op) {
    case Opcode::kExp: return [](long double x) { return std::exp(x); };
    case Opcode::kExpm1: return [](long double x) { return std::expm1(x); };
    case Opcode::kLog: return [](long double x) { return std::log(x); };
    case Opcode::kLog1p: return [](long double x) { return std::log1p(x); };
    case Opcode::kTanh: return [](long double x) { return std::tanh(x); };
    case Opcode::kLogistic: return [](long double x) { return 1 / (1 + std::exp(-x)); };
    case Opcode::kRsqrt: return [](long double x) { return 1 / std::sqrt(x); };
    case Opcode::kSqrt: return [](long double x) { return std::sqrt(x); };
    case Opcode::kCbrt: return [](long double x) { return std::cbrt(x); };
    case Opcode::kErf: return [](long double x) { return std::erf(x); };
    case Opcode::kSin: return [](long double x) { return std::sin(x); };
    case Opcode::kCos: return [](long double x) { return std::cos(x); };
    case Opcode::kTan: return [](long double x) { return std::tan(x); };
    case Opcode::kAtan: return [](long double x) { return std::atan(x); };
    case Opcode::kCosh: return [](long double x) { return std::cosh(x); };
    case Opcode::kSinh: return [](long double x) { return std::sinh(x); };
    default: return nullptr;
  }
}

int bits_for(int64_t v) {
  int b = 1;
  while (b < 63 && (int64_t{1} << b) <= v) ++b;
  return b;
}

class Quantizer {
 public:
  Quantizer(ir::Module& m, FixedFormat f) : m_(m), before_(m), default_(f), orig_(m.instruction_slots()) {
    for (ir::CompId c : m.live_computations())
      for (InstrId i : m.instructions(c)) orig_[i] = m.shape(i);
  }

  void run() {
    for (ir::CompId c : m_.computation_post_order()) {
      for (InstrId i : m_.post_order(c)) rewrite(c, i);
      // a called computation returns the default format, which its caller assumes
      const InstrId root = m_.computation(c).root;
      if (c != m_.entry() && format_of(root) && *format_of(root) != default_) {
        const InstrId y = builder(c, root).rescale(value(root, root), default_);
        m_.set_root(c, y);
        formats_[y] = default_;
      }
    }
  }

  std::optional<FixedFormat> format_of(InstrId x) const {
    auto it = formats_.find(x);
    return it == formats_.end() ? std::nullopt : std::optional<FixedFormat>(it->second);
  }

 private:
  [[noreturn]] void refuse(InstrId i, const std::string& why) const {
    throw Error(fmt::format("--fixed: op {} ('{}') {}", ir::name(m_.opcode(i)), m_.name(i), why),
                {m_.source_file(), m_.payload(i).line});
  }

  fixed::Builder builder(ir::CompId c, InstrId i) {
    return fixed::Builder(m_, c, [this, i](const std::string& why) { refuse(i, why); });
  }

  // The op's own precision attribute, if it has one.
  std::optional<FixedFormat> own_format(InstrId i) const {
    const auto text = ir::frontend_attribute(m_.attrs(i), kPrecisionAttribute);
    if (!text) return std::nullopt;
    try {
      return ir::parse_fixed_format(*text);
    } catch (const Error& e) {
      refuse(i, e.message());
    }
  }

  Fx value(InstrId i, InstrId x) const {
    const auto f = format_of(x);
    if (!f) refuse(i, "reads a float value that has no single fixed-point format here (a tuple?)");
    return Fx{x, f->width, f->fraction_bits(), false};
  }

  Shape retype(const Shape& s, ElementType to) const {
    if (s.is_tuple()) {
      std::vector<Shape> e;
      for (const Shape& x : s.tuple_elements()) e.push_back(retype(x, to));
      return Shape::tuple(std::move(e));
    }
    return fp(s.element_type()) ? Shape(to, s.dims()) : s;
  }
  ElementType container(const FixedFormat& f) const { return ir::fixed_container(f.width); }

  // i now computes `result` (made from i itself or new instructions); i's old users and
  // root status move to it.
  void finish(ir::CompId c, InstrId i, const std::vector<InstrId>& users, bool root, InstrId result,
              const FixedFormat& f) {
    formats_[result] = f;
    if (i < orig_.size()) record(c, i, f);
    if (result == i) return;
    for (InstrId u : users)
      for (size_t k = 0; k < m_.operands(u).size(); ++k)
        if (m_.operand(u, k) == i) m_.set_operand(u, k, result);
    if (root) m_.set_root(c, result);
  }

  void record(ir::CompId c, InstrId i, const FixedFormat& f) {
    values_.push_back({m_.computation(c).name, m_.name(i), f});
  }

  // Operand k of i, if it holds a float value, put into f.
  void requantize_operands(ir::CompId c, InstrId i, const FixedFormat& f) {
    fixed::Builder b = builder(c, i);
    for (size_t k = 0; k < m_.operands(i).size(); ++k) {
      const InstrId o = m_.operand(i, k);
      if (format_of(o) && *format_of(o) != f) m_.set_operand(i, k, b.rescale(value(i, o), f));
    }
  }

  void quantize_constant(InstrId i, const FixedFormat& f) {
    const ir::Literal& old = m_.literal(i);
    if (old.is_tuple()) refuse(i, "is a tuple constant");
    ir::Literal l(retype(old.shape(), container(f)));
    for (int64_t k = 0; k < l.element_count(); ++k) l.set_int(k, ir::quantize_real(old.get_double(k), f));
    ir::InstrPayload& p = m_.mutable_payload(i);
    p.shape = l.shape();
    p.literal = std::make_shared<const ir::Literal>(std::move(l));
  }

  // The first float operand's format, for ops that only move values.
  std::optional<FixedFormat> operand_format(InstrId i) const {
    for (InstrId o : m_.operands(i))
      if (format_of(o)) return format_of(o);
    return std::nullopt;
  }

  void rewrite(ir::CompId c, InstrId i) {
    if (i >= orig_.size() || !m_.is_live(i)) return;  // created by this pass
    const Opcode op = m_.opcode(i);
    bool float_operand = false;
    for (InstrId o : m_.operands(i)) float_operand |= format_of(o).has_value() || (o < orig_.size() && has_float(orig_[o]));
    if (!has_float(orig_[i]) && !float_operand) return;
    // an integer element of a tuple that also holds floats (a while loop's counter beside
    // its float state) stays the integer it is
    if (op == Opcode::kGetTupleElement && !has_float(orig_[i])) return;
    const std::vector<InstrId> users(m_.users(i).begin(), m_.users(i).end());
    const bool root = m_.is_root(i);
    const std::optional<FixedFormat> own = own_format(i);
    // reduce-precision rounds to a float format; a fixed-point design has its own format
    // (the one this op's result takes), so the op is a copy into it
    if (op == Opcode::kReducePrecision) return rewrite_as_copy(c, i);
    const FixedFormat r = own ? *own : moves_values(op) && operand_format(i) ? *operand_format(i) : default_;
    if (op == Opcode::kConstant) {
      quantize_constant(i, r);
      return finish(c, i, users, root, i, r);
    }
    if (op == Opcode::kParameter) {
      const FixedFormat f = own ? r : default_;
      // The vectors of the quantized design stand for the float design's: its declared
      // range, else the [-2, 2] ir::random_inputs draws floats from (read while still float).
      const ir::InputRange range = ir::input_range(m_, i).value_or(ir::InputRange{-2, 2});
      m_.mutable_payload(i).shape = retype(orig_[i], container(f));
      if (c == m_.entry() && m_.shape(i).is_array()) {
        FixedFormat sat = f;
        sat.overflow = ir::FixedOverflow::kSaturate;
        ir::set_input_range(m_, i, {static_cast<double>(ir::quantize_real(range.lo, sat)),
                                    static_cast<double>(ir::quantize_real(range.hi, sat))});
      }
      if (m_.shape(i).is_array()) finish(c, i, users, root, i, f);
      return;
    }
    if (moves_values(op)) {
      requantize_operands(c, i, r);
      m_.mutable_payload(i).shape = retype(orig_[i], container(r));
      return finish(c, i, users, root, i, r);
    }
    if (in_default_format(op)) return called_computation(c, i, users, root, own);
    fixed::Builder b = builder(c, i);
    switch (op) {
      case Opcode::kAdd: case Opcode::kSubtract: return sum(c, i, users, root, r);
      case Opcode::kMultiply: case Opcode::kDot: case Opcode::kConvolution: return product(c, i, users, root, r);
      case Opcode::kDivide: return quotient(c, i, users, root, r);
      case Opcode::kNegate: case Opcode::kAbs: {
        const Fx a = b.work(m_.operand(i, 0), value(i, m_.operand(i, 0)).bits + 1, value(i, m_.operand(i, 0)).frac, r);
        m_.set_operand(i, 0, a.id);
        m_.mutable_payload(i).shape = Shape(b.type(a.id), orig_[i].dims());
        return finish(c, i, users, root, b.rescale(Fx{i, a.bits, a.frac, a.modular}, r), r);
      }
      case Opcode::kCompare: return compare(i, b);
      case Opcode::kPower: return power(c, i, users, root, r);
      case Opcode::kConvert: return convert(c, i, users, root, r);
      case Opcode::kIota: {
        const int64_t n = *std::max_element(orig_[i].dims().begin(), orig_[i].dims().end());
        const int bits = bits_for(n) + 1;
        m_.mutable_payload(i).shape = Shape(ir::fixed_container(bits), orig_[i].dims());
        return finish(c, i, users, root, b.rescale(Fx{i, bits, 0, false}, r), r);
      }
      case Opcode::kSign: {
        m_.mutable_payload(i).shape = Shape(b.type(m_.operand(i, 0)), orig_[i].dims());
        return finish(c, i, users, root, b.rescale(Fx{i, 2, 0, false}, r), r);
      }
      case Opcode::kSin: case Opcode::kCos: return periodic(c, i, users, root, r);
      default:
        if (const auto f = real_function(op)) return tabulate(c, i, users, root, r, f);
        refuse(i, "has no fixed-point form (--fixed handles +, -, *, /, remainder, min, max, abs, negate, sign, compare, "
                  "select, clamp, reduce-precision (a copy into the op's format), converts, iota, dot, convolution, reductions, calls, loops, data movement, the unary "
                  "transcendentals and power)");
    }
  }

  void rewrite_as_copy(ir::CompId c, InstrId i) {
    m_.set_opcode(i, Opcode::kCopy);
    m_.mutable_payload(i).attrs.exponent_bits = m_.mutable_payload(i).attrs.mantissa_bits = -1;
    rewrite(c, i);
  }

  void sum(ir::CompId c, InstrId i, const std::vector<InstrId>& users, bool root, const FixedFormat& r) {
    fixed::Builder b = builder(c, i);
    Fx x = value(i, m_.operand(i, 0)), y = value(i, m_.operand(i, 1));
    const int frac = std::max(x.frac, y.frac);
    x = b.align(x, frac - x.frac, r);
    y = b.align(y, frac - y.frac, r);
    const int bits = std::max(x.bits, y.bits) + 1;
    const Fx wx = b.work(x.id, bits, frac, r), wy = b.work(y.id, bits, frac, r);
    const ElementType t = std::max(b.type(wx.id), b.type(wy.id));  // s8 < s16 < s32 < s64
    const InstrId ops[] = {b.cast(wx.id, t), b.cast(wy.id, t)};
    m_.set_operands(i, ops);
    m_.mutable_payload(i).shape = Shape(t, orig_[i].dims());
    const bool modular = x.modular || y.modular || wx.modular || wy.modular;
    finish(c, i, users, root, b.rescale(Fx{i, modular ? std::min(bits, ir::bit_width(t)) : bits, frac, modular}, r), r);
  }

  // Products (and their sums, for dot and convolution) exact, then put into r once.
  void product(ir::CompId c, InstrId i, const std::vector<InstrId>& users, bool root, const FixedFormat& r) {
    fixed::Builder b = builder(c, i);
    const Fx x = value(i, m_.operand(i, 0)), y = value(i, m_.operand(i, 1));
    int bits = x.bits + y.bits;
    if (m_.opcode(i) != Opcode::kMultiply) {  // at most min(|x|, |y|) terms in one sum
      const int64_t terms = std::min(m_.shape(x.id).element_count(), m_.shape(y.id).element_count());
      bits += bits_for(std::max<int64_t>(terms - 1, 1));
    }
    const Fx wx = b.work(x.id, bits, x.frac + y.frac, r);
    const Fx wy = b.work(y.id, bits, x.frac + y.frac, r);
    const InstrId ops[] = {wx.id, wy.id};
    m_.set_operands(i, ops);
    m_.mutable_payload(i).shape = Shape(b.type(wx.id), orig_[i].dims());
    finish(c, i, users, root, b.rescale(Fx{i, wx.bits, x.frac + y.frac, wx.modular}, r), r);
  }

  // floor(x 2^k / y) with one guard bit below r's, and the remainder as a sticky bit.
  void quotient(ir::CompId c, InstrId i, const std::vector<InstrId>& users, bool root, const FixedFormat& r) {
    fixed::Builder b = builder(c, i);
    const Fx x = value(i, m_.operand(i, 0)), y = value(i, m_.operand(i, 1));
    const int k = r.fraction_bits() + 1 + y.frac - x.frac;
    if (k < 0) refuse(i, "divides by a value with too few fraction bits for " + ir::to_string(r));
    const int bits = std::max(x.bits + k, y.bits) + 1;
    if (bits > 64) refuse(i, fmt::format("needs a {}-bit dividend for {} (at most 64 bits)", bits, ir::to_string(r)));
    const ElementType t = ir::fixed_container(bits);
    const InstrId n = b.shift_left(b.cast(x.id, t), k), d = b.cast(y.id, t);
    const InstrId ops[] = {n, d};
    m_.set_operands(i, ops);
    m_.mutable_payload(i).shape = Shape(t, orig_[i].dims());
    const InstrId rem = b.binary(Opcode::kRemainder, n, d);
    const InstrId zero = b.splat(t, 0, orig_[i].dims());
    const auto cmp = [&](InstrId p, InstrId q, ir::ComparisonDirection dir) { return b.compare(p, q, dir); };
    // truncation rounded toward zero; floor is one less when the remainder is non-zero
    // and its sign (the dividend's) differs from the divisor's
    const InstrId inexact = cmp(rem, zero, ir::ComparisonDirection::kNe);
    const InstrId signs_differ = cmp(b.binary(Opcode::kXor, rem, d), zero, ir::ComparisonDirection::kLt);
    const InstrId adjust = b.cast(b.binary(Opcode::kAnd, inexact, signs_differ), t);
    const InstrId q = b.binary(Opcode::kSubtract, i, adjust);
    // users of i captured before: the new instructions reading i keep reading it
    finish(c, i, users, root, b.rescale(Fx{q, bits, r.fraction_bits() + 1, false}, r, b.cast(inexact, t)), r);
  }

  // A unary function by its table (fixed::Builder::function_table); i, a float op, goes.
  void tabulate(ir::CompId c, InstrId i, const std::vector<InstrId>& users, bool root, const FixedFormat& r,
                const std::function<long double(long double)>& f) {
    fixed::Builder b = builder(c, i);
    const InstrId x = m_.operand(i, 0);
    const InstrId y = b.function_table(value(i, x), *format_of(x), r, f);
    finish(c, i, users, root, y, r);
    if (m_.users(i).empty() && !m_.is_root(i)) m_.remove_instruction(i);
  }

  // sin and cos: x in turns (x / 2pi, exact with kTurnBits more fraction bits), of which
  // the fraction alone matters: a table over one period indexed by it, where a table over
  // x's whole range would have segments spanning turns when x's range is wide.
  void periodic(ir::CompId c, InstrId i, const std::vector<InstrId>& users, bool root, const FixedFormat& r) {
    constexpr int kTurnBits = 24;
    fixed::Builder b = builder(c, i);
    const Fx x = value(i, m_.operand(i, 0));
    const int frac = x.frac + kTurnBits;
    if (frac > 62) refuse(i, fmt::format("needs {} fraction bits for its turns (at most 62)", frac));
    const Fx wx = b.work(x.id, x.bits + kTurnBits, frac, r);
    const auto per_turn = static_cast<int64_t>(std::llroundl(std::ldexp(1 / (2 * std::acos(-1.0L)), kTurnBits)));
    const InstrId turns = b.binary(Opcode::kMultiply, wx.id, b.splat(b.type(wx.id), per_turn, orig_[i].dims()));
    const InstrId fraction = b.and_const(turns, (int64_t{1} << frac) - 1);  // two's complement: x mod 1 turn
    const bool sine = m_.opcode(i) == Opcode::kSin;
    const FixedFormat in{frac + 1, 1, ir::FixedRounding::kTruncate, ir::FixedOverflow::kSaturate};
    const InstrId result = b.function_table(Fx{fraction, frac + 1, frac, false}, in, r, [sine](long double u) {
      const long double a = 2 * std::acos(-1.0L) * u;
      return sine ? std::sin(a) : std::cos(a);
    });
    finish(c, i, users, root, result, r);
    if (m_.users(i).empty() && !m_.is_root(i)) m_.remove_instruction(i);
  }

  // x^y for a variable y: exp(y ln x), ln x by its table into r, the product y ln x exact,
  // put into r, and exp by its table (x <= 0: ln's table holds 0 there, so x^y reads 1;
  // the float pow gives 0 or NaN).
  void variable_power(ir::CompId c, InstrId i, const std::vector<InstrId>& users, bool root, const FixedFormat& r) {
    fixed::Builder b = builder(c, i);
    const InstrId x = m_.operand(i, 0);
    const InstrId ln = b.function_table(value(i, x), *format_of(x), r, [](long double v) { return std::log(v); });
    const Fx l{ln, r.width, r.fraction_bits(), false}, y = value(i, m_.operand(i, 1));
    const Fx wl = b.work(l.id, l.bits + y.bits, l.frac + y.frac, r), wy = b.work(y.id, l.bits + y.bits, l.frac + y.frac, r);
    const InstrId product = b.binary(Opcode::kMultiply, wl.id, wy.id);
    const InstrId scaled = b.rescale(Fx{product, wl.bits, l.frac + y.frac, wl.modular}, r);
    const InstrId result = b.function_table(Fx{scaled, r.width, r.fraction_bits(), false}, r, r,
                                            [](long double v) { return std::exp(v); });
    finish(c, i, users, root, result, r);
    if (m_.users(i).empty() && !m_.is_root(i)) m_.remove_instruction(i);
  }

  // x^e for a constant e (gelu's x^3): a function of x alone, so a table.
  void power(ir::CompId c, InstrId i, const std::vector<InstrId>& users, bool root, const FixedFormat& r) {
    InstrId e = m_.operand(i, 1);
    while (e < before_.instruction_slots() && before_.opcode(e) == Opcode::kBroadcast) e = before_.operand(e, 0);
    if (e >= before_.instruction_slots() || before_.opcode(e) != Opcode::kConstant) return variable_power(c, i, users, root, r);
    const ir::Literal& l = before_.literal(e);
    const long double k = l.get_double(0);
    for (int64_t j = 1; j < l.element_count(); ++j)
      if (l.get_double(j) != k) refuse(i, "has an exponent that differs between elements");
    tabulate(c, i, users, root, r, [k](long double x) { return std::pow(x, k); });
  }

  void compare(InstrId i, fixed::Builder& b) {
    Fx x = value(i, m_.operand(i, 0)), y = value(i, m_.operand(i, 1));
    const int frac = std::max(x.frac, y.frac);
    const FixedFormat exact{64, 64 - frac, ir::FixedRounding::kTruncate, ir::FixedOverflow::kSaturate};
    x = b.align(x, frac - x.frac, exact);
    y = b.align(y, frac - y.frac, exact);
    const ElementType t = ir::fixed_container(std::max(x.bits, y.bits));
    const InstrId ops[] = {b.cast(x.id, t), b.cast(y.id, t)};
    m_.set_operands(i, ops);
    m_.mutable_payload(i).attrs.comparison_type.clear();
  }

  void convert(ir::CompId c, InstrId i, const std::vector<InstrId>& users, bool root, const FixedFormat& r) {
    fixed::Builder b = builder(c, i);
    const InstrId o = m_.operand(i, 0);
    const ElementType to = orig_[i].element_type();
    if (format_of(o) && fp(to)) {  // float -> float: a requantize
      const InstrId y = b.rescale(value(i, o), r);
      for (InstrId u : users)
        for (size_t k = 0; k < m_.operands(u).size(); ++k)
          if (m_.operand(u, k) == i) m_.set_operand(u, k, y);
      if (root) m_.set_root(c, y);
      formats_[y] = r;
      record(c, i, r);
      if (m_.users(i).empty() && !m_.is_root(i)) m_.remove_instruction(i);
      return;
    }
    if (fp(to)) {  // integer -> float: the integer's value, put into r
      const ElementType from = m_.shape(o).element_type();
      const int bits = from == ElementType::kPred ? 2 : ir::bit_width(from) + (ir::is_unsigned_integral(from) ? 1 : 0);
      if (bits > 64) refuse(i, "converts a u64 (more than 64 signed bits)");
      m_.mutable_payload(i).shape = Shape(ir::fixed_container(bits), orig_[i].dims());
      return finish(c, i, users, root, b.rescale(Fx{i, bits, 0, false}, r), r);
    }
    if (to == ElementType::kPred) {  // nonzero stays nonzero
      m_.set_operand(i, 0, o);
      return;
    }
    // float -> integer: the value rounded toward zero, then the integer type's conversion
    m_.set_operand(i, 0, b.truncate_to_integer(value(i, o)));
  }

  // Reductions, calls, loops, tuples: the called computations run in the default
  // format, so the operands go into it; an own precision applies to the result.
  void called_computation(ir::CompId c, InstrId i, const std::vector<InstrId>& users, bool root,
                          const std::optional<FixedFormat>& own) {
    const bool entry_outputs = m_.opcode(i) == Opcode::kTuple && root && c == m_.entry();
    if (!entry_outputs) requantize_operands(c, i, default_);
    if (m_.opcode(i) == Opcode::kTuple) {  // its elements' types, whatever their formats
      std::vector<Shape> e;
      for (InstrId o : m_.operands(i)) e.push_back(m_.shape(o));
      m_.mutable_payload(i).shape = Shape::tuple(std::move(e));
    } else if (m_.opcode(i) == Opcode::kGetTupleElement) {
      m_.mutable_payload(i).shape = m_.shape(m_.operand(i, 0)).tuple_elements().at(static_cast<size_t>(m_.attrs(i).tuple_index));
    } else {
      m_.mutable_payload(i).shape = retype(orig_[i], container(default_));
    }
    if (!m_.shape(i).is_array()) {
      if (own) refuse(i, "has a tuple result: give its precision to the ops that read it");
      return;
    }
    fixed::Builder b = builder(c, i);
    const InstrId y = own ? b.rescale(value_in(i, default_), *own) : i;
    finish(c, i, users, root, y, own ? *own : default_);
  }
  Fx value_in(InstrId i, const FixedFormat& f) const { return Fx{i, f.width, f.fraction_bits(), false}; }

  ir::Module& m_;
  const ir::Module before_;  // the float module (same ids): constants as they were
  FixedFormat default_;
  std::vector<Shape> orig_;
  std::unordered_map<InstrId, FixedFormat> formats_;  // the float values' formats

 public:
  std::vector<QuantizedModule::Value> values_;
};

}  // namespace

QuantizedModule quantize_module(const ir::Module& m, FixedFormat f) {
  QuantizedModule q{m.clone(), {}, {}, {}};
  fixed::expand_atan2(q.module);
  Quantizer z(q.module, f);
  z.run();
  ir::verify(q.module);
  q.values = std::move(z.values_);
  const ir::Computation& entry = q.module.computation(q.module.entry());
  for (InstrId p : entry.params) q.inputs.push_back(z.format_of(p));
  const InstrId root = entry.root;
  if (q.module.opcode(root) == Opcode::kTuple)
    for (InstrId o : q.module.operands(root)) q.outputs.push_back(z.format_of(o));
  else
    q.outputs.push_back(z.format_of(root));
  return q;
}

}  // namespace hlsgym::rtl
