#include "hwmodel/unit_class.h"

#include <array>

namespace hlsgym::hwmodel {
namespace {
constexpr std::array<std::string_view, kUnitClassCount> kNames = {
    "int_alu", "int_mul", "int_div", "fp_alu", "fp_add", "fp_mul",
    "fp_div", "fp_special", "int_mac", "fp_mac", "mem"};
}

std::string_view unit_class_name(UnitClass c) { return kNames[static_cast<size_t>(c)]; }

std::optional<UnitClass> unit_class_from_name(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<UnitClass>(i);
  return std::nullopt;
}

}  // namespace hlsgym::hwmodel
