// Divide and square root: restoring digit recurrences, one result bit per step,
// kRecurrenceStepsPerStage steps per pipeline stage, fully unrolled (one operation per
// cycle).
//
// fdiv: normalize subnormal significands (stage 0) -> p + 2 quotient bits of
// ma / mb in [1/2, 2) (steps r -= d when r >= d, r <<= 1) with the remainder as sticky
// -> normalize (one bit left, or right into the subnormal range) and round (one stage).
// Latency 2 + ceil((p + 2) / steps per stage): f32 15, f16 9, bf16 7.
//
// fsqrt: normalize a subnormal significand and make the exponent even (stage 0) -> p + 1
// root bits of the radicand in [1, 4), two radicand bits per step, the remainder as
// sticky -> round (the root is in [1, 2): never subnormal, never overflowing).
// Latency 2 + ceil((p + 1) / steps per stage): f32 15, f16 8, bf16 7.
#include <vector>

#include "rtl/float_unit_builders.h"
#include "rtl/float_unit_parts.h"

namespace hlsgym::rtl::float_detail {

namespace {

// A register boundary before every kRecurrenceStepsPerStage-th step but the first.
void stage_for_step(Pipeline& p, int step) {
  if (step > 0 && step % kRecurrenceStepsPerStage == 0) p.next_stage();
}

}  // namespace

Sig build_divide(Pipeline& p, const FloatFormat& f, const Sig& a_bits, const Sig& b_bits) {
  const int e = f.exponent_bits, prec = f.precision(), ew = e + 2;
  Operand a(p, f, "a", a_bits), b(p, f, "b", b_bits);
  const Sig a_lz = leading_zeros(p, "a_lz", a.significand()), b_lz = leading_zeros(p, "b_lz", b.significand());
  const Sig a_norm = p.wire("a_norm", prec, fmt::format("{} << {}", p.at(a.significand()), a_lz.name));
  const Sig b_norm = p.wire("b_norm", prec, fmt::format("{} << {}", p.at(b.significand()), b_lz.name));
  // the quotient's integer bit stands for 2^(ea - eb): biased, ea - eb + bias
  const Sig top = p.wire("quotient_top", ew,
                         fmt::format("{} - {} - {} + {} + {}", zext(p.at(a.effective_exponent()), e, ew),
                                     zext(a_lz.name, a_lz.width, ew), zext(p.at(b.effective_exponent()), e, ew),
                                     zext(b_lz.name, b_lz.width, ew), constant(ew, static_cast<uint64_t>(f.bias()))));
  const Sig sign = p.wire("sign", 1, fmt::format("{} ^ {}", p.at(a.sign()), p.at(b.sign())));
  const Sig special = p.wire("special", 1, fmt::format("(&{}) | (&{}) | {} | {}", p.at(a.exponent()), p.at(b.exponent()),
                                                       p.at(a.is_zero()), p.at(b.is_zero())));
  const std::string invalid = fmt::format("({} & {}) | ({} & {})", p.at(a.is_zero()), p.at(b.is_zero()), p.at(a.is_inf()),
                                          p.at(b.is_inf()));
  const Sig special_value = p.wire(
      "special_value", f.width(),
      fmt::format("({} | {}) ? ({} ? {} : {}) : ({}) ? {} : ({} | {}) ? {} : {{{}, {}}}", p.at(a.is_nan()), p.at(b.is_nan()),
                  p.at(a.is_nan()), a.quieted(p.at(a.sign())), b.quieted(p.at(b.sign())), invalid,
                  narrowed_nan(f, kX86DefaultNaN), p.at(a.is_inf()), p.at(b.is_zero()), infinity(f, sign.name),
                  sign.name, constant(f.width() - 1, 0)));

  p.next_stage();
  // r < 2 d throughout: p + 1 bits; a step's difference has one more for its sign
  const int quotient_bits = prec + 2;
  Sig r = p.wire("r0", prec + 1, fmt::format("{{1'b0, {}}}", p.at(a_norm)));
  Sig q;
  for (int i = 0; i < quotient_bits; ++i) {
    stage_for_step(p, i);
    const Sig t = p.wire(fmt::format("t{}", i), prec + 2,
                         fmt::format("{{1'b0, {}}} - {}", p.at(r), zext(p.at(b_norm), prec, prec + 2)));
    p.unused(fmt::format("{}[{}]", t.name, prec));  // t < d when kept
    const std::string fits = fmt::format("~{}[{}]", t.name, prec + 1);
    const Sig next = p.wire(fmt::format("r{}", i + 1), prec + 1,
                            fmt::format("{{{} ? {}[{}:0] : {}, 1'b0}}", fits, t.name, prec - 1, p.bits(r, prec - 1, 0)));
    q = p.wire(fmt::format("q{}", i), i + 1, i == 0 ? fits : fmt::format("{{{}, {}}}", p.at(q), fits));
    r = next;
  }

  p.next_stage();  // normalize and round
  const Sig sticky = p.wire("remainder_nonzero", 1, fmt::format("|{}", p.at(r)));
  const Normalized n = normalize(p, f, "norm", {.sig = q, .top = top, .sticky = sticky, .has_sticky = true});
  const Sig rounded = round_and_pack(p, f, "round", p.at(sign), n);
  return p.wire("result", f.width(), fmt::format("{} ? {} : {}", p.at(special), p.at(special_value), rounded.name));
}

Sig build_sqrt(Pipeline& p, const FloatFormat& f, const Sig& a_bits) {
  const int e = f.exponent_bits, prec = f.precision(), ew = e + 2;
  const int root_bits = prec + 1, radicand_bits = 2 * root_bits;
  Operand a(p, f, "a", a_bits);
  const Sig lz = leading_zeros(p, "lz", a.significand());
  const Sig norm = p.wire("norm", prec, fmt::format("{} << {}", p.at(a.significand()), lz.name));
  const Sig exp = p.wire("exp_norm", ew, fmt::format("{} - {}", zext(p.at(a.effective_exponent()), e, ew),
                                                     zext(lz.name, lz.width, ew)));
  // the bias is odd, so the unbiased exponent is odd when the biased one is even: then the
  // root is of 2m x 2^(E-1), whose exponent halves exactly
  const Sig odd = p.wire("odd", 1, fmt::format("~{}[0]", exp.name));
  const Sig radicand = p.wire("radicand", radicand_bits,
                              fmt::format("{} ? {{{}, {}}} : {{1'b0, {}, {}}}", odd.name, norm.name, constant(prec + 2, 0),
                                          norm.name, constant(prec + 1, 0)));
  const Sig half = p.wire("exp_sum", ew, fmt::format("{} + {} - {}", exp.name, constant(ew, static_cast<uint64_t>(f.bias())),
                                                     zext(odd.name, 1, ew)));
  p.unused(fmt::format("{}[0]", half.name));  // even by construction
  // Its low p + 1 bits are zero: the steps reading only those read constants, and each
  // other pair of bits is its own signal, carried only to the stage of its step.
  std::vector<Sig> pairs(root_bits);  // no name: a pair of zeros
  int lowest = radicand_bits;
  for (int i = 0; i < root_bits; ++i) {
    const int hi = radicand_bits - 1 - 2 * i;
    if (hi < prec + 1) continue;
    pairs[i] = p.wire(fmt::format("pair{}", i), 2, fmt::format("{}[{}:{}]", radicand.name, hi, hi - 1));
    lowest = hi - 1;
  }
  p.unused(fmt::format("{}[{}:0]", radicand.name, lowest - 1));
  const Sig field = p.wire("root_field", ew - 1, fmt::format("{}[{}:1]", half.name, ew - 1));
  const Sig special = p.wire("special", 1, fmt::format("(&{}) | {} | {}", p.at(a.exponent()), p.at(a.is_zero()),
                                                       p.at(a.sign())));
  // NaN propagates; below zero (but -0) is invalid; +inf, +0 and -0 are themselves
  const Sig special_value = p.wire("special_value", f.width(),
                                   fmt::format("{} ? {} : ({} & ~{}) ? {} : {}", p.at(a.is_nan()), a.quieted(p.at(a.sign())),
                                               p.at(a.sign()), p.at(a.is_zero()), narrowed_nan(f, kX86DefaultNaN),
                                               p.at(a_bits)));

  p.next_stage();
  // Step i brings radicand bits 2i, 2i + 1 (from the top) into the remainder and tries the
  // root bit: remainder <= 2 x root, so i + 2 bits hold it after step i.
  Sig r, q;
  for (int i = 0; i < root_bits; ++i) {
    stage_for_step(p, i);
    const std::string pair = pairs[i].name.empty() ? "2'b00" : p.at(pairs[i]);
    const std::string r_in = i == 0 ? fmt::format("{{1'b0, {}}}", pair) : fmt::format("{{{}, {}}}", p.at(r), pair);
    const std::string subtrahend = i == 0 ? "2'b01" : fmt::format("{{{}, 2'b01}}", p.at(q));
    const Sig in = p.wire(fmt::format("rin{}", i), i + 3, r_in);
    const Sig t = p.wire(fmt::format("t{}", i), i + 4,
                         fmt::format("{{1'b0, {}}} - {}", in.name, zext(subtrahend, i + 2, i + 4)));
    p.unused(fmt::format("{}[{}]", t.name, i + 2));
    const std::string fits = fmt::format("~{}[{}]", t.name, i + 3);
    r = p.wire(fmt::format("r{}", i), i + 2,
               fmt::format("{} ? {}[{}:0] : {}[{}:0]", fits, t.name, i + 1, in.name, i + 1));
    q = p.wire(fmt::format("q{}", i), i + 1, i == 0 ? fits : fmt::format("{{{}, {}}}", p.at(q), fits));
  }

  p.next_stage();  // round
  const Normalized n{.sig = q, .sticky = p.wire("remainder_nonzero", 1, fmt::format("|{}", p.at(r))), .field = field};
  const Sig rounded = round_and_pack(p, f, "round", "1'b0", n);
  return p.wire("result", f.width(), fmt::format("{} ? {} : {}", p.at(special), p.at(special_value), rounded.name));
}

}  // namespace hlsgym::rtl::float_detail
