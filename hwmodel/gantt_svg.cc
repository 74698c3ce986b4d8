// gantt_svg: the schedule as an SVG written by hand. Rows are unit instances in binding
// order, then one row for tasks that hold no shared unit but take time (loops and
// branches on their own datapaths). Free tasks (0 cycles) are not drawn.
#include <fmt/core.h>

#include <algorithm>

#include "hwmodel/report.h"

namespace hlsgym::hwmodel {
namespace {

std::string xml_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// A color per unit class, so the same class reads the same across rows.
const char* class_color(const std::string& cls) {
  static const std::pair<const char*, const char*> kColors[] = {
      {"int_alu", "#4e79a7"}, {"int_mul", "#f28e2b"}, {"int_div", "#e15759"}, {"fp_alu", "#76b7b2"},
      {"fp_add", "#59a14f"},  {"fp_mul", "#edc948"},  {"fp_div", "#b07aa1"},  {"fp_special", "#ff9da7"},
      {"int_mac", "#9c755f"}, {"fp_mac", "#bab0ac"},  {"mem", "#86bcb6"},     {"core", "#4e79a7"}};
  for (const auto& [n, c] : kColors)
    if (cls == n) return c;
  return "#999999";
}

}  // namespace

std::string gantt_svg(const ir::Module& m, const Estimate& e) {
  constexpr int kLabel = 130, kRow = 18, kPlot = 1000, kTop = 30;
  std::string out;
  if (!e.details) return out;
  const EstimateDetails& d = *e.details;
  const size_t unit_rows = d.binding.units.size();
  bool own_row = false;  // loops and branches on their own datapaths
  for (size_t t = 0; t < d.graph.size(); ++t)
    own_row |= d.graph.tasks[t].latency > 0 && d.binding.unit_of_task[t] == kNoInstance;
  const size_t rows = unit_rows + (own_row ? 1 : 0);
  const double scale = e.cycles > 0 ? static_cast<double>(kPlot) / static_cast<double>(e.cycles) : 1.0;
  const int height = kTop + static_cast<int>(rows) * kRow + 30;
  out += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"monospace\" "
      "font-size=\"11\">\n",
      kLabel + kPlot + 20, height);
  out += fmt::format("<text x=\"4\" y=\"16\">{} on {}: {} cycles, schedule {}</text>\n", xml_escape(m.name()),
                     xml_escape(e.target), e.cycles, xml_escape(e.scheduler));
  for (size_t r = 0; r < rows; ++r) {
    const std::string label = r < unit_rows ? unit_id(d, static_cast<uint32_t>(r)) : "own datapath";
    out += fmt::format("<text x=\"4\" y=\"{}\">{}</text>\n", kTop + r * kRow + 13, xml_escape(label));
  }
  for (size_t t = 0; t < d.graph.size(); ++t) {
    const Task& k = d.graph.tasks[t];
    if (k.latency <= 0) continue;
    const uint32_t inst = d.binding.unit_of_task[t];
    const size_t row = inst == kNoInstance ? unit_rows : inst;
    const std::string cls = inst == kNoInstance ? "" : d.problem.resource_names[d.binding.units[inst].resource];
    const double x = kLabel + static_cast<double>(d.schedule.start[t]) * scale;
    const double w = std::max(0.5, static_cast<double>(k.latency) * scale);
    const double wb = std::max(0.5, static_cast<double>(d.problem.busy[t]) * scale);
    const int y = kTop + static_cast<int>(row) * kRow + 2;
    out += fmt::format(
        "<g><title>{} ({}): start {}, latency {}, busy {}</title>"
        "<rect x=\"{:.2f}\" y=\"{}\" width=\"{:.2f}\" height=\"14\" fill=\"{}\" fill-opacity=\"0.35\"/>"
        "<rect x=\"{:.2f}\" y=\"{}\" width=\"{:.2f}\" height=\"14\" fill=\"{}\"/></g>\n",
        xml_escape(m.name(k.instr)), xml_escape(ir::name(m.opcode(k.instr))), d.schedule.start[t], k.latency,
        d.problem.busy[t], x, y, w, class_color(cls), x, y, wb, class_color(cls));
  }
  const int axis_y = kTop + static_cast<int>(rows) * kRow + 14;
  out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n", kLabel, axis_y - 10,
                     kLabel + kPlot, axis_y - 10);
  for (int tick = 0; tick <= 10; ++tick)
    out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>\n", kLabel + tick * kPlot / 10, axis_y + 4,
                       e.cycles * tick / 10);
  out += "</svg>\n";
  return out;
}

}  // namespace hlsgym::hwmodel
