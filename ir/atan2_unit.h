// Float atan2(y, x) (HLO `atan2`, C99's atan2 with its special cases) as a unit on f32,
// f16 and bf16: a fixed-point datapath (ir/fixed_point_datapath.h) that the interpreter's
// unit mode (EvalOptions::transcendentals = kUnit) runs and the RTL prints, within 1 ULP
// of the correctly rounded result (hwmodel/README.md, tests/ir/atan2_unit_test.cc).
//
// Range reduction by the ratio of the smaller magnitude to the larger: t = n / d in
// [0, 1] (n = min(|y|, |x|), d = max; significands normalized, restoring division to
// p + 10 quotient bits, two per stage, as the divider), atan(t) = t g(t) with g(t) =
// atan(t) / t in [pi/4, 1] a segment polynomial in t (64 segments f32, 16 f16/bf16).
// x >= 0 and |y| <= |x|: the result is t g(t) itself, the quotient's significand times g
// at the quotient's exponent, so tiny and subnormal results keep full relative precision;
// the other octants are pi/2 - atan(t), pi - atan(t) or pi/2 + atan(t), at least pi/4, in
// fixed point with p + 10 fraction bits. The sign is y's. Special cases as glibc's atan2f:
// a NaN operand -> it quieted (x's first); y = +-0: +-0 for x > 0 or x = +0, +-pi for x < 0
// or x = -0; x = +-0 (y != 0) -> +-pi/2; y = +-inf: +-pi/4 (x = +inf), +-3pi/4 (x = -inf),
// +-pi/2 (x finite); x = +inf -> +-0, x = -inf -> +-pi (y finite); constants rounded as the
// interpreter rounds them (to f32, then to f16 / bf16).
#pragma once
#include <cstdint>

#include "ir/element_type.h"
#include "ir/fixed_point_datapath.h"

namespace hlsgym::ir {

// The datapath; its operand is {x, y} (y in the low bits: HLO atan2(y, x)'s first operand).
// Built once per type (thread-safe); throws hlsgym::Error for a type other than f32, f16, bf16.
const FxProgram& atan2_program(ElementType t);
uint64_t atan2_unit(ElementType t, uint64_t y_bits, uint64_t x_bits);

}  // namespace hlsgym::ir
