#include "ir/remainder_unit.h"

#include <string>

#include "ir/transcendental_internal.h"

namespace hlsgym::ir {
namespace {

using transcendental::Decoded;
using transcendental::Format;
using transcendental::normalize;
using transcendental::Normalized;
using V = FxBuilder::V;

constexpr int kExponentBits = 12;  // normalized exponents, two's complement
constexpr int kStepsPerStage = 2;

FxProgram build_remainder(const Format& f) {
  const int w = f.width(), p = f.p();
  FxBuilder b(2 * w);
  const Decoded x = transcendental::decode(b, f, b.slice(b.input(), w - 1, 0));
  const Decoded y = transcendental::decode(b, f, b.slice(b.input(), 2 * w - 1, w));
  const Normalized nx = normalize(b, f, x, kExponentBits), ny = normalize(b, f, y, kExponentBits);
  const V diff = b.sub(nx.exp, ny.exp, kExponentBits);
  const V x_smaller = b.bit(diff, kExponentBits - 1);  // Ex < Ey
  const int steps = f.max_field() + p - 3;              // Ex <= max field - 1, Ey >= 1 - (p - 1)
  const V count = b.resize(diff, fx_bits_for(static_cast<u128>(steps)) + 1);
  const V my = b.resize(ny.sig, p + 1);
  V r = b.resize(nx.sig, p + 1);
  r = b.resize(b.mux(b.less(r, my), r, b.sub(r, my, p + 1)), p);
  for (int i = 0; i < steps; ++i) {
    if (i % kStepsPerStage == 0) b.next_stage();
    const V twice = b.shl(r, 1);  // p + 1 bits
    const V next = b.resize(b.mux(b.less(twice, my), twice, b.sub(twice, my, p + 1)), p);
    r = b.mux(b.less(b.constant(b.width(count), static_cast<u128>(i)), count), next, r);
  }
  b.next_stage();
  const V value = b.round_pack(x.sign, r, ny.exp, b.constant(1, 0), f.e, f.f);  // exact
  V out = b.mux(b.or_(b.or_(y.inf, x.zero), x_smaller), x.bits, value);
  out = b.mux(b.or_(x.inf, y.zero), transcendental::default_nan(b, f), out);
  return b.finish(transcendental::with_pair_nan(b, f, x, y, out));
}

}  // namespace

const FxProgram& remainder_program(ElementType t) {
  const Format f = transcendental::format_of(t);
  return transcendental::cached_program("remainder " + std::string(element_type_name(t)), [&] { return build_remainder(f); });
}

uint64_t remainder_unit(ElementType t, uint64_t x_bits, uint64_t y_bits) {
  return transcendental::run_pair_unit(remainder_program(t), transcendental::format_of(t), x_bits, y_bits);
}

}  // namespace hlsgym::ir
