// Float clamp(lo, x, hi) as a unit: exact, the interpreter's semantics (ir/evaluate's
// clamp: NaN when any operand is NaN, else std::min(std::max(x, lo), hi), whose ties keep
// the first operand, so clamp(+0, -0, ...) is -0), a fixed-point datapath like the
// transcendental units (ir/fixed_point_datapath.h) that the RTL prints. One stage: two
// compares of order keys (sign-magnitude made unsigned, -0 and +0 one key) and two muxes.
#pragma once
#include <cstdint>

#include "ir/element_type.h"
#include "ir/fixed_point_datapath.h"

namespace hlsgym::ir {

// The datapath; its operand is {hi, x, lo} (lo in the low bits). Built once per type
// (thread-safe); throws hlsgym::Error for a type other than f32, f16, bf16.
const FxProgram& clamp_program(ElementType t);
uint64_t clamp_unit(ElementType t, uint64_t lo_bits, uint64_t x_bits, uint64_t hi_bits);

}  // namespace hlsgym::ir
