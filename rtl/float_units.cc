#include "rtl/float_units.h"

#include <stdexcept>

#include <fmt/core.h>

#include <map>
#include <mutex>

#include "ir/atan2_unit.h"
#include "ir/clamp_unit.h"
#include "ir/error.h"
#include "ir/integer_power_unit.h"
#include "ir/power_unit.h"
#include "ir/reduce_precision_unit.h"
#include "ir/remainder_unit.h"
#include "rtl/float_unit_builders.h"

namespace hlsgym::rtl {
namespace {

using ir::ElementType;
using float_detail::Pipeline;
using float_detail::Sig;

std::string type_name(ElementType t) { return std::string(ir::element_type_name(t)); }

bool is_int(ElementType t) { return ir::is_integral(t); }

// The reduce-precision forms the target file lists (one unit per form and type): bf16's
// (e8m7), f16's (e5m10; on f16 itself not the identity: the f32 view flushes its
// subnormals) and the 8-bit float formats' (e5m2, e4m3), except an identity (bf16 e8m7).
std::vector<std::pair<int, int>> reduce_precision_catalog_forms(ElementType t) {
  std::vector<std::pair<int, int>> forms;
  for (const auto& [e, m] : {std::pair{8, 7}, std::pair{5, 10}, std::pair{5, 2}, std::pair{4, 3}})
    if (!ir::reduce_precision_is_identity(t, e, m)) forms.emplace_back(e, m);
  return forms;
}

// A convert between a supported float format and a float format or an integer type
// (not to itself: that is no unit).
void check_convert(const FloatUnit& u) {
  const bool from_float = has_float_unit_format(u.type), to_float = has_float_unit_format(u.result_type);
  if ((from_float && to_float && u.type != u.result_type) || (from_float && is_int(u.result_type)) ||
      (is_int(u.type) && to_float))
    return;
  throw Error(fmt::format("float units: no convert from {} to {}", type_name(u.type), type_name(u.result_type)));
}

struct Built {
  std::string verilog;
  int latency = 0;
};

Built build(const FloatUnit& u) {
  using namespace float_detail;
  const FloatUnitPorts ports = float_unit_ports(u);
  Pipeline p(float_unit_name(u));
  const Sig a = p.input("a", ports.operand_bits);
  const Sig b = ports.operands >= 2 ? p.input("b", ports.operand_bits) : Sig{};
  const Sig c = ports.operands == 3 ? p.input("c", ports.operand_bits) : Sig{};
  const Sig sub = ports.sub ? p.input("sub", 1) : Sig{};
  Sig y;
  switch (u.op) {
    case FloatOp::kAdd: y = build_add(p, float_format(u.type), a, b, sub); break;
    case FloatOp::kMultiply: y = build_multiply(p, float_format(u.type), a, b); break;
    case FloatOp::kDivide: y = build_divide(p, float_format(u.type), a, b); break;
    case FloatOp::kSqrt: y = build_sqrt(p, float_format(u.type), a); break;
    case FloatOp::kCompare:
      y = u.total_order ? build_total_order_compare(p, float_format(u.type), u.direction, a, b)
                        : build_compare(p, float_format(u.type), u.direction, a, b);
      break;
    case FloatOp::kMinimum: case FloatOp::kMaximum:
      y = build_min_max(p, float_format(u.type), u.op == FloatOp::kMaximum, a, b);
      break;
    case FloatOp::kAbs: case FloatOp::kNegate:
      y = build_abs_negate(p, float_format(u.type), u.op == FloatOp::kNegate, a);
      break;
    case FloatOp::kConvert:
      if (is_int(u.type)) y = build_int_to_float(p, u.type, float_format(u.result_type), a);
      else if (is_int(u.result_type)) y = build_float_to_int(p, float_format(u.type), u.result_type, a);
      else y = build_float_to_float(p, float_format(u.type), float_format(u.result_type), a);
      break;
    case FloatOp::kPowi: y = build_fx_datapath(p, ir::integer_power_program(u.type, u.exponent), float_format(u.type), a); break;
    case FloatOp::kClamp:  // the datapath's operand is {hi, x, lo}
      y = build_fx_datapath(p, ir::clamp_program(u.type), float_format(u.type),
                            p.wire("cba", 3 * ports.operand_bits, fmt::format("{{{}, {}, {}}}", p.at(c), p.at(b), p.at(a))));
      break;
    case FloatOp::kPow:  // the datapath's operand is {y, x}
      y = build_fx_datapath(p, ir::power_program(u.type), float_format(u.type),
                            p.wire("ba", 2 * ports.operand_bits, fmt::format("{{{}, {}}}", p.at(b), p.at(a))));
      break;
    case FloatOp::kFloor: case FloatOp::kCeil: case FloatOp::kRoundEven: case FloatOp::kRoundAfz:
      y = build_fx_datapath(p, ir::rounding_program(*rounding_of(u.op), u.type), float_format(u.type), a);
      break;
    case FloatOp::kRemainder: case FloatOp::kAtan2:  // the datapath's operand is {b, a}
      y = build_fx_datapath(p, u.op == FloatOp::kRemainder ? ir::remainder_program(u.type) : ir::atan2_program(u.type),
                            float_format(u.type),
                            p.wire("ba", 2 * ports.operand_bits, fmt::format("{{{}, {}}}", p.at(b), p.at(a))));
      break;
    case FloatOp::kReducePrecision:
      y = build_fx_datapath(p, ir::reduce_precision_program(u.type, u.reduce_exponent_bits, u.reduce_mantissa_bits),
                            float_format(u.type), a);
      break;
    default: y = build_transcendental(p, *transcendental_of(u.op), float_format(u.type), a); break;
  }
  p.next_stage();  // every unit's result leaves from a register (the reader's, without result_register)
  const int latency = p.stage();
  if (!u.result_register) {
    Pipeline::Rewind last(p, latency - 1);
    p.output("y", y);
    return {p.module_text(), latency};
  }
  p.output("y", y);
  return {p.module_text(), latency};
}

}  // namespace

static_assert(static_cast<int>(FloatOp::kCos) - static_cast<int>(FloatOp::kExp) == static_cast<int>(ir::TranscendentalOp::kCos) &&
                  static_cast<int>(FloatOp::kLog) - static_cast<int>(FloatOp::kExp) == static_cast<int>(ir::TranscendentalOp::kLog),
              "FloatOp kExp..kCos follow ir::TranscendentalOp's order");

std::optional<ir::TranscendentalOp> transcendental_of(FloatOp op) {
  if (op < FloatOp::kExp || op > FloatOp::kCos) return std::nullopt;
  return static_cast<ir::TranscendentalOp>(static_cast<int>(op) - static_cast<int>(FloatOp::kExp));
}

static_assert(static_cast<int>(FloatOp::kRoundAfz) - static_cast<int>(FloatOp::kFloor) ==
                  static_cast<int>(ir::RoundingOp::kNearestAfz),
              "FloatOp kFloor..kRoundAfz follow ir::RoundingOp's order");

std::optional<ir::RoundingOp> rounding_of(FloatOp op) {
  if (op < FloatOp::kFloor || op > FloatOp::kRoundAfz) return std::nullopt;
  return static_cast<ir::RoundingOp>(static_cast<int>(op) - static_cast<int>(FloatOp::kFloor));
}

FloatFormat float_format(ElementType t) {
  switch (t) {
    case ElementType::kF32: return {t, 8, 23, true};
    case ElementType::kBF16: return {t, 8, 7, true};
    case ElementType::kF16: return {t, 5, 10, false};
    default: throw Error("float units: no unit for element type " + type_name(t) + " (f32, f16 and bf16 have them)");
  }
}

std::string float_op_name(FloatOp op) {
  switch (op) {
    case FloatOp::kAdd: return "fadd";
    case FloatOp::kMultiply: return "fmul";
    case FloatOp::kDivide: return "fdiv";
    case FloatOp::kSqrt: return "fsqrt";
    case FloatOp::kCompare: return "fcmp";
    case FloatOp::kMinimum: return "fmin";
    case FloatOp::kMaximum: return "fmax";
    case FloatOp::kAbs: return "fabs";
    case FloatOp::kNegate: return "fneg";
    case FloatOp::kConvert: return "fcvt";
    case FloatOp::kPowi: return "fpowi";
    case FloatOp::kPow: return "fpow";
    case FloatOp::kClamp: return "fclamp";
    case FloatOp::kReducePrecision: return "freduce_precision";
    case FloatOp::kRemainder: return "frem";
    case FloatOp::kAtan2: return "fatan2";
    case FloatOp::kFloor: case FloatOp::kCeil: case FloatOp::kRoundEven: case FloatOp::kRoundAfz:
      return std::string("f") + ir::rounding_name(*rounding_of(op));
    default: return std::string("f") + ir::transcendental_name(*transcendental_of(op));
  }
  return "?";
}

FloatUnitPorts float_unit_ports(const FloatUnit& u) {
  FloatUnitPorts p;
  if (u.op == FloatOp::kConvert) {
    check_convert(u);
    p.operand_bits = ir::bit_width(u.type);
    p.result_bits = ir::bit_width(u.result_type);
    return p;
  }
  p.operand_bits = float_format(u.type).width();
  p.result_bits = u.op == FloatOp::kCompare ? 1 : p.operand_bits;
  // power's exponent is the unit's own (a constant): x alone
  p.operands = u.op == FloatOp::kClamp ? 3
               : u.op == FloatOp::kSqrt || u.op == FloatOp::kAbs || u.op == FloatOp::kNegate || u.op == FloatOp::kPowi ||
                       u.op == FloatOp::kReducePrecision || transcendental_of(u.op) || rounding_of(u.op)
                   ? 1
                   : 2;
  p.sub = u.op == FloatOp::kAdd;
  return p;
}

std::string float_unit_name(const FloatUnit& u) {
  const std::string chain = u.result_register ? "" : "_chain";
  if (u.op == FloatOp::kConvert) return fmt::format("hg_fcvt_{}_{}{}", type_name(u.type), type_name(u.result_type), chain);
  if (u.op == FloatOp::kCompare || u.op == FloatOp::kPowi || u.op == FloatOp::kReducePrecision)
    return fmt::format("hg_{}_{}{}", float_unit_key(u).unit, type_name(u.type), chain);
  return fmt::format("hg_{}_{}{}", float_op_name(u.op), type_name(u.type), chain);
}

ir::Opcode float_unit_opcode(FloatOp op) {
  switch (op) {
    case FloatOp::kAdd: return ir::Opcode::kAdd;
    case FloatOp::kMultiply: return ir::Opcode::kMultiply;
    case FloatOp::kDivide: return ir::Opcode::kDivide;
    case FloatOp::kSqrt: return ir::Opcode::kSqrt;
    case FloatOp::kCompare: return ir::Opcode::kCompare;
    case FloatOp::kMinimum: return ir::Opcode::kMinimum;
    case FloatOp::kMaximum: return ir::Opcode::kMaximum;
    case FloatOp::kAbs: return ir::Opcode::kAbs;
    case FloatOp::kNegate: return ir::Opcode::kNegate;
    case FloatOp::kConvert: return ir::Opcode::kConvert;
    case FloatOp::kPowi: case FloatOp::kPow: return ir::Opcode::kPower;
    case FloatOp::kFloor: return ir::Opcode::kFloor;
    case FloatOp::kCeil: return ir::Opcode::kCeil;
    case FloatOp::kRoundEven: return ir::Opcode::kRoundNearestEven;
    case FloatOp::kRoundAfz: return ir::Opcode::kRoundNearestAfz;
    case FloatOp::kClamp: return ir::Opcode::kClamp;
    case FloatOp::kReducePrecision: return ir::Opcode::kReducePrecision;
    case FloatOp::kRemainder: return ir::Opcode::kRemainder;
    case FloatOp::kAtan2: return ir::Opcode::kAtan2;
    default: break;
  }
  if (const auto t = transcendental_of(op)) return ir::opcode_of(*t);
  throw std::logic_error("float units: FloatOp " + std::to_string(static_cast<int>(op)) + " has no opcode");
}

std::optional<FloatOp> float_op_of(ir::Opcode op) {
  if (op == ir::Opcode::kSubtract) return FloatOp::kAdd;
  if (op == ir::Opcode::kReducePrecision) return FloatOp::kReducePrecision;  // past kPow, which shares power's opcode
  if (op == ir::Opcode::kRemainder) return FloatOp::kRemainder;
  if (op == ir::Opcode::kAtan2) return FloatOp::kAtan2;
  for (int k = 0; k <= static_cast<int>(FloatOp::kClamp); ++k)  // power: kPowi or kPow by its exponent (the caller's)
    if (float_unit_opcode(static_cast<FloatOp>(k)) == op) return static_cast<FloatOp>(k);
  return std::nullopt;
}

std::vector<FloatUnit> float_unit_catalog() {
  constexpr ElementType kFloats[] = {ElementType::kF32, ElementType::kF16, ElementType::kBF16};
  constexpr ElementType kInts[] = {ElementType::kS8, ElementType::kS16, ElementType::kS32, ElementType::kS64,
                                   ElementType::kU8, ElementType::kU16, ElementType::kU32, ElementType::kU64};
  std::vector<FloatUnit> out;
  for (ElementType t : kFloats) {
    for (FloatOp op : {FloatOp::kAdd, FloatOp::kMultiply, FloatOp::kDivide, FloatOp::kSqrt, FloatOp::kMinimum,
                       FloatOp::kMaximum, FloatOp::kAbs, FloatOp::kNegate, FloatOp::kExp, FloatOp::kLog, FloatOp::kTanh,
                       FloatOp::kLogistic, FloatOp::kRsqrt, FloatOp::kErf, FloatOp::kLog1p, FloatOp::kExpm1,
                       FloatOp::kSin, FloatOp::kCos, FloatOp::kFloor, FloatOp::kCeil,
                       FloatOp::kRoundEven, FloatOp::kRoundAfz, FloatOp::kClamp, FloatOp::kPow, FloatOp::kRemainder, FloatOp::kAtan2})
      out.push_back({op, t});
    for (int n : {2, 3}) {
      FloatUnit u{FloatOp::kPowi, t};
      u.exponent = n;
      out.push_back(u);
    }
    for (const auto& [e, m] : reduce_precision_catalog_forms(t)) {
      FloatUnit u{FloatOp::kReducePrecision, t};
      u.reduce_exponent_bits = e, u.reduce_mantissa_bits = m;
      out.push_back(u);
    }
    for (bool total : {false, true})
      for (int d = 0; d < 6; ++d) out.push_back({FloatOp::kCompare, t, t, static_cast<ir::ComparisonDirection>(d), total});
    for (ElementType to : kFloats)
      if (to != t) out.push_back({FloatOp::kConvert, t, to});
    for (ElementType i : kInts) {
      out.push_back({FloatOp::kConvert, t, i});
      out.push_back({FloatOp::kConvert, i, t});
    }
  }
  return out;
}

FloatUnitKey float_unit_key(const FloatUnit& u) {
  const ElementType to = u.op == FloatOp::kConvert ? u.result_type : u.op == FloatOp::kCompare ? ElementType::kPred : u.type;
  const auto key = hwmodel::float_unit_key(float_unit_opcode(u.op), u.type, to, u.direction, u.total_order, u.exponent,
                                           u.reduce_exponent_bits, u.reduce_mantissa_bits);
  if (!key) throw Error("float units: no unit " + float_unit_name(u) + " in a target's table");
  return *key;
}

int float_unit_latency(const FloatUnit& u) {
  static std::mutex mu;
  static std::map<std::string, int> known;  // building a unit to count its stages takes a while
  const std::string name = float_unit_name(u);
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = known.find(name); it != known.end()) return it->second;
  return known[name] = build(u).latency;
}

std::string float_unit_verilog(const FloatUnit& u) {
  const Built b = build(u);
  return fmt::format("// {}: latency {} cycle{}, one operation per cycle (rtl/float_units.h)\n{}", float_unit_name(u),
                     b.latency, b.latency == 1 ? "" : "s", b.verilog);
}

}  // namespace hlsgym::rtl
