#include "ir/clamp_unit.h"

#include <cmath>
#include <string>

#include "ir/transcendental_internal.h"

namespace hlsgym::ir {
namespace {

using transcendental::Decoded;
using transcendental::Format;
using V = FxBuilder::V;

// An unsigned key ordered as the values (not NaN): 2^(w-1) -+ magnitude, one key for +-0.
V order_key(FxBuilder& b, const Format& f, const Decoded& d) {
  const int w = f.width();
  const V magnitude = b.slice(d.bits, w - 2, 0);
  const V middle = b.constant(w + 1, u128{1} << (w - 1));
  return b.mux(d.sign, b.sub(middle, magnitude, w + 1), b.add(middle, magnitude, w + 1));
}

FxProgram build_clamp(const Format& f) {
  const int w = f.width();
  FxBuilder b(3 * w);
  const Decoded lo = transcendental::decode(b, f, b.slice(b.input(), w - 1, 0));
  const Decoded x = transcendental::decode(b, f, b.slice(b.input(), 2 * w - 1, w));
  const Decoded hi = transcendental::decode(b, f, b.slice(b.input(), 3 * w - 1, 2 * w));
  // std::max(x, lo) = x < lo ? lo : x; std::min(m, hi) = hi < m ? hi : m
  const V x_key = order_key(b, f, x), lo_key = order_key(b, f, lo), hi_key = order_key(b, f, hi);
  const V below = b.less(x_key, lo_key);
  const V m = b.mux(below, lo.bits, x.bits), m_key = b.mux(below, lo_key, x_key);
  const V r = b.mux(b.less(hi_key, m_key), hi.bits, m);
  const V nan = b.or_(b.or_(lo.nan, x.nan), hi.nan);
  return b.finish(b.mux(nan, transcendental::float_constant(b, f, NAN), r));
}

}  // namespace

const FxProgram& clamp_program(ElementType t) {
  const Format f = transcendental::format_of(t);
  return transcendental::cached_program("clamp " + std::string(element_type_name(t)), [&] { return build_clamp(f); });
}

uint64_t clamp_unit(ElementType t, uint64_t lo_bits, uint64_t x_bits, uint64_t hi_bits) {
  const int w = transcendental::format_of(t).width();
  const uint64_t m = (uint64_t{1} << w) - 1;
  const u128 operand = (static_cast<u128>(hi_bits & m) << (2 * w)) | (static_cast<u128>(x_bits & m) << w) | (lo_bits & m);
  return static_cast<uint64_t>(run(clamp_program(t), operand));  // 3 w bits: past run_unit's 64
}

}  // namespace hlsgym::ir
