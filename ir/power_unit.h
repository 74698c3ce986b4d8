// The float power unit for any exponent: x^y on f32, f16 and bf16 as 2^(y log2|x|) in
// extended fixed point (ir/transcendental_pow.cc has the algorithm), the IEEE special
// cases as C99's pow. A constant small integer exponent takes the integer power unit
// instead (ir/integer_power_unit.h); this one is for the rest. Like the transcendental
// units it is a fixed-point datapath the interpreter runs (EvalOptions::transcendentals
// = kUnit) and the RTL prints, so co-simulation compares bit for bit.
#pragma once
#include <cstdint>

#include "ir/element_type.h"
#include "ir/fixed_point_datapath.h"

namespace hlsgym::ir {

// The datapath; its operand is {y, x} (y in the upper half). Built once per type
// (thread-safe); throws hlsgym::Error for a type without a unit.
const FxProgram& power_program(ElementType t);
// x^y as the unit computes it, for the operands' bits.
uint64_t power_unit(ElementType t, uint64_t x_bits, uint64_t y_bits);

}  // namespace hlsgym::ir
