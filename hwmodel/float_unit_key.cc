#include "hwmodel/float_unit_key.h"

#include <fmt/core.h>

#include "hwmodel/chaining.h"
#include "ir/float_formats.h"
#include "ir/integer_power_unit.h"
#include "ir/reduce_precision_unit.h"
#include "ir/round_to_integer_unit.h"
#include "ir/transcendental_units.h"

namespace hlsgym::hwmodel {
using ir::ElementType;
using ir::Opcode;

namespace {

std::string type_name(ElementType t) { return std::string(ir::element_type_name(t)); }

std::string direction_name(ir::ComparisonDirection d) {
  static const char* const kNames[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  return kNames[static_cast<int>(d)];
}

bool integer(ElementType t) { return ir::is_integral(t) && t != ElementType::kPred; }

}  // namespace

bool has_float_unit_format(ElementType t) {
  return t == ElementType::kF32 || t == ElementType::kF16 || t == ElementType::kBF16;
}

std::optional<FloatUnitKey> float_unit_key(Opcode op, ElementType from, ElementType to, ir::ComparisonDirection direction,
                                           bool total_order, int power_exponent, int reduce_exponent_bits,
                                           int reduce_mantissa_bits) {
  if (op == Opcode::kConvert) {
    const bool ff = has_float_unit_format(from), tf = has_float_unit_format(to);
    if (ff && tf && from != to) return FloatUnitKey{"fcvt_to_" + type_name(to), from};
    if (ff && integer(to)) return FloatUnitKey{"fcvt_to_" + type_name(to), from};
    if (integer(from) && tf) return FloatUnitKey{"fcvt_from_" + type_name(from), to};
    return std::nullopt;
  }
  if (!has_float_unit_format(from)) return std::nullopt;
  if (const auto t = ir::transcendental_op(op)) return FloatUnitKey{std::string("f") + ir::transcendental_name(*t), from};
  if (const auto r = ir::rounding_op(op)) return FloatUnitKey{std::string("f") + ir::rounding_name(*r), from};
  switch (op) {
    case Opcode::kAdd: case Opcode::kSubtract: return FloatUnitKey{"fadd", from};
    case Opcode::kMultiply: return FloatUnitKey{"fmul", from};
    case Opcode::kDivide: return FloatUnitKey{"fdiv", from};
    case Opcode::kRemainder: return FloatUnitKey{"frem", from};
    case Opcode::kAtan2: return FloatUnitKey{"fatan2", from};
    case Opcode::kSqrt: return FloatUnitKey{"fsqrt", from};
    case Opcode::kMinimum: return FloatUnitKey{"fmin", from};
    case Opcode::kMaximum: return FloatUnitKey{"fmax", from};
    case Opcode::kClamp: return FloatUnitKey{"fclamp", from};
    case Opcode::kAbs: return FloatUnitKey{"fabs", from};
    case Opcode::kNegate: return FloatUnitKey{"fneg", from};
    case Opcode::kPower:  // a constant small integer exponent: fpowi<n>; any other: fpow
      if (power_exponent == 0) return FloatUnitKey{"fpow", from};
      if (!ir::integer_power_exponent(from, power_exponent)) return std::nullopt;
      return FloatUnitKey{"fpowi" + std::to_string(power_exponent), from};
    case Opcode::kReducePrecision:
      if (reduce_exponent_bits < 1 || reduce_mantissa_bits < 0 ||
          ir::reduce_precision_is_identity(from, reduce_exponent_bits, reduce_mantissa_bits))
        return std::nullopt;
      return FloatUnitKey{fmt::format("freduce_precision_e{}m{}", reduce_exponent_bits, reduce_mantissa_bits), from};
    case Opcode::kCompare:
      return FloatUnitKey{(total_order ? "fcmp_total_" : "fcmp_") + direction_name(direction), from};
    default: return std::nullopt;
  }
}

namespace {

// The splat constant v is, also when v is (a value mapping of) a fused computation's
// parameter whose every fusion binds it to one splat constant outside.
std::optional<uint64_t> bound_splat_constant(const ir::Module& m, ir::InstrId v, int depth) {
  if (const std::optional<uint64_t> bits = splat_constant(m, v)) return bits;
  ir::InstrId p = v;
  for (int d = 0; d < 64 && m.opcode(p) != Opcode::kParameter; ++d) {
    if (!value_mapping(m.opcode(p)) || m.operands(p).size() != 1) return std::nullopt;
    p = m.operand(p, 0);
  }
  if (m.opcode(p) != Opcode::kParameter || depth > 8) return std::nullopt;
  const ir::CompId body = m.computation_of(p);
  if (body == m.entry()) return std::nullopt;
  const auto k = static_cast<size_t>(m.attrs(p).parameter_number);
  std::optional<uint64_t> bound;
  for (ir::InstrId j = 0; j < m.instruction_slots(); ++j) {
    if (!m.is_live(j) || m.called(j).empty() || m.called(j)[0] != body) continue;
    if (m.opcode(j) != Opcode::kFusion || k >= m.operands(j).size()) return std::nullopt;  // a call, map, ...
    const std::optional<uint64_t> here = bound_splat_constant(m, m.operand(j, k), depth + 1);
    if (!here || (bound && *bound != *here)) return std::nullopt;
    bound = here;
  }
  return bound;
}

}  // namespace

std::optional<int> power_exponent(const ir::Module& m, ir::InstrId i) {
  if (m.opcode(i) != Opcode::kPower || !m.shape(i).is_array()) return std::nullopt;
  const std::optional<uint64_t> bits = bound_splat_constant(m, m.operand(i, 1), 0);
  const ElementType t = m.shape(i).element_type();
  if (!bits || !ir::is_floating(t)) return std::nullopt;
  return ir::integer_power_exponent(t, ir::float_bits_to_double(t, *bits));
}

std::optional<FloatUnitKey> float_unit_key(const ir::Module& m, ir::InstrId i) {
  const auto ops = m.operands(i);
  if (ops.empty() || !m.shape(i).is_array() || !m.shape(ops[0]).is_array()) return std::nullopt;
  const ir::Attributes& a = m.attrs(i);
  return float_unit_key(m.opcode(i), m.shape(ops[0]).element_type(), m.shape(i).element_type(),
                        a.direction.value_or(ir::ComparisonDirection::kEq), a.comparison_type == "TOTALORDER",
                        power_exponent(m, i).value_or(0), static_cast<int>(a.exponent_bits), static_cast<int>(a.mantissa_bits));
}

bool float_wiring(const ir::Module& m, ir::InstrId i) {
  const Opcode o = m.opcode(i);
  return o == Opcode::kSelect || o == Opcode::kBitcastConvert || identity_reduce_precision(m, i);
}

bool identity_reduce_precision(const ir::Module& m, ir::InstrId i) {
  if (m.opcode(i) != Opcode::kReducePrecision || m.operands(i).size() != 1 || !m.shape(i).is_array()) return false;
  const ElementType t = m.shape(i).element_type();
  return has_float_unit_format(t) && ir::reduce_precision_is_identity(t, static_cast<int>(m.attrs(i).exponent_bits),
                                                                      static_cast<int>(m.attrs(i).mantissa_bits));
}

const FloatUnitCost* float_unit_cost(const Target& t, const ir::Module& m, ir::InstrId i) {
  if (!t.is_fpga() || t.float_units.empty()) return nullptr;
  const auto key = float_unit_key(m, i);
  return key ? t.float_unit(key->unit, key->format) : nullptr;
}

}  // namespace hlsgym::hwmodel
