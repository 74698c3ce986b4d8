#include "ir/round_to_integer_unit.h"

#include <string>

#include "ir/transcendental_internal.h"

namespace hlsgym::ir {
namespace {

using transcendental::Decoded;
using transcendental::Format;
using V = FxBuilder::V;

FxProgram build(RoundingOp op, const Format& f) {
  FxBuilder b(f.width());
  const Decoded d = transcendental::decode(b, f);
  const int p = f.p();
  // dropped fraction bits: d = f - E = bias + f - eexp (two's complement), clamped to
  // [0, p + 1]; d <= 0 (E >= f) keeps x
  const int dw = f.e + 2;
  const V drop = b.sub(b.constant(dw, static_cast<u128>(f.bias() + f.f)), b.resize(d.eexp, dw), dw);
  const V integral = b.or_(b.bit(drop, dw - 1), b.is(drop, 0));  // d <= 0
  const V many = b.not_(b.less(drop, b.constant(dw, static_cast<u128>(p + 2))));
  const V shift = b.resize(b.mux(many, b.constant(dw, static_cast<u128>(p + 1)), drop), fx_bits_for(static_cast<u128>(p + 1)));
  // in units of 1/2 (p + 2 bits, so half = 2^(d - 1) is a bit of the word for d = p + 1):
  // rest = 2 r, twice_half = 2 half
  const V i = b.shr_var(d.sig, shift);  // I
  const V rest = b.sub(b.resize(b.shl(d.sig, 1), p + 2), b.shl_var(b.shl(i, 1), shift, p + 2), p + 2);
  const V twice_half = b.shl_var(b.constant(p + 2, 1), shift, p + 2);
  const V nonzero = b.not_(b.is(rest, 0));
  const V above = b.less(twice_half, rest), tie = b.eq(rest, twice_half);
  V up;
  switch (op) {
    case RoundingOp::kFloor: up = b.and_(d.sign, nonzero); break;
    case RoundingOp::kCeil: up = b.and_(b.not_(d.sign), nonzero); break;
    case RoundingOp::kNearestEven: up = b.or_(above, b.and_(tie, b.bit(i, 0))); break;
    case RoundingOp::kNearestAfz: up = b.or_(above, tie); break;
  }
  b.next_stage();
  const V r = b.add(b.resize(i, p + 1), b.resize(up, p + 1), p + 1);  // at most 2^p
  // r 2^0: bit p stands for 2^p, biased exponent bias + p
  const V rounded = b.round_pack(d.sign, r, b.constant(f.e + 2, static_cast<u128>(f.bias() + p)), b.constant(1, 0), f.e, f.f);
  const V keep = b.or_(integral, b.or_(d.nan, d.inf));
  return b.finish(b.mux(d.nan, transcendental::quiet_nan(b, f), b.mux(keep, b.input(), rounded)));
}

}  // namespace

std::optional<RoundingOp> rounding_op(Opcode op) {
  switch (op) {
    case Opcode::kFloor: return RoundingOp::kFloor;
    case Opcode::kCeil: return RoundingOp::kCeil;
    case Opcode::kRoundNearestEven: return RoundingOp::kNearestEven;
    case Opcode::kRoundNearestAfz: return RoundingOp::kNearestAfz;
    default: return std::nullopt;
  }
}

const char* rounding_name(RoundingOp op) {
  static const char* const kNames[] = {"floor", "ceil", "round_even", "round_afz"};
  return kNames[static_cast<int>(op)];
}

const FxProgram& rounding_program(RoundingOp op, ElementType t) {
  const Format f = transcendental::format_of(t);
  return transcendental::cached_program(std::string(rounding_name(op)) + " " + std::string(element_type_name(t)),
                                        [&] { return build(op, f); });
}

uint64_t rounding_unit(RoundingOp op, ElementType t, uint64_t bits) {
  return transcendental::run_unit(rounding_program(op, t), bits);
}

}  // namespace hlsgym::ir
