// A fixed-point number format as hls4ml's ap_fixed<W, I, Q, O> describes it: W total bits
// (two's complement), I of them above the binary point (F = W - I below it; I may be <= 0
// or > W, as ap_fixed allows), the quantization mode Q applied when low bits are dropped
// and the overflow mode O applied when high bits are dropped.
//
// Supported: 2 <= W <= 64, -64 < F < 64; Q in AP_TRN (floor, toward -inf), AP_RND (to
// nearest, ties toward +inf) and AP_RND_CONV (to nearest, ties to even); O in AP_WRAP
// (keep the low W bits) and AP_SAT (clamp to [-2^(W-1), 2^(W-1) - 1]). The other ap_fixed
// modes (AP_TRN_ZERO, AP_RND_ZERO, AP_RND_INF, AP_RND_MIN_INF, AP_SAT_ZERO, AP_SAT_SYM) and
// the fifth parameter (saturation bits) are refused by name.
//
// The exact semantics here (requantize, quantize_real) are the reference the quantized
// IR (rtl/fixed_point.h) is property-tested against.
#pragma once
#include <cstdint>
#include <string>

#include "ir/element_type.h"

namespace hlsgym::ir {

enum class FixedRounding : uint8_t { kTruncate, kRound, kRoundConvergent };
enum class FixedOverflow : uint8_t { kWrap, kSaturate };

struct FixedFormat {
  int width = 16;
  int integer_bits = 8;
  FixedRounding rounding = FixedRounding::kTruncate;
  FixedOverflow overflow = FixedOverflow::kWrap;
  int fraction_bits() const { return width - integer_bits; }
  bool operator==(const FixedFormat&) const = default;
};

// "ap_fixed<W,I>", "ap_fixed<W,I,Q>", "ap_fixed<W,I,Q,O>" (spaces allowed) or the short
// "W,I" (AP_TRN, AP_WRAP). Throws hlsgym::Error naming what is supported otherwise.
FixedFormat parse_fixed_format(const std::string& spec);
// "ap_fixed<W,I,Q,O>", which parse_fixed_format reads back.
std::string to_string(const FixedFormat& f);
// What parse_fixed_format accepts, for messages.
const char* fixed_formats_supported();

// The signed integer type of at least `bits` bits that holds a value (s8, s16, s32, s64);
// kInvalid above 64.
ElementType fixed_container(int bits);

// Exact reference: the integer x standing for x * 2^-from_fraction_bits, put into f
// (rounded by f's mode when bits are dropped, then wrapped or saturated to f.width).
__extension__ typedef __int128 i128;
int64_t requantize(i128 x, int from_fraction_bits, const FixedFormat& f);
// As requantize, with `sticky` saying the exact value lies strictly above x (a quotient's
// non-zero remainder): ties then round up.
int64_t requantize(i128 x, int from_fraction_bits, bool sticky, const FixedFormat& f);
// A real number put into f (NaN is 0; +-inf saturates in every overflow mode; beyond
// +-2^100 counts as that).
int64_t quantize_real(long double v, const FixedFormat& f);
// The real value of the integer x in f.
long double fixed_value(int64_t x, const FixedFormat& f);
// The largest and smallest integers of f.width bits.
int64_t fixed_max(const FixedFormat& f);
int64_t fixed_min(const FixedFormat& f);

}  // namespace hlsgym::ir
