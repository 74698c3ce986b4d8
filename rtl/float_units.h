// IEEE-754 functional units as Verilog modules, bit-exact with ir::evaluate for f32, f16
// and bf16: add/subtract, multiply, divide, square root, compare, minimum/maximum,
// abs/negate, converts float <-> float and integer <-> float, and the transcendentals
// exp, log, tanh, logistic, rsqrt, erf, log1p, expm1, sin, cos (bit-exact with the interpreter's unit mode,
// EvalOptions::transcendentals = kUnit: their algorithms are ir/transcendental_units.h).
//
// Each unit is one self-contained Verilog-2005 module (Yosys reads it without -sv; it is
// clean under `verilator --lint-only -Wall`), pipelined with a fixed latency
// (float_unit_latency) and accepting one operation per cycle. Its ports:
//
//   input  wire clk
//   input  wire [N-1:0] a          the operand (a convert's source)
//   input  wire [N-1:0] b          second operand of add, multiply, divide, compare, min, max,
//                                  power (its exponent)
//   input  wire [N-1:0] c          clamp only: the upper bound (a the lower, b the value)
//   input  wire sub                add only: 1 computes a - b
//   output wire [R-1:0] y          the result, `latency` clock edges after its operands
//
// The semantics are the interpreter's (ir/evaluate_elementwise.cc), which computes f16 and
// bf16 in f32 and rounds with ir/float_formats: round to nearest even everywhere,
// subnormal operands and results exact (no flush), NaN results as x86 SSE makes them and
// the narrowing to f16/bf16 keeps them. hwmodel/README.md ("IEEE-754 float units") has
// the details and the areas.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hwmodel/float_unit_key.h"
#include "ir/attributes.h"
#include "ir/element_type.h"
#include "ir/round_to_integer_unit.h"
#include "ir/transcendental_units.h"

namespace hlsgym::rtl {

// A binary floating-point format: 1 sign bit, exponent_bits, fraction_bits.
struct FloatFormat {
  ir::ElementType type{};
  int exponent_bits = 0, fraction_bits = 0;
  // Whether a NaN result keeps the payload of the NaN it propagates (with the quiet bit
  // set): f32 does (x86) and so does bf16 (ir::float_to_bf16 keeps the top fraction bits
  // of the f32 result); an f16 result goes through ir::float_to_f16, which writes the one
  // quiet NaN with the sign of the f32 NaN.
  bool nan_keeps_payload = true;

  int width() const { return 1 + exponent_bits + fraction_bits; }
  int precision() const { return fraction_bits + 1; }  // significand bits with the hidden one
  int bias() const { return (1 << (exponent_bits - 1)) - 1; }
  int max_exponent_field() const { return (1 << exponent_bits) - 1; }  // inf and NaN
};

// The format of f32, f16 or bf16; throws hlsgym::Error for any other type.
FloatFormat float_format(ir::ElementType t);
// Whether float_format(t) is defined (hwmodel/float_unit_key.h).
using hwmodel::has_float_unit_format;

enum class FloatOp : uint8_t {
  kAdd,       // a + b, or a - b while `sub` is high
  kMultiply,
  kDivide,
  kSqrt,
  kCompare,   // `direction`; IEEE (NaN unordered) or, with total_order, HLO's TOTALORDER
  kMinimum,
  kMaximum,
  kAbs,
  kNegate,
  kConvert,   // `type` -> `result_type`: float -> float, integer -> float, float -> integer
  // Transcendentals: the datapaths of ir/transcendental_units.h (the interpreter's
  // EvalOptions::transcendentals = kUnit computes the same bits)
  kExp, kLog, kTanh, kLogistic, kRsqrt, kErf, kLog1p, kExpm1, kSin, kCos,
  // power by a constant integer exponent (`exponent`): ir/integer_power_unit.h's
  // datapath, x^n correctly rounded
  kPowi,
  // floor, ceil, round-nearest-even, round-nearest-afz: ir/round_to_integer_unit.h's
  // datapaths (exact, as the interpreter's libm)
  kFloor, kCeil, kRoundEven, kRoundAfz,
  // clamp(lo = a, x = b, hi = c): ir/clamp_unit.h's datapath, exact
  kClamp,
  // power by any exponent (operand b): ir/power_unit.h's datapath, within 1 ULP
  kPow,
  // reduce-precision to (reduce_exponent_bits, reduce_mantissa_bits):
  // ir/reduce_precision_unit.h's datapath, exact (an identity form is wiring, no unit)
  kReducePrecision,
  // fmod(x = a, y = b): ir/remainder_unit.h's datapath, exact
  kRemainder,
  // atan2(y = a, x = b): ir/atan2_unit.h's datapath, within 1 ULP
  kAtan2,
};

// The transcendental a FloatOp computes (kExp..kCos, in ir::TranscendentalOp's order).
std::optional<ir::TranscendentalOp> transcendental_of(FloatOp op);
// The rounding a FloatOp computes (kFloor..kRoundAfz, in ir::RoundingOp's order).
std::optional<ir::RoundingOp> rounding_of(FloatOp op);

struct FloatUnit {
  FloatOp op = FloatOp::kAdd;
  ir::ElementType type{};         // the operands' type (a convert's source)
  ir::ElementType result_type{};  // a convert's destination; the others ignore it
  ir::ComparisonDirection direction = ir::ComparisonDirection::kEq;  // compare only
  // compare only: -NaN < -inf < ... < -0 < +0 < ... < inf < NaN by the bits (HLO
  // comparison type TOTALORDER, as sort comparators use it)
  bool total_order = false;
  int exponent = 0;  // kPowi only: n of x^n (2 .. ir::max_integer_power_exponent(type))
  int reduce_exponent_bits = 0, reduce_mantissa_bits = 0;  // kReducePrecision only
  // Whether the result leaves from a register (the unit alone, as tests and calibration
  // build it). A unit inside a design leaves it to the reader: its result is the last
  // stage's logic, taken by the design's next pipeline register or memory write, so the
  // unit's `latency` cycles count that register as an integer op's one cycle counts the
  // register after it (rtl/verilog_float.cc). Module name suffix `_chain`.
  bool result_register = true;
};

// Operand and result widths and which ports a unit has.
struct FloatUnitPorts {
  int operands = 1;        // 1: a; 2: a and b; 3: a, b and c
  bool sub = false;        // the add's subtract control
  int operand_bits = 0;
  int result_bits = 0;
};

FloatUnitPorts float_unit_ports(const FloatUnit& u);
// Clock edges from the operands to the result (the pipeline's depth).
int float_unit_latency(const FloatUnit& u);
// The module's name, e.g. hg_fadd_f32, hg_fcmp_lt_bf16, hg_fcmp_total_lt_f32, hg_fcvt_s32_f16.
std::string float_unit_name(const FloatUnit& u);
// The module. Throws hlsgym::Error for a type or op pair it does not build.
std::string float_unit_verilog(const FloatUnit& u);

// Short names used in module names and target files: "fadd", "fmul", "fdiv", "fsqrt",
// "fcmp", "fmin", "fmax", "fabs", "fneg", "fcvt", "fexp", "flog", "ftanh", "flogistic",
// "frsqrt", "ferf", "flog1p", "fexpm1", "fsin", "fcos", "fpowi" (with its exponent: fpowi3), "ffloor", "fceil", "fround_even",
// "fround_afz", "fclamp", "fpow", "frem", "fatan2", "freduce_precision" (with its form: freduce_precision_e5m10).
std::string float_op_name(FloatOp op);

// Every unit the generator builds: each op (transcendentals included; power by 2 and 3,
// the exponents the target file lists) on f32, f16 and bf16, compares in all six
// directions (IEEE and total order), converts between those three and to and from
// s8..s64 and u8..u64.
std::vector<FloatUnit> float_unit_catalog();

// Where a unit's latency and area sit in a target file's `float_units` table: a row per
// unit (fadd, fcmp_lt, fcmp_total_lt, fcvt_to_f16, fcvt_to_s32, fcvt_from_u64, ...) and a column per
// float format (a convert's float side), as hwmodel::float_unit_key names them.
using hwmodel::FloatUnitKey;
FloatUnitKey float_unit_key(const FloatUnit& u);
// The IR opcode a unit computes (fadd: add, or subtract while `sub` is high).
ir::Opcode float_unit_opcode(FloatOp op);
// The inverse: the unit an HLO opcode takes (subtract the adder's `sub`; a compare's
// direction is the caller's), or nullopt for an opcode without a unit.
std::optional<FloatOp> float_op_of(ir::Opcode op);

}  // namespace hlsgym::rtl
