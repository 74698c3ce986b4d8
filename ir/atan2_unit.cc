#include "ir/atan2_unit.h"

#include <bit>
#include <cmath>
#include <optional>
#include <string>

#include "ir/float_formats.h"
#include "ir/transcendental_internal.h"

namespace hlsgym::ir {
namespace {

using transcendental::Decoded;
using transcendental::Format;
using transcendental::normalize;
using transcendental::Normalized;
using transcendental::Polynomial;
using transcendental::SegmentFn;
using V = FxBuilder::V;

constexpr int kG = Format::kGuard;
constexpr int kExponentBits = 12;  // normalized exponents and their difference, two's complement
constexpr int kStepsPerStage = 2;

int segment_bits(const Format& f) { return f.p() >= 24 ? 6 : 4; }

// A constant as the interpreter gives it: the value rounded to f32, then to the format.
V rounded_constant(FxBuilder& b, const Format& f, long double v) {
  return b.constant(f.width(), double_to_float_bits(f.type, static_cast<float>(v)));
}

FxProgram build_atan2(const Format& f) {
  const int w = f.width(), p = f.p(), K = p + 10, S = segment_bits(f);
  FxBuilder b(2 * w);
  const Decoded y = transcendental::decode(b, f, b.slice(b.input(), w - 1, 0));
  const Decoded x = transcendental::decode(b, f, b.slice(b.input(), 2 * w - 1, w));
  // t = n / d in [0, 1]: the smaller magnitude over the larger
  const V swap = b.less(b.slice(x.bits, w - 2, 0), b.slice(y.bits, w - 2, 0));  // |y| > |x|
  const Normalized ny = normalize(b, f, y, kExponentBits), nx = normalize(b, f, x, kExponentBits);
  const V n_sig = b.mux(swap, nx.sig, ny.sig), d_sig = b.mux(swap, ny.sig, nx.sig);
  const V diff = b.mux(swap, b.sub(nx.exp, ny.exp, kExponentBits), b.sub(ny.exp, nx.exp, kExponentBits));  // <= 0
  // Q = floor(n_sig / d_sig 2^K), K + 1 bits (n_sig / d_sig in (1/2, 2))
  const V den = b.resize(d_sig, p + 1);
  V r = b.resize(n_sig, p + 1), q = b.constant(1, 0);
  for (int i = 0; i <= K; ++i) {
    if (i % kStepsPerStage == 0) b.next_stage();
    const V fits = b.not_(b.less(r, den));
    q = i == 0 ? fits : b.concat(q, fits);
    r = b.shl(b.resize(b.mux(fits, b.sub(r, den, p + 1), r), p), 1);  // r < den: p bits, then doubled
  }
  b.next_stage();
  // t in fixed point, K fraction bits: Q 2^diff (diff <= 0; far below: 0)
  const V t = b.shr_var(q, b.resize(b.sub(b.constant(kExponentBits, 0), diff, kExponentBits), kExponentBits));
  const V index = b.slice(t, K, K - S), position = b.slice(t, K - S - 1, 0);
  const SegmentFn g = [S](int64_t j, long double tt) -> std::optional<long double> {
    if (j > (int64_t{1} << S)) return std::nullopt;  // t <= 1
    const long double v = std::max(std::ldexp(static_cast<long double>(j) + tt, -S), 1e-30L);
    return std::atan(v) / v;
  };
  b.next_stage();
  const int cf = p + kG + S + 1;
  const Polynomial poly = transcendental::segment_polynomial(b, index, position, g, cf, p + kG, "atan2");
  b.next_stage();
  const V g_value = b.slice(poly.value, cf, 0);  // in [pi/4, 1], cf fraction bits
  // x >= 0, |y| <= |x|: Q g 2^(diff - K), its top bit at 2^(1 + diff) (widths K + 1 and cf + 1)
  const V direct_sig = b.mul(q, g_value);
  const V direct_top = b.add(diff, b.constant(kExponentBits, static_cast<u128>(f.bias() + 1)), kExponentBits);
  const V direct = b.round_pack(y.sign, direct_sig, direct_top, b.constant(1, 0), f.e, f.f);
  // the other octants in fixed point, K fraction bits and 2 integer bits
  const int tw = K + 2;
  const V a = b.resize(b.shr(b.mul(t, g_value), cf), tw);  // atan(t) <= pi/4
  auto fixed = [&](long double v) { return b.constant(tw, static_cast<u128>(std::llround(std::ldexp(v, K)))); };
  const long double pi = 3.14159265358979323846264338327950288L;
  const V x_negative = x.sign;
  const V octant = b.mux(x_negative, b.mux(swap, b.add(fixed(pi / 2), a, tw), b.sub(fixed(pi), a, tw)),
                         b.sub(fixed(pi / 2), a, tw));
  const V wide = b.round_pack(y.sign, octant, b.constant(kExponentBits, static_cast<u128>(f.bias() + 1)), b.constant(1, 0),
                              f.e, f.f);
  V out = b.mux(b.or_(x_negative, swap), wide, direct);
  // special cases, the latest deciding first
  auto signed_constant = [&](long double v) { return b.mux(y.sign, rounded_constant(b, f, -v), rounded_constant(b, f, v)); };
  const V y_signed_zero = b.concat(y.sign, b.constant(w - 1, 0));
  out = b.mux(x.inf, b.mux(x_negative, signed_constant(pi), y_signed_zero), out);  // y finite here
  out = b.mux(x.zero, signed_constant(pi / 2), out);
  out = b.mux(y.inf, b.mux(x.inf, b.mux(x_negative, signed_constant(3 * pi / 4), signed_constant(pi / 4)), signed_constant(pi / 2)),
              out);
  out = b.mux(y.zero, b.mux(x_negative, signed_constant(pi), y_signed_zero), out);
  return b.finish(transcendental::with_pair_nan(b, f, x, y, out));
}

}  // namespace

const FxProgram& atan2_program(ElementType t) {
  const Format f = transcendental::format_of(t);
  return transcendental::cached_program("atan2 " + std::string(element_type_name(t)), [&] { return build_atan2(f); });
}

uint64_t atan2_unit(ElementType t, uint64_t y_bits, uint64_t x_bits) {
  return transcendental::run_pair_unit(atan2_program(t), transcendental::format_of(t), y_bits, x_bits);
}

}  // namespace hlsgym::ir
