// Bit-exact conversions between the HLO floating-point formats and double/float.
// bf16 and f16 use direct bit manipulation with round-to-nearest-even; the 8- and
// 4-bit formats go through a decoded value table (their 256 values are few).
#pragma once
#include <bit>
#include <cstdint>

#include "ir/element_type.h"

namespace hlsgym::ir {

inline float bf16_to_float(uint16_t b) { return std::bit_cast<float>(uint32_t{b} << 16); }
inline uint16_t float_to_bf16(float f) {
  uint32_t u = std::bit_cast<uint32_t>(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40);  // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(u >> 16);
}

float f16_to_float(uint16_t h);
uint16_t float_to_f16(float f);

// Any real floating type (f16, bf16, f32, f64, f8*, f4*): bits (low bits of the word) <-> value.
double float_bits_to_double(ElementType t, uint64_t bits);
uint64_t double_to_float_bits(ElementType t, double v);

}  // namespace hlsgym::ir
