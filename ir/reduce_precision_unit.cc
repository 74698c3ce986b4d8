#include "ir/reduce_precision_unit.h"

#include <bit>
#include <cmath>
#include <string>

#include "ir/error.h"
#include "ir/float_formats.h"
#include "ir/transcendental_internal.h"

namespace hlsgym::ir {
namespace {

using transcendental::Decoded;
using transcendental::Format;
using V = FxBuilder::V;

constexpr int kF32Fraction = 23, kF32Exponent = 8;

// Round to nearest even at bit `drop` of `bits` (u += half - 1 + lsb; clear below), `width`
// bits; lsb is bit `drop` unless given (a significand's hidden bit stands for f32's lowest
// exponent bit when no fraction bit is kept).
V round_bits(FxBuilder& b, V bits, int drop, int width, V lsb = -1) {
  if (lsb < 0) lsb = b.bit(bits, drop);
  const V sum = b.add(b.add(bits, b.constant(width, (u128{1} << (drop - 1)) - 1), width), lsb, width);
  return b.concat(b.slice(sum, width - 1, drop), b.constant(drop, 0));
}

// f32 and bf16: XLA's algorithm on the bits themselves (bf16 is f32's top half, so
// rounding at f32 bit 23 - m is bf16 bit 7 - m, and the exponent fields are the same).
V build_same_exponent(FxBuilder& b, const Format& f, V x, int e, int m) {
  const int w = f.width();
  if (m < f.f) x = round_bits(b, x, f.f - m, w);
  if (e < kF32Exponent) {
    const u128 rb = (u128{1} << (e - 1)) - 1;
    const V field = b.slice(x, w - 2, f.f);
    const V sign = b.bit(x, w - 1);
    const V over = b.less(b.constant(f.e, 127 + rb), field), under = b.less(field, b.constant(f.e, 128 - rb));
    const V inf = b.concat(sign, b.constant(w - 1, static_cast<u128>(f.max_field()) << f.f));
    const V zero = b.concat(sign, b.constant(w - 1, 0));
    x = b.mux(over, inf, b.mux(under, zero, x));
  }
  return x;
}

// f16: the interpreter's f32 view. x = sig 2^(E - 15 - 10) with sig normalized (a
// subnormal's leading zeros moved into E); round sig to m + 1 bits; the reduced range by E
// (f32's field is E + 112); then back to f16, exact (or infinity past its range).
V build_f16(FxBuilder& b, const Format& f, const Decoded& d, int e, int m) {
  constexpr int kE = 8;  // E in two's complement: -9 .. 32
  const V lz = b.leading_zeros(d.sig);
  V sig = b.shl_var(d.sig, lz, f.p());
  V exp = b.sub(b.resize(d.eexp, kE), b.resize(lz, kE), kE);
  if (m < f.f) {
    // with m = 0 the even bit is the f32 field's lowest, E + 112's: E's
    const V r = round_bits(b, b.resize(sig, f.p() + 1), f.f - m, f.p() + 1, m == 0 ? b.bit(exp, 0) : -1);
    const V carry = b.bit(r, f.p());
    sig = b.mux(carry, b.constant(f.p(), u128{1} << f.f), b.slice(r, f.f, 0));
    exp = b.add(exp, carry, kE);
  }
  V out = b.round_pack(d.sign, sig, exp, b.constant(1, 0), f.e, f.f);
  if (e < kF32Exponent) {
    const u128 rb = (u128{1} << (e - 1)) - 1, offset = 64;  // E + 64 > 0
    const V biased = b.add(exp, b.constant(kE, offset), kE);
    const V over = b.less(b.constant(kE, 15 + rb + offset), biased);      // E + 112 > 127 + rb
    const V under = b.less(biased, b.constant(kE, 16 - rb + offset));     // E + 112 <= 127 - rb
    const V inf = b.concat(d.sign, b.constant(f.width() - 1, static_cast<u128>(f.max_field()) << f.f));
    const V zero = b.concat(d.sign, b.constant(f.width() - 1, 0));
    out = b.mux(over, inf, b.mux(under, zero, out));
  }
  return b.mux(b.or_(d.zero, d.inf), d.bits, out);
}

FxProgram build(const Format& f, int e, int m) {
  FxBuilder b(f.width());
  const Decoded d = transcendental::decode(b, f);
  const V r = f.e == kF32Exponent ? build_same_exponent(b, f, b.input(), e, m) : build_f16(b, f, d, e, m);
  // a NaN as it is (XLA keeps it), +inf with no mantissa bits left
  const V nan = m > 0 ? d.bits : transcendental::infinity(b, f, false);
  return b.finish(b.mux(d.nan, nan, r));
}

void check(int e, int m) {
  if (e < 1 || m < 0) throw Error("reduce-precision: exponent_bits " + std::to_string(e) + " and mantissa_bits " +
                                  std::to_string(m) + " (exponent_bits >= 1, mantissa_bits >= 0)");
}

}  // namespace

uint64_t reduce_precision_bits(ElementType t, uint64_t bits, int e, int m) {
  check(e, m);
  const Format f = transcendental::format_of(t);
  bits &= (uint64_t{1} << f.width()) - 1;
  const double v = float_bits_to_double(t, bits);
  if (std::isnan(v)) return m > 0 ? bits : double_to_float_bits(t, INFINITY);
  uint32_t u = std::bit_cast<uint32_t>(static_cast<float>(v));
  if (m < kF32Fraction) {
    const uint32_t drop = static_cast<uint32_t>(kF32Fraction - m);
    u += (1u << (drop - 1)) - 1 + ((u >> drop) & 1u);
    u &= ~((1u << drop) - 1);
  }
  if (e < kF32Exponent) {
    const uint32_t rb = (1u << (e - 1)) - 1, field = (u >> kF32Fraction) & 0xffu;
    if (field > 127 + rb) u = (u & 0x80000000u) | 0x7f800000u;
    else if (field <= 127 - rb) u &= 0x80000000u;
  }
  return double_to_float_bits(t, std::bit_cast<float>(u));
}

bool reduce_precision_is_identity(ElementType t, int e, int m) {
  return e >= kF32Exponent && m >= transcendental::format_of(t).f;
}

const FxProgram& reduce_precision_program(ElementType t, int e, int m) {
  check(e, m);
  const Format f = transcendental::format_of(t);
  if (reduce_precision_is_identity(t, e, m))
    throw Error("reduce-precision: exponent_bits " + std::to_string(e) + ", mantissa_bits " + std::to_string(m) + " on " +
                std::string(element_type_name(t)) + " is the identity (wiring, no unit)");
  return transcendental::cached_program(
      "reduce_precision e" + std::to_string(e) + "m" + std::to_string(m) + " " + std::string(element_type_name(t)),
      [&] { return build(f, e, m); });
}

uint64_t reduce_precision_unit(ElementType t, int e, int m, uint64_t bits) {
  return transcendental::run_unit(reduce_precision_program(t, e, m), bits);
}

}  // namespace hlsgym::ir
