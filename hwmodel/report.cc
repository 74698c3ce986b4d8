#include "hwmodel/report.h"
#include "hwmodel/report_tables.h"

#include <fmt/core.h>
#include <fmt/format.h>


namespace hlsgym::hwmodel {

std::string unit_id(const EstimateDetails& d, uint32_t instance) {
  const UnitInstance& u = d.binding.units[instance];
  const std::string& cls = d.problem.resource_names[u.resource];
  return fmt::format("{}.{}", cls, u.index);
}

namespace {

void line(std::string& out, const std::string& s) { (out += s) += '\n'; }

void timing_section(std::string& out, const Target& t, const Estimate& e) {
  line(out, "+ Timing:");
  line(out, fmt::format("    * Clock: {} MHz ({:.2f} ns)", t.clock_mhz, 1e3 / t.clock_mhz));
  line(out, fmt::format("    * Latency: {} cycles = {:.4g} us", e.cycles, e.seconds * 1e6));
  if (t.is_fpga()) {
    const ClockEstimate& c = e.clock;
    if (c.modeled) {
      const double slack = c.slack_ns(t.clock_mhz);
      line(out, fmt::format("    * Critical path: {:.1f} ns, Fmax {:.1f} MHz, slack {:+.1f} ns ({}); {} (nets x{:.3f} at the design's size)",
                            c.critical_ns, c.fmax_mhz(), slack, slack >= 0 ? "meets the clock" : "MISSES the clock",
                            c.path, c.route_factor));
      line(out, fmt::format("    * Time at Fmax: {} cycles x {:.2f} ns = {:.4g} us", e.cycles, c.critical_ns,
                            static_cast<double>(e.cycles) * c.critical_ns * 1e-3));
    } else {
      line(out, fmt::format("    * Critical path: not estimated ({})", c.unmodeled));
    }
    // The emitted RTL (rtl/) runs one invocation at a time: `start` is taken again the
    // clock edge after `done`. The dataflow bound is what overlapping invocations could
    // reach (each unit busy at most II cycles per invocation); it is not built.
    line(out, fmt::format("    * Interval: {} cycles (the RTL takes a new start the cycle after done)", e.cycles + 1));
    line(out, fmt::format("    * Dataflow bound: II {} cycles if invocations overlapped (not built)", e.ii));
  } else {
    line(out, fmt::format("    * Interval: {} cycles (one core)", e.ii));
  }
  std::string note;
  if (e.scheduler == "exact") {
    if (e.schedule_optimal) note = fmt::format(" (proven optimal, {} nodes)", e.schedule_nodes);
    else if (e.schedule_nodes == 0) note = fmt::format(" (over {} tasks, not searched: the list schedule)", kExactMaxTasks);
    else note = fmt::format(" (node limit {} hit: the best schedule found)", e.schedule_nodes);
  }
  line(out, fmt::format("    * Schedule: {}{}", e.scheduler, note));
}

void area_row(std::string& out, const char* name, const Area& a) {
  line(out, fmt::format("    | {:<20}| {:>9.0f} | {:>9.0f} | {:>9.0f} | {:>9.0f} |", name, a.bram18k, a.dsp, a.ff, a.lut));
}

void utilization_section(std::string& out, const Target& t, const Estimate& e) {
  const std::string rule = "    +---------------------+-----------+-----------+-----------+-----------+";
  line(out, "+ Utilization estimates:");
  line(out, rule);
  line(out, fmt::format("    | {:<20}| {:>9} | {:>9} | {:>9} | {:>9} |", "Name", "BRAM_18K", "DSP", "FF", "LUT"));
  line(out, rule);
  if (e.details) {
    const Binding& b = e.details->binding;
    area_row(out, "Functional units", b.unit_area);
    area_row(out, "Multiplexers", b.mux_area);
    area_row(out, "Registers", b.register_area);
    area_row(out, "Memories", b.memory_area);
    area_row(out, "Loop datapaths", e.details->graph.own_datapaths);
    area_row(out, "Control logic", e.control);
    line(out, rule);
  }
  area_row(out, "Total", e.area);
  area_row(out, "Available", {t.resources.dsp, t.resources.lut, t.resources.ff, t.resources.bram18k});
  line(out, rule);
  line(out, fmt::format("    | {:<20}| {:>9.1f} | {:>9.1f} | {:>9.1f} | {:>9.1f} |", "Utilization (%)",
                        100 * e.utilization.bram18k, 100 * e.utilization.dsp, 100 * e.utilization.ff,
                        100 * e.utilization.lut));
  line(out, rule);
  if (!e.control_unmodeled.empty()) line(out, "    ! " + e.control_unmodeled);
  if (!e.fits) line(out, "    ! does not fit: " + e.fit_problem);
}

void energy_section(std::string& out, const Estimate& e) {
  const EnergyBreakdown& en = e.energy;
  const double total = en.total() > 0 ? en.total() : 1;
  line(out, "+ Energy:");
  auto row = [&](const char* n, double v) {
    line(out, fmt::format("    {:<22}{:>14.6g} pJ {:>6.1f}%", n, v, 100 * v / total));
  };
  row("compute", en.compute_pj);
  row("on-chip memory", en.onchip_pj);
  row("DRAM", en.dram_pj);
  row("static", en.static_pj);
  line(out, fmt::format("    {:<22}{:>14.6g} pJ", "total", en.total()));
}

void units_section(std::string& out, const Estimate& e) {
  if (!e.details) return;
  const EstimateDetails& d = *e.details;
  line(out, "+ Units (binding):");
  line(out, fmt::format("    {:<16}{:>7}{:>7}{:>7}{:>14}{:>10}", "instance", "tasks", "lanes", "width", "busy cycles", "mux LUT"));
  for (uint32_t k = 0; k < d.binding.units.size(); ++k) {
    const UnitInstance& u = d.binding.units[k];
    line(out, fmt::format("    {:<16}{:>7}{:>7}{:>7}{:>14}{:>10.0f}", unit_id(d, k), u.tasks, u.lanes, u.width,
                          u.busy_cycles, u.mux_lut));
  }
  size_t regs = 0, brams = 0;
  for (const BufferTrack& tr : d.binding.tracks) (tr.registers ? regs : brams)++;
  line(out, fmt::format("    buffers: {} register tracks, {} BRAM tracks (left-edge), {} bytes in DRAM", regs, brams,
                        d.binding.dram_bytes));
}

}  // namespace

std::string report_text(const ir::Module& m, const Target& t, const Estimate& e) {
  std::string out;
  const std::string bar(72, '=');
  line(out, bar);
  line(out, fmt::format("== hlsgym report: {}", m.name()));
  line(out, bar);
  line(out, fmt::format("* Target: {} -- {}", t.name, t.description));
  line(out, fmt::format("* Tasks: {}, element ops: {}, lanes: {}", e.tasks, e.element_ops, e.lanes));
  if (!e.uncosted_ops.empty() || e.unknown_trip_counts > 0) {
    std::string s;
    for (const auto& [op, n] : e.uncosted_ops) s += fmt::format("{}{} x{}", s.empty() ? "" : ", ", op, n);
    line(out, fmt::format("* Lenient: costed as memory moves: {}; loops with unknown trip count (one trip): {}",
                          s.empty() ? "none" : s, e.unknown_trip_counts));
  }
  line(out, "");
  timing_section(out, t, e);
  line(out, "");
  if (t.is_fpga()) {
    utilization_section(out, t, e);
    line(out, "");
  }
  line(out, fmt::format("+ Memory: peak live {} bytes{}", e.memory_bytes,
                        t.is_fpga() ? fmt::format(", {:.0f} BRAM18K", e.bram18k) : ""));
  line(out, "");
  energy_section(out, e);
  line(out, "");
  units_section(out, e);
  if (t.is_fpga() && e.details) {
    line(out, "");
    out += report_detail::tables_text(m, t, e);
  }
  return out;
}

}  // namespace hlsgym::hwmodel
