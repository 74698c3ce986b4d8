// emit(): schedule and bind with the hardware model, plan, write the Verilog.
#include <cctype>
#include <set>

#include "hwmodel/microarch.h"
#include "rtl/rtl.h"
#include "rtl/verilog_internal.h"

namespace hlsgym::rtl {

std::string module_name_for(const std::string& design) {
  static const std::set<std::string> kKeywords{
      "always", "and", "assign", "begin", "buf", "case", "default", "else", "end", "endcase", "endmodule",
      "for", "function", "if", "initial", "inout", "input", "integer", "module", "nand", "negedge", "nor", "not",
      "or", "output", "parameter", "posedge", "reg", "signed", "task", "wire", "xor", "logic", "bit", "int"};
  std::string s;
  for (char ch : design) s += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
  if (s.empty()) s = "design";
  if (std::isdigit(static_cast<unsigned char>(s[0]))) s = "d_" + s;
  if (kKeywords.count(s)) s += "_top";
  return s;
}

EmittedDesign emit(const ir::Module& m, const hwmodel::Target& t, const EmitOptions& o) {
  check_supported(m);
  hwmodel::EstimateOptions eo = o.estimate;
  eo.keep_details = true;
  EmittedDesign d;
  d.estimate = hwmodel::estimate(m, t, eo);
  d.estimated_cycles = d.estimate.cycles;
  d.module_name = o.module_name.empty() ? module_name_for(m.name()) : o.module_name;
  const Plan plan = make_plan(m, t, d.estimate, d.module_name);
  d.verilog = verilog_detail::emit_verilog(plan, d.inventory);
  d.control = hwmodel::control_inventory(plan);
  d.control_area = d.estimate.control;  // the estimate's area counts it (the same plan)
  for (const TaskPlan& tp : plan.tasks)
    if (tp.split > 1) d.splits[tp.instr] = tp.split;
  for (const Buffer& b : plan.buffers) d.floating |= ir::is_floating(b.type);
  auto info = [](const Port& p) {
    PortInfo i;
    i.port = p.name;
    i.value = p.value;
    i.type = p.type;
    i.elements = p.elements;
    i.scalar = p.scalar;
    i.width = datapath_width(p.type);
    i.addr_bits = verilog_detail::bits_for(p.elements - 1);
    return i;
  };
  for (const Port& p : plan.inputs) d.inputs.push_back(info(p));
  for (const Port& p : plan.outputs) d.outputs.push_back(info(p));
  return d;
}

}  // namespace hlsgym::rtl
