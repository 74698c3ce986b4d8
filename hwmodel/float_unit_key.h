// Which IEEE-754 unit (rtl/float_units.h) an op on f32, f16 or bf16 takes on an FPGA, as
// the target's `float_units` table names it: the estimate reads the unit's latency and
// area from that row, and rtl instantiates the unit the same row describes (one source of
// truth: rtl checks that the row's latency is the generated unit's).
#pragma once
#include <optional>
#include <string>

#include "hwmodel/target.h"
#include "ir/attributes.h"
#include "ir/module.h"

namespace hlsgym::hwmodel {

// A row (fadd, fmul, fdiv, fsqrt, fcmp_lt, fcmp_total_lt, fmin, fmax, fabs, fneg,
// fcvt_to_f16, fcvt_to_s32, fcvt_from_u8, fexp, ..., fpowi3 (power by the constant 3), fpow, ffloor,
// fceil, fround_even, fround_afz) and a column (the float format; a
// convert's float side, its source when both sides are float).
struct FloatUnitKey {
  std::string unit;
  ir::ElementType format{};
};

// Whether f32, f16 or bf16 (the formats with units).
bool has_float_unit_format(ir::ElementType t);

// The row and column of `op` on operands of type `from` giving `to` (a convert's types;
// the others take from == to, a compare gives pred), or nullopt when no unit computes it
// (an op without a unit, a format without units, a convert between integers or to itself).
// add and subtract share fadd (its `sub` input); compare needs `direction`, and
// `total_order` for HLO's comparison type TOTALORDER; power needs its constant integer
// exponent (`power_exponent`, ir/integer_power_unit.h: fpowi<n>) or 0 for any other
// exponent (fpow, ir/power_unit.h); reduce-precision its form (freduce_precision_e5m10; an
// identity form is no unit: float_wiring).
std::optional<FloatUnitKey> float_unit_key(ir::Opcode op, ir::ElementType from, ir::ElementType to,
                                           ir::ComparisonDirection direction = ir::ComparisonDirection::kEq,
                                           bool total_order = false, int power_exponent = 0,
                                           int reduce_exponent_bits = 0, int reduce_mantissa_bits = 0);

// Whether instruction i moves float bits as they are, no unit: a select (its predicate
// decides), a bitcast-convert, a reduce-precision whose form keeps every value
// (ir/reduce_precision_unit.h: bf16 e8m7, f32 e8m23, ...).
bool float_wiring(const ir::Module& m, ir::InstrId i);
// Whether instruction i is a reduce-precision of such a form: free (an alias of its operand).
bool identity_reduce_precision(const ir::Module& m, ir::InstrId i);

// Power instruction i's exponent when it is a constant (a splat: every element the same
// literal, hwmodel/chaining.h; in a fused body also a parameter every fusion binds to one
// such constant) integer with a unit on i's type, else nullopt (the general unit, fpow).
std::optional<int> power_exponent(const ir::Module& m, ir::InstrId i);

// The key of instruction `i` (its operand and result types, direction and comparison type).
std::optional<FloatUnitKey> float_unit_key(const ir::Module& m, ir::InstrId i);

// The target's entry for instruction `i` (FPGA targets that list it), or nullptr.
const FloatUnitCost* float_unit_cost(const Target& t, const ir::Module& m, ir::InstrId i);

}  // namespace hlsgym::hwmodel
