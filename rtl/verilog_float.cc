// IEEE-754 units inside the emitted datapath. A float unit is a pipeline of `latency`
// cycles (rtl/float_units.h); in a design its result leaves its last stage as logic and
// the reader registers it (a pipeline register, an accumulator, a memory write), as an
// integer op's one cycle is the register after its logic. So a task of one float op has
// depth = read + latency, the hardware model's stream depth with the unit's latency
// from the target's float_units table (hwmodel/float_unit_key.h).
#include <algorithm>

#include "ir/error.h"
#include "rtl/verilog_internal.h"

namespace hlsgym::rtl::verilog_detail {
using ir::ElementType;
using ir::Opcode;

std::optional<FloatUnit> node_float_unit(const Expr& x, int n) {
  const Node& node = x.nodes[static_cast<size_t>(n)];
  if (node.kind != Node::kOp || node.args.empty()) return std::nullopt;
  const ElementType from = x.nodes[static_cast<size_t>(node.args[0])].type;
  FloatUnit u;
  u.type = from;
  u.result_type = node.type;
  u.result_register = false;
  if (node.op == Opcode::kConvert) {
    if (!hwmodel::float_unit_key(Opcode::kConvert, from, node.type)) return std::nullopt;
    u.op = FloatOp::kConvert;
    return u;
  }
  if (!has_float_unit_format(from)) return std::nullopt;
  if (node.op == Opcode::kSelect || node.op == Opcode::kBitcastConvert) return std::nullopt;  // wiring
  const auto op = float_op_of(node.op);
  if (!op) throw std::logic_error("rtl: no float unit for " + std::string(ir::name(node.op)) + " (make_plan refuses it)");
  u.op = *op;
  if (u.op == FloatOp::kCompare) u.direction = node.direction, u.total_order = node.total_order;
  if (u.op == FloatOp::kReducePrecision) u.reduce_exponent_bits = node.reduce_exponent_bits, u.reduce_mantissa_bits = node.reduce_mantissa_bits;
  if (u.op == FloatOp::kPowi) {  // a constant small integer exponent, else the general unit
    u.exponent = node.power_exponent;
    if (u.exponent == 0) u.op = FloatOp::kPow;
  }
  return u;
}

bool has_float_unit(const Expr& x) {
  for (size_t n = 0; n < x.nodes.size(); ++n)
    if (node_float_unit(x, static_cast<int>(n))) return true;
  return false;
}

std::string float_instance(Emitter& e, const FloatUnit& u, const std::string& name, const std::string& a,
                           const std::string& b, const std::string& sub, const std::string& c) {
  const std::string module = float_unit_name(u);
  if (!e.float_modules.count(module)) e.float_modules[module] = float_unit_verilog(u);
  const FloatUnitPorts ports = float_unit_ports(u);
  const std::string y = name + "_y";
  e.text.decl(fmt::format("  wire {}{};", range(ports.result_bits), y));
  std::string conn = fmt::format(".clk(clk), .a({})", a);
  if (ports.operands >= 2) conn += fmt::format(", .b({})", b);
  if (ports.operands == 3) conn += fmt::format(", .c({})", c);
  if (ports.sub) conn += fmt::format(", .sub({})", sub);
  e.text.line(fmt::format("  {} {} ({}, .y({}));", module, name, conn, y));
  ++e.inv.float_units;
  return y;
}

std::string Stager::at(const std::string& name, int width, int from, int to) {
  if (to <= from) return name;
  // the task's own delays: a lane's flags and a unit its tasks share are delayed by each
  const std::string base = name.rfind(prefix_ + "_", 0) == 0 ? name : prefix_ + "_" + name;
  int& reached = delayed_.try_emplace(name, from).first->second;
  for (int s = reached + 1; s <= to; ++s) {
    const std::string prev = s == from + 1 ? name : fmt::format("{}_d{}", base, s - 1);
    e_.text.decl(fmt::format("  reg {}{}_d{};", range(width), base, s));
    regs_ += fmt::format("    {}_d{} <= {};\n", base, s, prev);
    e_.inv.pipeline_bits += width;
  }
  reached = std::max(reached, to);
  return fmt::format("{}_d{}", base, to);
}

Stager::Value Stager::evaluate(const Expr& x, const std::function<std::string(int)>& leaf, int leaf_stage) {
  std::vector<Value> v(x.nodes.size());
  std::vector<bool> unit_output(x.nodes.size(), false);
  for (size_t n = 0; n < x.nodes.size(); ++n) {
    const Node& node = x.nodes[n];
    if (node.kind == Node::kLeaf) {
      v[n] = {leaf(node.leaf), leaf_stage};
      continue;
    }
    if (node.kind == Node::kConst) {  // a literal, at every stage
      v[n] = {sized(datapath_width(node.type), node.bits), -1};
      continue;
    }
    const std::optional<FloatUnit> u = node_float_unit(x, static_cast<int>(n));
    int s = leaf_stage;
    for (int a : node.args)  // a unit's operands from registers: a unit's result is taken one stage on
      if (v[a].stage >= 0) s = std::max(s, v[a].stage + (u && unit_output[a] ? 1 : 0));
    std::vector<std::string> args;
    for (int a : node.args)
      args.push_back(v[a].stage < 0 ? v[a].name : at(v[a].name, datapath_width(x.nodes[a].type), v[a].stage, s));
    const std::string name = fmt::format("{}_n{}", prefix_, n);
    if (u) {
      const bool sub = node.op == Opcode::kSubtract;
      const std::string y = units_ ? units_(*u, s, args, sub)
                                   : float_instance(e_, *u, name, args.at(0), args.size() > 1 ? args[1] : "", sub ? "1'b1" : "1'b0",
                                                    args.size() > 2 ? args[2] : "");
      v[n] = {y, s + float_unit_latency(*u) - 1};
      unit_output[n] = true;
      continue;
    }
    e_.text.decl(fmt::format("  reg {}{};", range(datapath_width(node.type)), name));
    logic_ += op_statement(e_, x, static_cast<int>(n), name, args);
    v[n] = {name, s};
  }
  return v.at(static_cast<size_t>(x.root));
}

void Stager::finish() {
  if (!logic_.empty()) e_.text.line(fmt::format("  always @* begin  // {}: logic between float units\n{}  end", prefix_, logic_));
  if (!regs_.empty()) e_.text.line(fmt::format("  always @(posedge clk) begin  // {}: delays\n{}  end", prefix_, regs_));
}

}  // namespace hlsgym::rtl::verilog_detail
