#include "ir/element_type.h"

#include <array>

namespace hlsgym::ir {
namespace {
struct TypeInfo {
  ElementType type;
  std::string_view name;
  int bits;
};
using enum ElementType;
constexpr std::array<TypeInfo, 32> kTypes = {{
    {kInvalid, "invalid", 0},      {kPred, "pred", 8},           {kS2, "s2", 2},
    {kS4, "s4", 4},                {kS8, "s8", 8},               {kS16, "s16", 16},
    {kS32, "s32", 32},             {kS64, "s64", 64},            {kU2, "u2", 2},
    {kU4, "u4", 4},                {kU8, "u8", 8},               {kU16, "u16", 16},
    {kU32, "u32", 32},             {kU64, "u64", 64},            {kF16, "f16", 16},
    {kBF16, "bf16", 16},           {kF32, "f32", 32},            {kF64, "f64", 64},
    {kC64, "c64", 64},             {kC128, "c128", 128},         {kF8E5M2, "f8e5m2", 8},
    {kF8E4M3FN, "f8e4m3fn", 8},    {kF8E4M3B11FNUZ, "f8e4m3b11fnuz", 8},
    {kF8E5M2FNUZ, "f8e5m2fnuz", 8}, {kF8E4M3FNUZ, "f8e4m3fnuz", 8},
    {kF8E4M3, "f8e4m3", 8},        {kF8E3M4, "f8e3m4", 8},       {kF4E2M1FN, "f4e2m1fn", 4},
    {kF8E8M0FNU, "f8e8m0fnu", 8},  {kToken, "token", 0},         {kOpaque, "opaque", 0},
    {kTuple, "tuple", 0},
}};
}  // namespace

std::string_view element_type_name(ElementType t) { return kTypes[static_cast<int>(t)].name; }

std::optional<ElementType> element_type_from_name(std::string_view name) {
  for (const auto& ti : kTypes)
    if (ti.name == name && ti.type != kInvalid && ti.type != kTuple) return ti.type;
  return std::nullopt;
}

int bit_width(ElementType t) { return kTypes[static_cast<int>(t)].bits; }
int byte_width(ElementType t) { return (bit_width(t) + 7) / 8; }

bool is_signed_integral(ElementType t) { return t >= kS2 && t <= kS64; }
bool is_unsigned_integral(ElementType t) { return t >= kU2 && t <= kU64; }
bool is_integral(ElementType t) { return is_signed_integral(t) || is_unsigned_integral(t); }
bool is_complex(ElementType t) { return t == kC64 || t == kC128; }
bool is_floating(ElementType t) {
  return (t >= kF16 && t <= kF64) || (t >= kF8E5M2 && t <= kF8E8M0FNU);
}

}  // namespace hlsgym::ir
