// Functional-unit classes: what kind of hardware an operator task needs. The lowering
// maps every IR op to one class; a target gives each class its latency, area and energy
// (FPGA) or its SIMD throughput (CPU). MAC classes are a multiplier feeding an adder;
// the target derives them from the mul and add entries.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace hlsgym::hwmodel {

enum class UnitClass : uint8_t {
  kIntAlu,      // integer add/sub/compare/min/max/logic/shift/select, int->int convert
  kIntMul,      // integer multiply
  kIntDiv,      // integer divide/remainder/power
  kFpAlu,       // float compare/min/max/abs/negate/clamp/floor/ceil/round
  kFpAdd,       // float add/subtract and any convert touching a float
  kFpMul,       // float multiply
  kFpDiv,       // float divide/remainder/sqrt/rsqrt/cbrt
  kFpSpecial,   // transcendentals: exp, log, tanh, sin, cos, power, erf, logistic, ...
  kIntMac,      // integer multiply-accumulate (dot, convolution)
  kFpMac,       // float multiply-accumulate
  kMem,         // memory move: copy, transpose, slice, concat, pad, broadcast, gather, ...
};
inline constexpr int kUnitClassCount = 11;
// A task that needs no functional unit (free ops, loops that own their datapath).
inline constexpr uint8_t kNoUnit = 0xff;

std::string_view unit_class_name(UnitClass c);
std::optional<UnitClass> unit_class_from_name(std::string_view name);
inline bool is_mac(UnitClass c) { return c == UnitClass::kIntMac || c == UnitClass::kFpMac; }
inline bool is_float_class(UnitClass c) {
  return c == UnitClass::kFpAlu || c == UnitClass::kFpAdd || c == UnitClass::kFpMul ||
         c == UnitClass::kFpDiv || c == UnitClass::kFpSpecial || c == UnitClass::kFpMac;
}

}  // namespace hlsgym::hwmodel
