// The float units of floor, ceil, round-nearest-even and round-nearest-afz on f32, f16
// and bf16: pipelined fixed-point datapaths (ir/fixed_point_datapath.h) that the RTL
// prints node by node (rtl/float_transcendental.cc). The results are exact (an integer
// of at most p significant bits is a value of the type), so the unit equals libm's
// floor / ceil / nearbyint / round, which the interpreter uses, bit for bit.
//
// The algorithm: x = sig 2^(E - f) (f fraction bits, E unbiased); d = f - E fraction bits
// go (none when E >= f: x is an integer, returned as it is; at most p + 1, since below
// 1/2 every mode only needs to know x != 0): I = sig >> d, the remainder r = the bits
// shifted out against half = 2^(d - 1); I + 1 when floor and x < 0 and r != 0, ceil and
// x > 0 and r != 0, nearest-even and (r > half or r = half and I odd), nearest-afz and
// r >= half; then I 2^0 packed with x's sign (so ceil(-0.5) = -0 and floor(0.5) = +0, as
// libm gives them). NaN -> the operand quieted (as the other units), +-inf -> +-inf.
#pragma once
#include <cstdint>
#include <optional>

#include "ir/element_type.h"
#include "ir/fixed_point_datapath.h"
#include "ir/opcode.h"

namespace hlsgym::ir {

enum class RoundingOp : uint8_t { kFloor, kCeil, kNearestEven, kNearestAfz };

// floor, ceil, round-nearest-even, round-nearest-afz; nullopt for any other opcode.
std::optional<RoundingOp> rounding_op(Opcode op);
// "floor", "ceil", "round_even", "round_afz".
const char* rounding_name(RoundingOp op);

// The unit's datapath (built once per op and type; thread-safe). Throws hlsgym::Error for
// a type without units (f32, f16 and bf16 have them).
const FxProgram& rounding_program(RoundingOp op, ElementType t);
// The unit's result for the operand's bits.
uint64_t rounding_unit(RoundingOp op, ElementType t, uint64_t bits);

}  // namespace hlsgym::ir
