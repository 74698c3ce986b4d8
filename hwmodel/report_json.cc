// report_json: written by hand with fmt, since hwmodel depends on ir, fmt and yaml-cpp only.
#include <fmt/core.h>

#include <cmath>

#include "hwmodel/report.h"
#include "hwmodel/report_tables.h"

namespace hlsgym::hwmodel {
namespace report_detail {

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<int>(c));
        else out += c;
    }
  }
  return out + "\"";
}

std::string num(double v) { return std::isfinite(v) ? fmt::format("{:.10g}", v) : "null"; }

}  // namespace report_detail

namespace {
using report_detail::num;
using report_detail::quote;

std::string area_json(const Area& a) {
  return fmt::format("{{\"dsp\": {}, \"lut\": {}, \"ff\": {}, \"bram18k\": {}}}", num(a.dsp), num(a.lut), num(a.ff),
                     num(a.bram18k));
}

void units_json(std::string& out, const EstimateDetails& d) {
  out += ",\n  \"units\": [";
  for (uint32_t k = 0; k < d.binding.units.size(); ++k) {
    const UnitInstance& u = d.binding.units[k];
    out += fmt::format("{}\n    {{\"id\": {}, \"class\": {}, \"tasks\": {}, \"busy_cycles\": {}, \"lanes\": {}}}",
                       k ? "," : "", quote(unit_id(d, k)), quote(d.problem.resource_names[u.resource]), u.tasks,
                       u.busy_cycles, u.lanes);
  }
  out += "\n  ]";
}

void schedule_json(std::string& out, const ir::Module& m, const EstimateDetails& d, bool free_tasks) {
  out += ",\n  \"schedule\": [";
  bool first = true;
  for (size_t t = 0; t < d.graph.size(); ++t) {
    const Task& k = d.graph.tasks[t];
    if (!free_tasks && k.latency == 0 && k.unit == kNoUnit) continue;
    const uint32_t inst = d.binding.unit_of_task[t];
    std::string deps;
    for (uint32_t p : d.graph.deps_of(t)) deps += (deps.empty() ? "" : ", ") + quote(m.name(d.graph.tasks[p].instr));
    out += fmt::format(
        "{}\n    {{\"name\": {}, \"op\": {}, \"start\": {}, \"latency\": {}, \"busy\": {}, \"unit\": {}, \"deps\": [{}]}}",
        first ? "" : ",", quote(m.name(k.instr)), quote(ir::name(m.opcode(k.instr))), d.schedule.start[t], k.latency,
        d.problem.busy[t], inst == kNoInstance ? "null" : quote(unit_id(d, inst)), deps);
    first = false;
  }
  out += "\n  ]";
}

}  // namespace

std::string report_json(const ir::Module& m, const Target& t, const Estimate& e, bool free_tasks) {
  std::string out = "{\n";
  out += fmt::format("  \"design\": {},\n  \"target\": {},\n  \"scheduler\": {},\n  \"lanes\": {},\n", quote(m.name()),
                     quote(e.target), quote(e.scheduler), e.lanes);
  out += fmt::format("  \"cycles\": {},\n  \"ii\": {},\n  \"seconds\": {},\n  \"memory_bytes\": {},\n", e.cycles, e.ii,
                     num(e.seconds), e.memory_bytes);
  // ii: the dataflow bound (FPGA, not built by the RTL); restart_interval: what the RTL takes.
  out += fmt::format("  \"restart_interval\": {},\n  \"ii_built\": {},\n", t.is_fpga() ? e.cycles + 1 : e.ii,
                     t.is_fpga() ? "false" : "true");
  out += fmt::format("  \"bram18k\": {},\n  \"energy_pj\": {},\n", num(e.bram18k), num(e.energy_pj));
  if (t.is_fpga()) {
    // clock: null numbers when the model cannot price the path (`unmodeled` says why).
    const ClockEstimate& c = e.clock;
    const auto or_null = [&](double v) { return c.modeled ? num(v) : std::string("null"); };
    out += fmt::format(
        "  \"clock\": {{\"target_mhz\": {}, \"critical_path_ns\": {}, \"fmax_mhz\": {}, \"slack_ns\": {}, "
        "\"time_at_fmax_s\": {}, \"critical_path\": {}, \"unmodeled\": {}}},\n",
        num(t.clock_mhz), or_null(c.critical_ns), or_null(c.fmax_mhz()), or_null(c.slack_ns(t.clock_mhz)),
        or_null(static_cast<double>(e.cycles) * c.critical_ns * 1e-9), quote(c.path), quote(c.unmodeled));
  }
  out += fmt::format(
      "  \"energy\": {{\"compute_pj\": {}, \"onchip_pj\": {}, \"dram_pj\": {}, \"static_pj\": {}}},\n",
      num(e.energy.compute_pj), num(e.energy.onchip_pj), num(e.energy.dram_pj), num(e.energy.static_pj));
  out += fmt::format("  \"area\": {},\n  \"utilization\": {},\n", area_json(e.area), area_json(e.utilization));
  if (t.is_fpga())
    out += fmt::format("  \"control\": {},\n  \"control_unmodeled\": {},\n", area_json(e.control), quote(e.control_unmodeled));
  out += fmt::format("  \"fit_problem\": {},\n", quote(e.fit_problem));
  out += fmt::format("  \"fits\": {},\n  \"element_ops\": {},\n  \"tasks\": {},\n  \"schedule_optimal\": {},\n",
                     e.fits ? "true" : "false", e.element_ops, e.tasks, e.schedule_optimal ? "true" : "false");
  std::string uncosted;
  for (const auto& [op, n] : e.uncosted_ops) uncosted += fmt::format("{}{}: {}", uncosted.empty() ? "" : ", ", quote(op), n);
  out += fmt::format("  \"uncosted_ops\": {{{}}},\n  \"unknown_trip_counts\": {}", uncosted, e.unknown_trip_counts);
  if (e.details) {
    units_json(out, *e.details);
    schedule_json(out, m, *e.details, free_tasks);
    if (t.is_fpga()) out += report_detail::tables_json(m, t, e);
  }
  out += "\n}\n";
  return out;
}

}  // namespace hlsgym::hwmodel
