// Converts, as ir/evaluate_elementwise.cc's convert_element defines them.
//
// float -> float: the value, rounded to nearest even into the destination (overflow to
// infinity, underflow to subnormals); a NaN keeps its sign and, when the destination
// keeps payloads, the top of its payload, quieted. Same exponent width (bf16 <-> f32):
// one stage, no normalization; else normalize, then round (latency 2).
//
// integer -> float: the interpreter rounds more than once. A signed integer goes through
// static_cast<float> (24 bits), an unsigned one through static_cast<double> (53 bits),
// and the value is then stored in the element type (Literal::set_double: double ->
// float -> f16/bf16). So the unit rounds to nearest even at each precision of that chain
// the integer's magnitude can exceed, then to the destination (latency 2): u64 -> bf16
// rounds at 53, 24 and 8 bits, and s32 -> bf16 at 24 and 8, which differs from one
// rounding at 8 (e.g. 2^24 + 2^16 + 1 -> 2^24, not 2^24 + 2^17).
//
// float -> integer: truncation toward zero, saturating at the type's range; NaN is 0,
// negative values are 0 for unsigned types (latency 2).
#include <algorithm>
#include <vector>

#include "rtl/float_unit_builders.h"
#include "rtl/float_unit_parts.h"

namespace hlsgym::rtl::float_detail {

namespace {

// `a` (a NaN of format `from`) as a NaN of format `to`: the payload's top bits when `to`
// keeps payloads, the quiet bit set.
std::string converted_nan(Pipeline& p, Operand& a, const FloatFormat& to) {
  const int fm = a.format().fraction_bits, tm = to.fraction_bits;
  std::string payload = constant(tm - 1, 0);
  if (to.nan_keeps_payload)
    payload = tm >= fm ? fmt::format("{{{}, {}}}", p.bits(a.fraction(), fm - 2, 0), constant(tm - fm, 0))
                       : p.bits(a.fraction(), fm - 2, fm - tm);
  return fmt::format("{{{}, {}, 1'b1, {}}}", p.at(a.sign()), replicate(to.exponent_bits, "1'b1"), payload);
}

}  // namespace

Sig build_float_to_float(Pipeline& p, const FloatFormat& from, const FloatFormat& to, const Sig& a_bits) {
  Operand a(p, from, "a", a_bits);
  const std::string nan = converted_nan(p, a, to);
  if (from.exponent_bits == to.exponent_bits) {
    if (to.fraction_bits > from.fraction_bits)  // exact: the same value with more fraction bits
      return p.wire("result", to.width(), fmt::format("{} ? {} : {{{}, {}}}", p.at(a.is_nan()), nan, p.at(a_bits),
                                                      constant(to.fraction_bits - from.fraction_bits, 0)));
    // the same scale, fewer fraction bits: round the fraction (a subnormal stays one)
    const int ew = from.exponent_bits + 1;
    const Normalized n{.sig = a.significand(), .sticky = p.wire("sticky", 1, "1'b0"),
                       .field = p.wire("field", ew, zext(p.at(a.exponent()), from.exponent_bits, ew))};
    const Sig rounded = round_and_pack(p, to, "round", p.at(a.sign()), n);
    return p.wire("result", to.width(), fmt::format("{} ? {} : {}", p.at(a.is_nan()), nan, rounded.name));
  }
  const int k = std::max(from.precision(), to.precision() + 1);
  const int ew = std::max(from.exponent_bits, to.exponent_bits) + 2;
  const Sig sig = p.wire("sig", k, k == from.precision() ? p.at(a.significand())
                                                         : fmt::format("{{{}, {}}}", p.at(a.significand()),
                                                                       constant(k - from.precision(), 0)));
  const Sig top = p.wire("top", ew, fmt::format("{} + {}", zext(p.at(a.effective_exponent()), from.exponent_bits, ew),
                                                constant(ew, static_cast<uint64_t>(to.bias() - from.bias()))));
  const Sig special_value = p.wire("special_value", to.width(), fmt::format("{} ? {} : {}", p.at(a.is_nan()), nan,
                                                                            infinity(to, p.at(a.sign()))));
  const Sig special = p.wire("special", 1, fmt::format("&{}", p.at(a.exponent())));
  const Normalized n = normalize(p, to, "norm", {.sig = sig, .top = top, .may_underflow = to.exponent_bits < from.exponent_bits});
  p.next_stage();
  const Sig rounded = round_and_pack(p, to, "round", p.at(a.sign()), n);
  return p.wire("result", to.width(), fmt::format("{} ? {} : {}", p.at(special), p.at(special_value), rounded.name));
}

Sig build_int_to_float(Pipeline& p, ir::ElementType from, const FloatFormat& to, const Sig& a) {
  const int w = ir::bit_width(from);
  const bool is_signed = ir::is_signed_integral(from);
  const Sig negative = p.wire("negative", 1, is_signed ? p.bit(a, w - 1) : "1'b0");
  const Sig magnitude = p.wire("magnitude", w, is_signed ? fmt::format("{} ? -{} : {}", negative.name, p.at(a), p.at(a))
                                                         : p.at(a));
  const Sig lz = leading_zeros(p, "lz", magnitude);
  const Sig sig = p.wire("sig", w, fmt::format("{} << {}", magnitude.name, lz.name));
  // exponent of the top bit, biased: w - 1 - lz + bias (no integer is below 1)
  const int ew = bits_for(w + to.bias() + (1 << to.exponent_bits)) + 1;
  Sig exponent = p.wire("exponent", ew, fmt::format("{} - {}", constant(ew, static_cast<uint64_t>(w - 1 + to.bias())),
                                                    zext(lz.name, lz.width, ew)));
  const Sig nonzero = p.wire("nonzero", 1, fmt::format("|{}", magnitude.name));
  p.next_stage();

  // The roundings before the destination's: static_cast<float> (24 bits) of a signed
  // integer, static_cast<double> (53) then float (24) of an unsigned one; only those the
  // magnitude can exceed (a signed one's magnitude has w - 1 bits but for -2^(w-1)).
  const std::vector<int> chain = is_signed ? std::vector<int>{24} : std::vector<int>{53, 24};
  const int magnitude_bits = is_signed ? w - 1 : w;
  Sig s = sig;
  int step = 0;
  for (int prec : chain) {
    if (prec >= magnitude_bits || prec <= to.precision()) continue;
    const std::string x = p.at(s), tag = fmt::format("r{}", step++);
    const std::string rest = w - prec - 2 >= 0 ? fmt::format("(|{}[{}:0])", x, w - prec - 2) : "1'b0";
    const Sig sum = p.wire(tag + "_sum", prec + 1, fmt::format("{} + {}", zext(fmt::format("{}[{}:{}]", x, w - 1, w - prec),
                                                                                prec, prec + 1),
                                                                zext(fmt::format("({}[{}] & ({} | {}[{}]))", x, w - prec - 1,
                                                                                 rest, x, w - prec),
                                                                     1, prec + 1)));
    // a carry out makes the significand 1.000.. one exponent up
    s = p.wire(tag + "_sig", w, fmt::format("{}[{}] ? {{1'b1, {}}} : {{{}[{}:0], {}}}", sum.name, prec,
                                           constant(w - 1, 0), sum.name, prec - 1, constant(w - prec, 0)));
    exponent = p.wire(tag + "_exponent", ew, fmt::format("{} + {}", p.at(exponent), zext(fmt::format("{}[{}]", sum.name, prec), 1, ew)));
  }
  const int k = std::max(w, to.precision() + 1);
  const Sig padded = k == w ? s : p.wire("padded", k, fmt::format("{{{}, {}}}", p.at(s), constant(k - w, 0)));
  const Normalized n{.sig = padded, .sticky = p.wire("sticky", 1, "1'b0"),
                     .field = p.wire("field", ew, fmt::format("{} ? {} : {}", p.at(nonzero), p.at(exponent), constant(ew, 0)))};
  return round_and_pack(p, to, "round", p.at(negative), n);
}

Sig build_float_to_int(Pipeline& p, const FloatFormat& from, ir::ElementType to, const Sig& a_bits) {
  const int w = ir::bit_width(to), prec = from.precision();
  const bool is_signed = ir::is_signed_integral(to);
  Operand a(p, from, "a", a_bits);
  // |v| >= 2^limit saturates: 2^(w-1) for signed types (their min is -2^(w-1) itself)
  const int limit = is_signed ? w - 1 : w;
  const int ew = std::max(from.exponent_bits, bits_for(w)) + 2;
  const Sig unbiased = p.wire("unbiased", ew, fmt::format("{} - {}", zext(p.at(a.effective_exponent()), from.exponent_bits, ew),
                                                          constant(ew, static_cast<uint64_t>(from.bias()))));
  const Sig below_one = p.wire("below_one", 1, p.bit(unbiased, ew - 1));
  const Sig saturate = p.wire("saturate", 1, fmt::format("{} | (~{} & ({} >= {}))", p.at(a.is_inf()), below_one.name,
                                                         unbiased.name, constant(ew, static_cast<uint64_t>(limit))));
  // 1.f x 2^e, e < limit: the significand shifted left by e, less its p - 1 fraction bits
  const int sb = bits_for(limit - 1), tw = prec + w - 1;
  const Sig shifted = p.wire("shifted", tw, fmt::format("{} << {}", zext(p.at(a.significand()), prec, tw),
                                                        p.bits(unbiased, sb - 1, 0)));
  p.unused(fmt::format("{}[{}:{}]", unbiased.name, ew - 1, sb));
  if (prec >= 2) p.unused(fmt::format("{}[{}:0]", shifted.name, prec - 2));
  const Sig truncated = p.wire("truncated", w, fmt::format("{} ? {} : {}[{}:{}]", below_one.name, constant(w, 0),
                                                           shifted.name, tw - 1, prec - 1));
  p.next_stage();
  const std::string neg = p.at(a.sign()), nan = p.at(a.is_nan()), sat = p.at(saturate), t = p.at(truncated);
  const uint64_t max = is_signed ? (uint64_t{1} << (w - 1)) - 1 : (w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1);
  if (is_signed)
    return p.wire("result", w, fmt::format("{} ? {} : {} ? ({} ? {} : {}) : ({} ? -{} : {})", nan, constant(w, 0), sat, neg,
                                           constant(w, max + 1), constant(w, max), neg, t, t));
  return p.wire("result", w, fmt::format("({} | {}) ? {} : {} ? {} : {}", nan, neg, constant(w, 0), sat,
                                         constant(w, max), t));
}

}  // namespace hlsgym::rtl::float_detail
