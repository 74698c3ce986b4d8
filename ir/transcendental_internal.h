// Private to transcendental_*.cc: the pieces the units share -- the float format, the
// operand's fields, |x| in fixed point, and the segment polynomial (tables fit at build
// time, evaluated by Horner's rule in two's complement).
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "ir/element_type.h"
#include "ir/fixed_point_datapath.h"

namespace hlsgym::ir::transcendental {

using V = FxBuilder::V;

struct Format {
  ElementType type{};
  int e = 0, f = 0;  // exponent and fraction bits
  int p() const { return f + 1; }
  int bias() const { return (1 << (e - 1)) - 1; }
  int max_field() const { return (1 << e) - 1; }
  int width() const { return 1 + e + f; }
  // Guard bits the datapaths keep beyond the format's precision.
  static constexpr int kGuard = 6;
};
Format format_of(ElementType t);

struct Decoded {
  V bits;  // the operand
  V sign, field, frac, sig, eexp;  // sig: precision bits with the hidden one; eexp: field, or 1 for subnormals
  V nan, inf, zero;
};
Decoded decode(FxBuilder& b, const Format& f, V bits);
inline Decoded decode(FxBuilder& b, const Format& f) { return decode(b, f, b.input()); }
// The operand NaN as a result: quiet bit set; payload kept (f32, bf16) or not (f16), as
// the other float units and the interpreter's narrowing do.
V quiet_nan(FxBuilder& b, const Format& f, V bits);
inline V quiet_nan(FxBuilder& b, const Format& f) { return quiet_nan(b, f, b.input()); }
// The NaN of an invalid operation (log or rsqrt of a negative): x86's default NaN, narrowed.
V default_nan(FxBuilder& b, const Format& f);
V infinity(FxBuilder& b, const Format& f, bool negative);
// The value of sign / exponent / fraction `bits` as a constant of the format's width.
V float_constant(FxBuilder& b, const Format& f, long double v);
// a xor c, bits of width 1.
inline V xor_(FxBuilder& b, V a, V c) { return b.mux(a, b.not_(c), c); }
// A significand widened to `width` by zeros below: the same value for the same top
// (kRoundPack's sig and top), so significands of different widths can share one rounding.
inline V widen(FxBuilder& b, V sig, int width) {
  return b.width(sig) >= width ? sig : b.concat(sig, b.constant(width - b.width(sig), 0));
}
// e >= k, e unsigned.
V at_least(FxBuilder& b, V e, int64_t k);
// |x| in fixed point, int_bits integer and frac_bits fraction bits, truncated; garbage
// (to be masked) when |x| >= 2^int_bits.
V fixed_magnitude(FxBuilder& b, const Format& f, const Decoded& d, int int_bits, int frac_bits);
// Smallest n >= 0 with 2^n >= x.
int ceil_log2(long double x);

// An operand's significand normalized (p bits, top bit 1 unless the operand is 0: a
// subnormal's leading zeros moved into the exponent) and the exponent field its top bit
// stands for, two's complement of `exponent_bits` (remainder and atan2).
struct Normalized {
  V sig, exp;
};
Normalized normalize(FxBuilder& b, const Format& f, const Decoded& d, int exponent_bits);
// `value`, or when an operand is NaN: `first` quieted when it is NaN, else `second` (x86's
// rule for x + y, which glibc's fmodf and atan2f return).
V with_pair_nan(FxBuilder& b, const Format& f, const Decoded& first, const Decoded& second, V value);
// Program p's result for two operands {high, low} of the format's width.
uint64_t run_pair_unit(const FxProgram& p, const Format& f, uint64_t low_bits, uint64_t high_bits);

// The result when `special` is set (NaN first: the operand quieted), else `value`.
V select_special(FxBuilder& b, const Decoded& d, const Format& f, V special, V special_value, V value);

// exp's core: 2^(+-u log2 e) as a significand res in [1, 2) (`fraction` bits, width
// fraction + 2) and a two's complement exponent k (int_bits + 3 bits). u: |x| with
// int_bits integer and u_fraction fraction bits; negative: x < 0.
struct ExpCore {
  V res, k;
  int fraction = 0;
};
ExpCore exp_core(FxBuilder& b, const Format& f, V negative, V u, int int_bits, int u_fraction);
// 2^(+-z) the same way, z = `scaled` with n_bits integer and p + kGuard fraction bits
// (exp_core is this after its product with log2 e).
ExpCore exp2_core(FxBuilder& b, const Format& f, V negative, V scaled, int n_bits);
// Integer bits of |x| beyond which exp over- or underflows in every case.
int exp_int_bits(const Format& f);

// A significand and the biased exponent its top bit stands for (kRoundPack's sig and top).
struct Scaled {
  V sig, top;
};
// x (f(x) / x) for |x| < 1/2 (garbage above, for the caller to mask): g(x) = f(x) / x in
// (0, 2) there, a polynomial in |x| (a table set per sign; one when g is even), times x's
// own significand, so tiny and subnormal x keep full relative precision.
Scaled times_own_significand(FxBuilder& b, const Format& f, const Decoded& d, long double (*g)(long double), bool even,
                             const char* what);

// The units of transcendental_near_zero.cc and transcendental_sin_cos.cc.
FxProgram build_log1p(const Format& f);
FxProgram build_expm1(const Format& f);
FxProgram build_sin_cos(const Format& f, bool cosine);
// transcendental_pow.cc: x^y, operand bits {y, x} (y above)
FxProgram build_pow(const Format& f);

// The datapath named `name` (e.g. "exp f32", "powi3 bf16"), built by `build` on first use
// and kept (thread-safe); each unit's *_program function is this with its own name.
const FxProgram& cached_program(const std::string& name, const std::function<FxProgram()>& build);
// Program p's result for the operand bits (bits beyond its input width dropped).
uint64_t run_unit(const FxProgram& p, uint64_t bits);

// The function on segment j at position t in [0, 1] (t = 0 the segment's start);
// nullopt when no operand reaches segment j.
using SegmentFn = std::function<std::optional<long double>(int64_t j, long double t)>;
struct Polynomial {
  V value;     // two's complement, `fraction` fraction bits, width fraction + 3
  int fraction = 0;
  int degree = 0;
};
// poly_index(t): one table per coefficient (indexed by `index`), Horner's rule with one
// multiply per stage. Each segment's polynomial is the smallest degree whose error,
// with its coefficients rounded, is below 2^-target_bits relative to the function's
// smallest magnitude on the segment; throws std::logic_error when degree 7 cannot.
Polynomial segment_polynomial(FxBuilder& b, V index, V t, const SegmentFn& g, int fraction, int target_bits,
                              const char* what);

}  // namespace hlsgym::ir::transcendental
