// --fixed W,I: a float design turned into an integer one in W-bit two's-complement fixed
// point with I integer bits and F = W - I fraction bits (hls4ml's ap_fixed<W,I>, with
// wrap-around instead of saturation and truncation instead of rounding). The quantized
// module is an ordinary integer module: the interpreter runs it, the RTL implements it,
// and the cosimulation compares the two bit for bit; how close it stays to the float
// design is a question about the format, not about the hardware.
//
// Every float element type becomes sW. Ops that are scale-invariant keep their form
// (add, subtract, max, min, negate, abs, compare, select, clamp, data movement, reduce
// with such combiners); the others are rewritten:
//   a * b      -> sW((s2W(a) * s2W(b)) >> F)         (dot and convolution likewise)
//   a / b      -> sW((s2W(a) << F) / s2W(b))
//   int -> flt -> sW(x) << F;   flt -> int -> T(x >> F);   flt -> pred -> x != 0
//   constants  -> round(v * 2^F), saturated;   iota, sign -> their value << F
// Transcendentals, sqrt, power and the like have no fixed-point form here: refused,
// naming the op and its line. W is 8, 16 or 32 (the products need 2W bits).
#pragma once
#include <string>

#include "ir/module.h"

namespace hlsgym::rtl {

struct FixedFormat {
  int width = 16;
  int integer_bits = 8;
  int fraction_bits() const { return width - integer_bits; }
};

// "W,I", e.g. "16,8". Throws hlsgym::Error on anything else.
FixedFormat parse_fixed(const std::string& spec);

// The quantized copy (verified). A module without floats comes back unchanged.
ir::Module quantize(const ir::Module& m, FixedFormat f);

}  // namespace hlsgym::rtl
