#include <algorithm>
#include <cstdint>
#include <string>

#include "rtl/fixed_point_internal.h"

namespace hlsgym::rtl::fixed {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;
using ir::Shape;

InstrId Builder::splat(ElementType t, int64_t v, const std::vector<int64_t>& dims) {
  const InstrId k = m_.add_constant(c_, ir::Literal::scalar_int(t, v));
  if (dims.empty()) return k;
  return m_.add_instruction(c_, Opcode::kBroadcast, Shape(t, dims), std::span<const InstrId>(&k, 1));
}

InstrId Builder::cast(InstrId x, ElementType t) {
  if (type(x) == t) return x;
  return m_.add_instruction(c_, Opcode::kConvert, Shape(t, m_.shape(x).dims()), std::span<const InstrId>(&x, 1));
}

InstrId Builder::unary(Opcode op, InstrId x) {
  return m_.add_instruction(c_, op, m_.shape(x), std::span<const InstrId>(&x, 1));
}

InstrId Builder::binary(Opcode op, InstrId a, InstrId b) {
  const InstrId ops[] = {a, b};
  return m_.add_instruction(c_, op, m_.shape(a), ops);
}

InstrId Builder::shift_left(InstrId x, int k) {
  if (k <= 0) return x;
  if (k >= container_width(x)) return splat(type(x), 0, m_.shape(x).dims());
  return binary(Opcode::kShiftLeft, x, splat(type(x), k, m_.shape(x).dims()));
}

InstrId Builder::shift_right(InstrId x, int k) {
  if (k <= 0) return x;
  // an arithmetic shift by the width or more leaves only the sign: as by width - 1
  k = std::min(k, container_width(x) - 1);
  return binary(Opcode::kShiftRightArithmetic, x, splat(type(x), k, m_.shape(x).dims()));
}

InstrId Builder::and_const(InstrId x, int64_t mask) { return binary(Opcode::kAnd, x, splat(type(x), mask, m_.shape(x).dims())); }
InstrId Builder::add_const(InstrId x, int64_t k) { return binary(Opcode::kAdd, x, splat(type(x), k, m_.shape(x).dims())); }

InstrId Builder::compare(InstrId a, InstrId b, ir::ComparisonDirection d) {
  const InstrId ops[] = {a, b};
  ir::Attributes attrs;
  attrs.direction = d;
  return m_.add_instruction(c_, Opcode::kCompare, Shape(ElementType::kPred, m_.shape(a).dims()), ops, std::move(attrs));
}

InstrId Builder::select(InstrId p, InstrId a, InstrId b) {
  const InstrId ops[] = {p, a, b};
  return m_.add_instruction(c_, Opcode::kSelect, m_.shape(a), ops);
}

InstrId Builder::truncate_to_integer(Fx x) {
  if (x.frac <= 0) return shift_left(widen(x, x.bits - x.frac).id, -x.frac);
  x = widen(x, std::max(x.bits, std::min(x.frac + 2, 64)));
  const InstrId down = shift_right(x.id, x.frac);  // floor; a negative value with a fraction goes one up
  const auto& dims = m_.shape(x.id).dims();
  const InstrId zero = splat(type(x.id), 0, dims);
  const int64_t mask = x.frac >= 63 ? INT64_MAX : (int64_t{1} << x.frac) - 1;
  const InstrId up = binary(Opcode::kAnd, compare(x.id, zero, ir::ComparisonDirection::kLt),
                            compare(and_const(x.id, mask), zero, ir::ComparisonDirection::kNe));
  return select(up, add_const(down, 1), down);
}

Fx Builder::work(InstrId x, int exact_bits, int frac, const ir::FixedFormat& to) {
  const int shift = frac - to.fraction_bits();
  const int surviving = to.width + std::max(shift, 0) + (shift > 0 && to.rounding != ir::FixedRounding::kTruncate ? 1 : 0);
  Fx r{x, exact_bits, frac, false};
  if (to.overflow == ir::FixedOverflow::kWrap && exact_bits > surviving) {
    r.bits = surviving;
    r.modular = true;
  }
  if (r.bits > 64)
    refuse_("needs a " + std::to_string(exact_bits) + "-bit intermediate on the way to " + ir::to_string(to) +
            " (at most 64 bits; AP_WRAP formats may go further while W plus the dropped fraction bits stay within 64)");
  r.id = cast(x, ir::fixed_container(r.bits));
  return r;
}

Fx Builder::widen(Fx x, int bits) {
  if (bits <= container_width(x.id)) return x;
  if (bits > 64) {
    if (x.modular) return x;
    refuse_("needs a " + std::to_string(bits) + "-bit intermediate (at most 64 bits are supported)");
  }
  x.id = cast(x.id, ir::fixed_container(bits));
  return x;
}

Fx Builder::align(Fx x, int k, const ir::FixedFormat& to) {
  if (k <= 0) return x;
  Fx r = work(x.id, x.bits + k, x.frac + k, to);
  r.modular |= x.modular;
  r.id = shift_left(r.id, k);
  return r;
}

InstrId Builder::fit(const Fx& x, InstrId shifted, int bits) {
  // a modular value is right only modulo its container: its high bits cannot go
  if (x.modular || ir::bit_width(ir::fixed_container(std::max(bits, 1))) >= container_width(shifted)) return shifted;
  return cast(shifted, ir::fixed_container(std::max(bits, 1)));
}

InstrId Builder::round_off(Fx& x, int s, ir::FixedRounding mode, InstrId sticky) {
  using ir::FixedRounding;
  if (mode == FixedRounding::kTruncate) return fit(x, shift_right(x.id, s), x.bits - s);
  if (mode == FixedRounding::kRound) {
    // floor(x / 2^s + 1/2) = ((x >> (s - 1)) + 1) >> 1: the + 1 needs a bit only when s = 1
    if (s == 1) x = widen(x, x.bits + 1);
    return shift_right(add_const(fit(x, shift_right(x.id, s - 1), x.bits - s + 2), 1), 1);
  }
  // ties to even: u = x >> s, guard g = bit s - 1, sticky = any lower bit (or the caller's)
  x = widen(x, std::max(x.bits + 1, s + 2));
  const InstrId t = shift_right(x.id, s - 1);
  const InstrId g = and_const(t, 1);
  const InstrId u = shift_right(t, 1);
  InstrId st = splat(type(x.id), 0, m_.shape(x.id).dims());
  if (s >= 2) {
    const int64_t mask = (int64_t{1} << (s - 1)) - 1;  // (x & mask) + mask reaches 2^(s-1) iff x & mask != 0
    st = shift_right(add_const(and_const(x.id, mask), mask), s - 1);
  }
  if (sticky != ir::kNoId) st = binary(Opcode::kOr, st, cast(sticky, type(x.id)));
  return binary(Opcode::kAdd, u, binary(Opcode::kAnd, g, binary(Opcode::kOr, st, u)));
}

InstrId Builder::narrow(Fx y, const ir::FixedFormat& to) {
  const ElementType d = ir::fixed_container(to.width);
  if (!y.modular && y.bits <= to.width) return cast(y.id, d);
  if (to.overflow == ir::FixedOverflow::kWrap) {
    const InstrId z = cast(y.id, d);
    const int k = ir::bit_width(d) - to.width;
    return shift_right(shift_left(z, k), k);
  }
  const auto& dims = m_.shape(y.id).dims();
  const InstrId ops[] = {splat(type(y.id), ir::fixed_min(to), dims), y.id, splat(type(y.id), ir::fixed_max(to), dims)};
  return cast(m_.add_instruction(c_, Opcode::kClamp, m_.shape(y.id), ops), d);
}

InstrId Builder::rescale(Fx x, const ir::FixedFormat& to, InstrId sticky) {
  const int s = x.frac - to.fraction_bits();
  if (s > 0) {
    x.id = round_off(x, s, to.rounding, sticky);
    x.bits = std::max(1, x.bits - s + 1);
  } else if (s < 0) {
    x = align(x, -s, to);
  }
  x.frac = to.fraction_bits();
  return narrow(x, to);
}

}  // namespace hlsgym::rtl::fixed
