// HLO primitive (element) types: names, bit widths and classes.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace hlsgym::ir {

enum class ElementType : uint8_t {
  kInvalid,
  kPred,
  kS2, kS4, kS8, kS16, kS32, kS64,
  kU2, kU4, kU8, kU16, kU32, kU64,
  kF16, kBF16, kF32, kF64,
  kC64, kC128,
  kF8E5M2, kF8E4M3FN, kF8E4M3B11FNUZ, kF8E5M2FNUZ, kF8E4M3FNUZ, kF8E4M3, kF8E3M4,
  kF4E2M1FN, kF8E8M0FNU,
  kToken, kOpaque,
  kTuple,
};

std::string_view element_type_name(ElementType t);
std::optional<ElementType> element_type_from_name(std::string_view name);

// Bits of one element as HLO defines it (pred is 8 bits in memory, 1 logically).
int bit_width(ElementType t);
// Bytes one element takes in a dense buffer (sub-byte types round up to one byte).
int byte_width(ElementType t);

bool is_integral(ElementType t);  // signed or unsigned integers (not pred)
bool is_signed_integral(ElementType t);
bool is_unsigned_integral(ElementType t);
bool is_floating(ElementType t);  // real floating point, f8/f4 included
bool is_complex(ElementType t);
inline bool is_array_type(ElementType t) {
  return t != ElementType::kInvalid && t != ElementType::kTuple && t != ElementType::kToken &&
         t != ElementType::kOpaque;
}

}  // namespace hlsgym::ir
