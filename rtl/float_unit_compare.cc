// Compare, minimum/maximum, abs/negate: one stage of logic each (latency 1).
//
// The interpreter compares the values as doubles: NaN is unordered (every direction
// false but NE), -0 equals +0; with TOTALORDER it compares the bits as sign-magnitude
// integers instead. Its minimum/maximum return std::numeric_limits<float>::
// quiet_NaN() narrowed to the type when either operand is NaN, else std::min/std::max,
// which return the first operand when neither is less (so min(-0, +0) is -0 and
// min(+0, -0) is +0). Abs and negate are sign-bit operations, but a NaN comes out
// quieted as the interpreter's trip through double and back makes it.
#include "rtl/float_unit_builders.h"
#include "rtl/float_unit_parts.h"

namespace hlsgym::rtl::float_detail {

namespace {

// x < y for operands that are not NaN: sign-magnitude order, with -0 == +0.
Sig less(Pipeline& p, const std::string& name, Operand& x, Operand& y) {
  const std::string xs = p.at(x.sign()), ys = p.at(y.sign()), xm = p.at(x.magnitude()), ym = p.at(y.magnitude());
  return p.wire(name, 1, fmt::format("~({} & {}) & (({} & ~{}) | (~{} & ~{} & ({} < {})) | ({} & {} & ({} > {})))",
                                     p.at(x.is_zero()), p.at(y.is_zero()), xs, ys, xs, ys, xm, ym, xs, ys, xm, ym));
}

}  // namespace

Sig build_compare(Pipeline& p, const FloatFormat& f, ir::ComparisonDirection d, const Sig& a_bits, const Sig& b_bits) {
  using D = ir::ComparisonDirection;
  Operand a(p, f, "a", a_bits), b(p, f, "b", b_bits);
  const Sig unordered = p.wire("unordered", 1, fmt::format("{} | {}", p.at(a.is_nan()), p.at(b.is_nan())));
  auto equal = [&] {
    return p.wire("equal", 1, fmt::format("({} == {}) | ({} & {})", p.at(a_bits), p.at(b_bits), p.at(a.is_zero()),
                                          p.at(b.is_zero())));
  };
  std::string ordered;
  switch (d) {
    case D::kEq: ordered = equal().name; break;
    case D::kNe: return p.wire("result", 1, fmt::format("{} | ~{}", unordered.name, equal().name));
    case D::kLt: ordered = less(p, "a_lt_b", a, b).name; break;
    case D::kLe: ordered = fmt::format("{} | {}", less(p, "a_lt_b", a, b).name, equal().name); break;
    case D::kGt: ordered = less(p, "b_lt_a", b, a).name; break;
    case D::kGe: ordered = fmt::format("{} | {}", less(p, "b_lt_a", b, a).name, equal().name); break;
  }
  return p.wire("result", 1, fmt::format("~{} & ({})", unordered.name, ordered));
}

// TOTALORDER (the interpreter's total_order_key): the bits as a signed integer, a
// negative one's magnitude bits inverted -- so compared unsigned with the sign bit flipped.
Sig build_total_order_compare(Pipeline& p, const FloatFormat& f, ir::ComparisonDirection d, const Sig& a_bits,
                              const Sig& b_bits) {
  using D = ir::ComparisonDirection;
  const int w = f.width();
  auto key = [&](const std::string& name, const Sig& x) {
    const std::string sign = p.bit(x, w - 1);
    return p.wire(name, w, fmt::format("{{~{}, {} ^ {}}}", sign, p.bits(x, w - 2, 0), replicate(w - 1, sign))).name;
  };
  const std::string a = key("a_key", a_bits), b = key("b_key", b_bits);
  static const char* const kOperators[] = {"==", "!=", "<", "<=", ">", ">="};
  static_assert(static_cast<int>(D::kGe) == 5, "kOperators follows ComparisonDirection");
  return p.wire("result", 1, fmt::format("{} {} {}", a, kOperators[static_cast<int>(d)], b));
}

Sig build_min_max(Pipeline& p, const FloatFormat& f, bool maximum, const Sig& a_bits, const Sig& b_bits) {
  Operand a(p, f, "a", a_bits), b(p, f, "b", b_bits);
  // max(a, b) = a < b ? b : a; min(a, b) = b < a ? b : a
  const Sig take_b = maximum ? less(p, "a_lt_b", a, b) : less(p, "b_lt_a", b, a);
  return p.wire("result", f.width(),
                fmt::format("({} | {}) ? {} : {} ? {} : {}", p.at(a.is_nan()), p.at(b.is_nan()), quiet_nan_of_min_max(f),
                            take_b.name, p.at(b_bits), p.at(a_bits)));
}

Sig build_abs_negate(Pipeline& p, const FloatFormat& f, bool negate, const Sig& a_bits) {
  Operand a(p, f, "a", a_bits);
  const Sig sign = p.wire("sign", 1, negate ? fmt::format("~{}", p.at(a.sign())) : "1'b0");
  if (!negate) p.unused(p.bit(a_bits, f.width() - 1));  // abs drops the sign
  return p.wire("result", f.width(), fmt::format("{} ? {} : {{{}, {}}}", p.at(a.is_nan()), a.quieted(sign.name),
                                                 sign.name, p.at(a.magnitude())));
}

}  // namespace hlsgym::rtl::float_detail
