// The float unit of power with a constant integer exponent n >= 2 (x^n, as GELU's x^3),
// on f32, f16 and bf16: a pipelined fixed-point datapath (ir/fixed_point_datapath.h) that
// the RTL prints node by node (rtl/float_transcendental.cc) and the interpreter runs in
// its unit mode (EvalOptions::transcendentals = kUnit), so co-simulation is bit exact.
//
// The algorithm: x's significand normalized (subnormals shifted up, the exponent down),
// multiplied by itself n - 1 times exactly (one multiply per stage; the product has n p
// bits, p the precision), its top p + n + 1 bits (the leading one is in the top n) and a
// sticky bit of the rest rounded once to
// nearest even with the exponent n E: the correctly rounded x^n (0 ULP), subnormal results
// exact, overflow to infinity. The sign is x's for odd n, + for even n; pow's special cases
// follow: +-0 -> +-0 (+0 for even n), +-inf -> +-inf (+inf), NaN -> the operand quieted
// (as powf's x + y and the other units give it).
//
// Exact products fit the datapath's 128-bit nodes while n p <= 128: n up to 5 for f32,
// 11 for f16, 16 for bf16. Other exponents (negative, fractional, larger, or not a
// constant) have no unit.
#pragma once
#include <cstdint>
#include <optional>

#include "ir/element_type.h"
#include "ir/fixed_point_datapath.h"

namespace hlsgym::ir {

// The largest n with a unit for t (0 for a type without units).
int max_integer_power_exponent(ElementType t);
// n when y is an integer 2 <= n <= max_integer_power_exponent(t), else nullopt.
std::optional<int> integer_power_exponent(ElementType t, double y);

// The unit's datapath (built once per type and exponent; thread-safe). Throws
// hlsgym::Error for a type or exponent without a unit.
const FxProgram& integer_power_program(ElementType t, int n);
// x^n for the operand's bits.
uint64_t integer_power_unit(ElementType t, int n, uint64_t bits);

}  // namespace hlsgym::ir
