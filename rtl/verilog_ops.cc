// Scalar ops as Verilog statements with HLO's integer semantics (README, "Interpreter
// semantics"): wrap-around at the type's width, x / 0 = -1, x % 0 = x,
// INT_MIN / -1 = INT_MIN (and % gives 0), shifts by >= the width give 0 or the sign.
//
// Verilog's signedness rules make mixed expressions treacherous (one unsigned operand
// of ?: turns a signed division into an unsigned one), so every signed operation keeps
// all branches of its ?: signed, and results land in unsigned variables of the exact
// width.
#include "hwmodel/unit_model.h"
#include "rtl/verilog_internal.h"

namespace hlsgym::rtl::verilog_detail {
using ir::ElementType;
using ir::Opcode;

namespace {

bool is_signed(ElementType t) { return ir::is_signed_integral(t); }

std::string cmp_op(ir::ComparisonDirection d) {
  switch (d) {
    case ir::ComparisonDirection::kEq: return "==";
    case ir::ComparisonDirection::kNe: return "!=";
    case ir::ComparisonDirection::kLt: return "<";
    case ir::ComparisonDirection::kLe: return "<=";
    case ir::ComparisonDirection::kGt: return ">";
    case ir::ComparisonDirection::kGe: return ">=";
  }
  return "==";
}

std::string ones(int w) { return fmt::format("{{{}{{1'b1}}}}", w); }
std::string min_signed(int w) { return sized(w, uint64_t{1} << (w - 1)); }

// max/min, signed or not: the condition is self-determined, so the branches may be unsigned.
std::string pick(bool sgn, const std::string& a, const std::string& rel, const std::string& b) {
  if (sgn) return fmt::format("($signed({}) {} $signed({})) ? {} : {}", a, rel, b, a, b);
  return fmt::format("({} {} {}) ? {} : {}", a, rel, b, a, b);
}

std::string divide(bool sgn, int w, const std::string& a, const std::string& b, bool rem) {
  const std::string zero = sized(w, 0);
  if (!sgn) return rem ? fmt::format("({} == {}) ? {} : {} % {}", b, zero, a, a, b)
                       : fmt::format("({} == {}) ? {} : {} / {}", b, zero, ones(w), a, b);
  const std::string overflow = fmt::format("({} == {} && {} == {})", a, min_signed(w), b, ones(w));
  if (rem)
    return fmt::format("({} == {}) ? $signed({}) : {} ? $signed({}) : ($signed({}) % $signed({}))", b, zero, a,
                       overflow, zero, a, b);
  return fmt::format("({} == {}) ? $signed({}) : {} ? $signed({}) : ($signed({}) / $signed({}))", b, zero, ones(w),
                     overflow, min_signed(w), a, b);
}

std::string shift(Opcode op, int w, const std::string& a, const std::string& b) {
  const std::string limit = fmt::format("({} >= {})", b, sized(w, static_cast<uint64_t>(w)));
  // Below the limit only the amount's low log2(w) bits can be set: masked, synthesis
  // builds log2(w) shifter levels, not one per bit of the amount (Yosys: 213 -> 122 LUT for
  // an s32 >>>; scripts/calibrate_shift.sh).
  const std::string amount = (w & (w - 1)) == 0 ? fmt::format("({} & {})", b, sized(w, static_cast<uint64_t>(w - 1))) : b;
  switch (op) {
    case Opcode::kShiftLeft: return fmt::format("{} ? {} : ({} << {})", limit, sized(w, 0), a, amount);
    case Opcode::kShiftRightLogical: return fmt::format("{} ? {} : ({} >> {})", limit, sized(w, 0), a, amount);
    default:
      return fmt::format("{} ? ($signed({}) >>> {}) : ($signed({}) >>> {})", limit, a,
                         sized(bits_for(w - 1), static_cast<uint64_t>(w - 1)), a, amount);
  }
}

std::string helper(Emitter& e, const std::string& kind, int w) {
  const std::string name = fmt::format("hg_{}{}", kind, w);
  if (e.functions.count(name)) return name;
  const std::string one = sized(w, 1);
  std::string body;
  if (kind == "popcount")
    body = fmt::format("    {0} = {1};\n    for (i = 0; i < {2}; i = i + 1)\n      if (x[i]) {0} = {0} + {3};\n",
                       name, sized(w, 0), w, one);
  else
    body = fmt::format("    {0} = {1};\n    found = 1'b0;\n    for (i = {2}; i >= 0; i = i - 1)\n"
                       "      if (x[i]) found = 1'b1;\n      else if (!found) {0} = {0} + {3};\n",
                       name, sized(w, 0), w - 1, one);
  e.functions[name] = fmt::format("  function {}{};\n    input {}x;\n    integer i;\n{}  begin\n{}  end\n  endfunction\n",
                                  range(w), name, range(w), kind == "clz" ? "    reg found;\n" : "", body);
  return name;
}

std::string convert(Emitter& e, const Node& src, const Node& dst, const std::string& a) {
  const int wf = datapath_width(src.type), wt = datapath_width(dst.type);
  if (dst.type == ElementType::kPred) return fmt::format("({} != {})", a, sized(wf, 0));
  if (src.type == ElementType::kPred) return resize(a, 1, false, wt);
  return e.narrow(a, wf, is_signed(src.type), wt);
}

// Both factors are widening integer converts computed inline (hwmodel/chaining.h): their
// values are sign/zero extensions, so a signed product of the extended values is exact
// and synthesis takes the copies back (s16 x s16 -> s32 on one DSP48E1).
bool narrow_product(const Expr& x, const Node& mul) {
  if (!ir::is_integral(mul.type) || mul.type == ElementType::kPred || mul.args.size() != 2) return false;
  const int w = datapath_width(mul.type);
  int widest = 0;
  for (int arg : mul.args) {
    const Node& n = x.nodes[arg];
    ElementType seen = n.type;
    if (n.kind == Node::kOp && n.op == Opcode::kConvert && n.args.size() == 1) {
      const ElementType src = x.nodes[n.args[0]].type;
      if (ir::is_integral(src) && src != ElementType::kPred && datapath_width(src) < w) seen = src;
    }
    widest = std::max(widest, hwmodel::mac_operand_bits(seen, w));
  }
  return hwmodel::mac_multiplier_bits(widest, w) < w;
}

}  // namespace

std::string op_statement(Emitter& e, const Expr& x, int n, const std::string& dst, const std::vector<std::string>& args) {
  const Node& node = x.nodes[n];
  const ElementType t = node.args.empty() ? node.type : x.nodes[node.args[0]].type;
  const int w = datapath_width(t);
  const bool sgn = is_signed(t);
  auto a = [&](size_t k) { return args.at(k); };
  std::string rhs;
  switch (node.op) {
    case Opcode::kAdd: rhs = a(0) + " + " + a(1); ++e.inv.adders; break;
    case Opcode::kSubtract: rhs = a(0) + " - " + a(1); ++e.inv.adders; break;
    case Opcode::kMultiply:
      rhs = narrow_product(x, node) ? fmt::format("$signed({}) * $signed({})", a(0), a(1)) : a(0) + " * " + a(1);
      ++e.inv.multipliers;
      break;
    case Opcode::kDivide: case Opcode::kRemainder: {
      ++e.inv.dividers;
      const bool rem = node.op == Opcode::kRemainder;
      const int m = node.divider_bits;
      if (m <= 0 || m >= w || !sgn) {
        rhs = divide(sgn, w, a(0), a(1), rem);
        break;
      }
      // The operands' ranges fit m bits (hwmodel::divider_bits): the divider is built at m
      // bits into a register of its own (in a w-bit assignment Verilog would extend the
      // operands to w bits first, and synthesis would build the w-bit divider), its result
      // sign-extended; x / 0 = -1, x % 0 = x and no MIN / -1 at m bits keep the semantics.
      e.text.decl(fmt::format("  reg {}{}_dq;", range(m), dst));
      const std::string q = divide(true, m, e.narrow(a(0), w, true, m), e.narrow(a(1), w, true, m), rem);
      return fmt::format("    {0}_dq = {1};\n    {0} = {2};\n", dst, q, resize(dst + "_dq", m, true, w));
    }
    case Opcode::kMaximum: rhs = pick(sgn, a(0), ">", a(1)); break;
    case Opcode::kMinimum: rhs = pick(sgn, a(0), "<", a(1)); break;
    case Opcode::kAnd: rhs = a(0) + " & " + a(1); break;
    case Opcode::kOr: rhs = a(0) + " | " + a(1); break;
    case Opcode::kXor: rhs = a(0) + " ^ " + a(1); break;
    case Opcode::kNot: rhs = "~" + a(0); break;
    case Opcode::kNegate: rhs = sized(w, 0) + " - " + a(0); ++e.inv.adders; break;
    case Opcode::kAbs:
      rhs = sgn ? fmt::format("{}[{}] ? ({} - {}) : {}", a(0), w - 1, sized(w, 0), a(0), a(0)) : a(0);
      break;
    case Opcode::kSign:
      rhs = sgn ? fmt::format("{}[{}] ? {} : ({} != {}) ? {} : {}", a(0), w - 1, ones(w), a(0), sized(w, 0), sized(w, 1),
                              sized(w, 0))
                : fmt::format("({} != {}) ? {} : {}", a(0), sized(w, 0), sized(w, 1), sized(w, 0));
      break;
    case Opcode::kShiftLeft: case Opcode::kShiftRightLogical: case Opcode::kShiftRightArithmetic:
      rhs = shift(node.op, w, a(0), a(1));
      break;
    case Opcode::kCompare: {
      const bool s = sgn && node.direction != ir::ComparisonDirection::kEq && node.direction != ir::ComparisonDirection::kNe;
      rhs = s ? fmt::format("$signed({}) {} $signed({})", a(0), cmp_op(node.direction), a(1))
              : fmt::format("{} {} {}", a(0), cmp_op(node.direction), a(1));
      break;
    }
    case Opcode::kSelect: rhs = fmt::format("{} ? {} : {}", a(0), a(1), a(2)); break;
    case Opcode::kClamp: {  // min(max(x, lo), hi), as the interpreter does
      const int wx = datapath_width(node.type);
      const bool s = is_signed(node.type);
      e.text.decl(fmt::format("  reg {}{}_lo;", range(wx), dst));
      return fmt::format("    {0}_lo = {1};\n    {0} = {2};\n", dst, pick(s, a(1), ">", a(0)),
                         pick(s, dst + "_lo", "<", a(2)));
    }
    case Opcode::kConvert: rhs = convert(e, x.nodes[node.args[0]], node, a(0)); break;
    case Opcode::kBitcastConvert: rhs = a(0); break;
    case Opcode::kPopulationCount: rhs = fmt::format("{}({})", helper(e, "popcount", w), a(0)); break;
    case Opcode::kClz: rhs = fmt::format("{}({})", helper(e, "clz", w), a(0)); break;
    default: throw std::logic_error("op_statement: unexpected op " + std::string(ir::name(node.op)));
  }
  return fmt::format("    {} = {};\n", dst, rhs);
}

}  // namespace hlsgym::rtl::verilog_detail
