// HLO reduce-precision(x, exponent_bits, mantissa_bits) as a float unit: the
// interpreter's definition (ir/evaluate_elementwise.cc calls reduce_precision_bits) and a
// one-stage fixed-point datapath (ir/fixed_point_datapath.h) that the RTL prints, equal
// bit for bit.
//
// The definition is XLA's (its elemental IR emitter and evaluator) on the f32 bits of x
// (f32 itself; bf16 is f32's top half; f16 widened exactly, as the interpreter computes
// f16 in f32):
//   - mantissa_bits < 23: round the bits to nearest even at bit 23 - mantissa_bits
//     (u += half - 1 + lsb; clear the dropped bits): a carry moves into the exponent, the
//     largest finite values round to infinity; an f32 subnormal is rounded on its raw bits;
//   - exponent_bits < 8: an exponent field above 127 + bias' (bias' = 2^(e-1) - 1) gives
//     the signed infinity, one at or below 127 - bias' the signed zero (the reduced type
//     has no subnormals);
//   - a NaN operand is returned as it is, bits and payload (XLA:CPU/GPU keep it), or +inf
//     when mantissa_bits is 0 (XLA's evaluator);
//   - then back to the operand's type: exact (bf16's low half is zero; an f16's rounded
//     value is a multiple of its ulp), but past f16's range it is infinity.
// With exponent_bits >= 8 and mantissa_bits >= the type's fraction bits (bf16 e8m7, the
// only form in the real HLO files) the op is the identity on every bit pattern: wiring,
// no unit, no cost (reduce_precision_is_identity).
#pragma once
#include <cstdint>

#include "ir/element_type.h"
#include "ir/fixed_point_datapath.h"

namespace hlsgym::ir {

// The result bits for operand `bits` of type t (f32, f16, bf16); exponent_bits >= 1,
// mantissa_bits >= 0 (the verifier's range). Throws hlsgym::Error for another type.
uint64_t reduce_precision_bits(ElementType t, uint64_t bits, int exponent_bits, int mantissa_bits);

// Whether reduce-precision(e, m) leaves every value of type t as it is (f32, f16, bf16).
bool reduce_precision_is_identity(ElementType t, int exponent_bits, int mantissa_bits);

// The datapath (built once per type and (e, m), thread-safe; one stage). Throws
// hlsgym::Error for a type without units or an identity (which is wiring, not a unit).
const FxProgram& reduce_precision_program(ElementType t, int exponent_bits, int mantissa_bits);
uint64_t reduce_precision_unit(ElementType t, int exponent_bits, int mantissa_bits, uint64_t bits);

}  // namespace hlsgym::ir
