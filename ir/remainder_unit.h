// Float remainder (HLO `remainder`, C's fmod: x - n y with n = trunc(x / y)) as a unit on
// f32, f16 and bf16: exact, so the interpreter's std::fmod and the unit agree bit for bit
// (NaN results included: tests/ir/remainder_unit_test.cc), a fixed-point datapath
// (ir/fixed_point_datapath.h) that the RTL prints.
//
// The algorithm: both significands normalized (a subnormal's leading zeros moved into its
// exponent), x = mx 2^Ex, y = my 2^Ey (Ex, Ey the exponents of their leading ones). Ex < Ey:
// |x| < |y|, x itself. Else r = mx mod my (one conditional subtraction), then Ex - Ey
// steps of r = 2r, minus my when 2r >= my (restoring division keeping only the
// remainder; the quotient bits are never needed): r = mx 2^(Ex-Ey) mod my < my, and
// the result is r 2^Ey with x's sign, exact (subnormal when small: packed, never
// rounded). The step count varies with the operands, so the pipeline has the largest
// (max field + p - 3: f32 276, bf16 260, f16 39) and a step past Ex - Ey leaves r as it
// is; two steps per stage, as the divider takes two quotient bits.
// Special cases as glibc's fmodf: a NaN operand -> it quieted (x's first); x = +-inf or
// y = +-0 -> the default NaN; y = +-inf or x = +-0 -> x.
#pragma once
#include <cstdint>

#include "ir/element_type.h"
#include "ir/fixed_point_datapath.h"

namespace hlsgym::ir {

// The datapath; its operand is {y, x} (x in the low bits). Built once per type
// (thread-safe); throws hlsgym::Error for a type other than f32, f16, bf16.
const FxProgram& remainder_program(ElementType t);
uint64_t remainder_unit(ElementType t, uint64_t x_bits, uint64_t y_bits);

}  // namespace hlsgym::ir
