// Add/subtract and multiply.
//
// fadd (latency 4): swap so x has the larger magnitude -> align y right by the exponent
// difference into p + 2 bits and a sticky bit (guard, round, sticky: enough for a
// correctly rounded sum or difference) and add or subtract -> normalize (leading zeros;
// a subnormal result is exact and stops at exponent 1) -> round to nearest even.
//
// fmul (latency 3): the p x p significand product (one `*`, which synthesis maps to DSP
// slices) -> normalize, left past a subnormal operand's leading zeros or right into the
// subnormal range with a sticky bit -> round to nearest even.
//
// Both take NaN, infinity and invalid operations from the operands' classes in the first
// stage and carry that result to the last, where it replaces the rounded one.
#include "rtl/float_unit_builders.h"
#include "rtl/float_unit_parts.h"

namespace hlsgym::rtl::float_detail {

namespace {

// The result of an operation when an operand is NaN: x86 returns the first NaN operand's,
// quieted (ir::evaluate pins that for add and multiply too), each with its own sign.
std::string propagated_nan(Pipeline& p, Operand& a, Operand& b) {
  return fmt::format("{} ? {} : {}", p.at(a.is_nan()), a.quieted(p.at(a.sign())), b.quieted(p.at(b.sign())));
}

}  // namespace

Sig build_add(Pipeline& p, const FloatFormat& f, const Sig& a_bits, const Sig& b_bits, const Sig& sub) {
  const int e = f.exponent_bits, prec = f.precision();
  Operand a(p, f, "a", a_bits), b(p, f, "b", b_bits);
  // a - b adds -b; a NaN b still propagates with its own sign (x86 subss does)
  const Sig b_sign = p.wire("b_sign_eff", 1, fmt::format("{} ^ {}", p.at(b.sign()), p.at(sub)));
  const Sig a_big = p.wire("a_big", 1, fmt::format("{} >= {}", p.at(a.magnitude()), p.at(b.magnitude())));
  auto pick = [&](const std::string& name, int width, const Sig& if_a, const Sig& if_b) {
    return p.wire(name, width, fmt::format("{} ? {} : {}", a_big.name, p.at(if_a), p.at(if_b)));
  };
  const Sig x_sign = pick("x_sign", 1, a.sign(), b_sign), y_sign = pick("y_sign", 1, b_sign, a.sign());
  const Sig x_exp = pick("x_exp", e, a.effective_exponent(), b.effective_exponent());
  const Sig y_exp = pick("y_exp", e, b.effective_exponent(), a.effective_exponent());
  const Sig x_sig = pick("x_sig", prec, a.significand(), b.significand());
  const Sig y_sig = pick("y_sig", prec, b.significand(), a.significand());
  const Sig diff = p.wire("exp_diff", e, fmt::format("{} - {}", x_exp.name, y_exp.name));
  const Sig special = p.wire("special", 1, fmt::format("(&{}) | (&{})", p.at(a.exponent()), p.at(b.exponent())));
  const std::string invalid = fmt::format("{} & {} & ({} ^ {})", p.at(a.is_inf()), p.at(b.is_inf()), p.at(a.sign()),
                                          b_sign.name);
  const Sig special_value = p.wire(
      "special_value", f.width(),
      fmt::format("({} | {}) ? ({}) : ({}) ? {} : {} ? {} : {}", p.at(a.is_nan()), p.at(b.is_nan()),
                  propagated_nan(p, a, b), invalid, narrowed_nan(f, kX86DefaultNaN), p.at(a.is_inf()), p.at(a_bits),
                  infinity(f, b_sign.name)));

  p.next_stage();  // align y to x and add
  const Sig y_wide = p.wire("y_wide", prec + 2, fmt::format("{{{}, 2'b00}}", p.at(y_sig)));
  const Shifted y_al = shift_right_sticky(p, "y_align", y_wide, diff);
  const int sum_bits = prec + 4;  // carry, significand, guard, round, sticky
  const std::string x_ext = fmt::format("{{1'b0, {}, 3'b000}}", p.at(x_sig));
  const std::string y_ext = fmt::format("{{1'b0, {}, {}}}", y_al.value.name, y_al.sticky.name);
  // one adder: x - y is x + ~y + 1
  const Sig subtract = p.wire("subtract", 1, fmt::format("{} ^ {}", p.at(x_sign), p.at(y_sign)));
  const Sig sum = p.wire("sum", sum_bits, fmt::format("{} + ({} ^ {}) + {}", x_ext, y_ext, replicate(sum_bits, subtract.name),
                                                      zext(subtract.name, 1, sum_bits)));

  p.next_stage();  // normalize: the carry bit stands for exponent x + 1
  const int ew = e + 2;
  const Sig top = p.wire("sum_top", ew, fmt::format("{} + {}", zext(p.at(x_exp), e, ew), constant(ew, 1)));
  const Normalized n = normalize(p, f, "norm", {.sig = sum, .top = top, .may_underflow = false});
  // an exact zero is +0 unless both addends are -0 (round to nearest)
  const Sig sign = p.wire("sum_sign", 1, fmt::format("(|{}) ? {} : {} & {}", p.at(sum), p.at(x_sign), p.at(x_sign),
                                                     p.at(y_sign)));

  p.next_stage();  // round, then the special cases
  const Sig rounded = round_and_pack(p, f, "round", p.at(sign), n);
  return p.wire("result", f.width(), fmt::format("{} ? {} : {}", p.at(special), p.at(special_value), rounded.name));
}

Sig build_multiply(Pipeline& p, const FloatFormat& f, const Sig& a_bits, const Sig& b_bits) {
  const int e = f.exponent_bits, prec = f.precision(), ew = e + 2;
  Operand a(p, f, "a", a_bits), b(p, f, "b", b_bits);
  const Sig sign = p.wire("sign", 1, fmt::format("{} ^ {}", p.at(a.sign()), p.at(b.sign())));
  const Sig product = p.wire("product", 2 * prec, fmt::format("{} * {}", zext(p.at(a.significand()), prec, 2 * prec),
                                                             zext(p.at(b.significand()), prec, 2 * prec)));
  // The product's top bit stands for 2^(ea + eb - 2 bias + 1): biased, ea + eb - bias + 1.
  const Sig top = p.wire("product_top", ew,
                         fmt::format("{} + {} + {}", zext(p.at(a.effective_exponent()), e, ew),
                                     zext(p.at(b.effective_exponent()), e, ew),
                                     constant(ew, static_cast<uint64_t>(1 - f.bias()))));
  const Sig special = p.wire("special", 1, fmt::format("(&{}) | (&{})", p.at(a.exponent()), p.at(b.exponent())));
  const std::string invalid = fmt::format("({} & {}) | ({} & {})", p.at(a.is_inf()), p.at(b.is_zero()), p.at(a.is_zero()),
                                          p.at(b.is_inf()));
  const Sig special_value =
      p.wire("special_value", f.width(),
             fmt::format("({} | {}) ? ({}) : ({}) ? {} : {}", p.at(a.is_nan()), p.at(b.is_nan()),
                         propagated_nan(p, a, b), invalid, narrowed_nan(f, kX86DefaultNaN), infinity(f, sign.name)));

  p.next_stage();  // normalize the product (the register above is the multiplier's output)
  const Normalized n = normalize(p, f, "norm", {.sig = product, .top = top});

  p.next_stage();  // round, then the special cases
  const Sig rounded = round_and_pack(p, f, "round", p.at(sign), n);
  return p.wire("result", f.width(), fmt::format("{} ? {} : {}", p.at(special), p.at(special_value), rounded.name));
}

}  // namespace hlsgym::rtl::float_detail
