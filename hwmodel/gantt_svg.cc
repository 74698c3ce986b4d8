// gantt_svg: the schedule as an SVG written by hand. Rows are unit instances in binding
// order, then one row for tasks that hold no shared unit but take time (loops and
// branches on their own datapaths). Free tasks (0 cycles) are not drawn.
#include <fmt/core.h>

#include <algorithm>
#include <string>
#include <vector>

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

// Cycles between axis ticks: 1, 2 or 5 x 10^k, about ten ticks over the schedule.
int64_t tick_step(int64_t cycles) {
  int64_t step = 1;
  for (int64_t base = 1; base <= cycles / 10 + 1 && base < (int64_t{1} << 60) / 10; base *= 10)
    for (int64_t f : {1, 2, 5})
      if (cycles / (base * f) >= 5) step = base * f;
  return step;
}

constexpr double kCharWidth = 6.6;  // monospace at font-size 11

// The op name as much as fits in `width` pixels (with an ellipsis), or empty.
std::string fitted_label(const std::string& name, double width) {
  const auto fit = static_cast<size_t>(std::max(0.0, (width - 4) / kCharWidth));
  if (fit >= name.size()) return name;
  if (fit < 3) return "";
  return name.substr(0, fit - 1) + "\u2026";
}

}  // namespace

// Layout: a title, one row per unit instance (then "own datapath"), the time axis
// from cycle 0 to the first tick at or after the schedule's end (so every bar and every
// tick label is inside the picture, however long the schedule), and a legend of the
// unit classes drawn. Bars carry their op's name where it fits and a tooltip always.
std::string gantt_svg(const ir::Module& m, const Estimate& e) {
  constexpr int kRow = 18, kPlot = 1000, kTop = 30, kLegendRow = 18;
  std::string out;
  if (!e.details) return out;
  const EstimateDetails& d = *e.details;
  const size_t unit_rows = d.binding.units.size();
  bool own_row = false;  // loops and branches on their own datapaths
  for (size_t t = 0; t < d.graph.size(); ++t)
    own_row |= d.graph.tasks[t].latency > 0 && d.binding.unit_of_task[t] == kNoInstance;
  const size_t rows = unit_rows + (own_row ? 1 : 0);
  std::vector<std::string> row_labels;
  size_t widest = 12;
  for (size_t r = 0; r < rows; ++r) {
    row_labels.push_back(r < unit_rows ? unit_id(d, static_cast<uint32_t>(r)) : "own datapath");
    widest = std::max(widest, row_labels.back().size());
  }
  const int label_width = static_cast<int>(static_cast<double>(widest) * kCharWidth) + 12;

  const int64_t step = tick_step(std::max<int64_t>(e.cycles, 1));
  const int64_t axis_end = std::max<int64_t>(1, (e.cycles + step - 1) / step) * step;
  const double scale = static_cast<double>(kPlot) / static_cast<double>(axis_end);
  const int right_margin = static_cast<int>(static_cast<double>(fmt::format("{}", axis_end).size()) * kCharWidth / 2) + 16;
  const int width = label_width + kPlot + right_margin;

  // Legend entries: the classes drawn, in the color table's order.
  std::vector<std::string> classes;
  for (size_t t = 0; t < d.graph.size(); ++t) {
    if (d.graph.tasks[t].latency <= 0) continue;
    const uint32_t inst = d.binding.unit_of_task[t];
    const std::string cls = inst == kNoInstance ? "" : d.problem.resource_names[d.binding.units[inst].resource];
    if (std::find(classes.begin(), classes.end(), cls) == classes.end()) classes.push_back(cls);
  }
  std::sort(classes.begin(), classes.end());
  constexpr int kLegendPerLine = 5, kLegendEntry = 200;
  const int legend_lines = static_cast<int>((classes.size() + kLegendPerLine - 1) / kLegendPerLine) + 1;
  const int axis_y = kTop + static_cast<int>(rows) * kRow + 4;
  const int legend_y = axis_y + 40;
  const int height = legend_y + legend_lines * kLegendRow + 8;

  out += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "font-family=\"monospace\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      width, height, width, height);
  out += fmt::format("<text x=\"4\" y=\"16\">{} on {}: {} cycles, schedule {}</text>\n", xml_escape(m.name()),
                     xml_escape(e.target), e.cycles, xml_escape(e.scheduler));
  for (size_t r = 0; r < rows; ++r)
    out += fmt::format("<text class=\"row\" x=\"4\" y=\"{}\">{}</text>\n", kTop + r * kRow + 13, xml_escape(row_labels[r]));
  for (size_t t = 0; t < d.graph.size(); ++t) {
    const Task& k = d.graph.tasks[t];
    if (k.latency <= 0) continue;
    const uint32_t inst = d.binding.unit_of_task[t];
    const size_t row = inst == kNoInstance ? unit_rows : inst;
    const std::string cls = inst == kNoInstance ? "" : d.problem.resource_names[d.binding.units[inst].resource];
    const double x = label_width + static_cast<double>(d.schedule.start[t]) * scale;
    const double w = std::max(0.5, static_cast<double>(k.latency) * scale);
    const double wb = std::max(0.5, static_cast<double>(d.problem.busy[t]) * scale);
    const int y = kTop + static_cast<int>(row) * kRow + 2;
    const std::string name(m.name(k.instr));
    out += fmt::format(
        "<g><title>{} ({}): start {}, latency {}, busy {}</title>"
        "<rect x=\"{:.2f}\" y=\"{}\" width=\"{:.2f}\" height=\"14\" fill=\"{}\" fill-opacity=\"0.35\"/>"
        "<rect x=\"{:.2f}\" y=\"{}\" width=\"{:.2f}\" height=\"14\" fill=\"{}\"/>",
        xml_escape(name), xml_escape(ir::name(m.opcode(k.instr))), d.schedule.start[t], k.latency,
        d.problem.busy[t], x, y, w, class_color(cls), x, y, wb, class_color(cls));
    if (const std::string label = fitted_label(name, w); !label.empty())
      out += fmt::format("<text class=\"bar\" x=\"{:.2f}\" y=\"{}\" fill=\"black\">{}</text>", x + 2, y + 11,
                         xml_escape(label));
    out += "</g>\n";
  }
  // The time axis: a tick every `step` cycles from 0 to axis_end >= the schedule length.
  out += fmt::format("<g class=\"axis\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n", label_width,
                     axis_y, label_width + kPlot, axis_y);
  for (int64_t c = 0; c <= axis_end; c += step) {
    const double x = label_width + static_cast<double>(c) * scale;
    out += fmt::format("<line x1=\"{:.2f}\" y1=\"{}\" x2=\"{:.2f}\" y2=\"{}\" stroke=\"black\"/>"
                       "<text class=\"tick\" x=\"{:.2f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                       x, axis_y, x, axis_y + 4, x, axis_y + 16, c);
  }
  const double end_x = label_width + static_cast<double>(e.cycles) * scale;
  out += fmt::format("<line x1=\"{:.2f}\" y1=\"{}\" x2=\"{:.2f}\" y2=\"{}\" stroke=\"#d62728\" stroke-dasharray=\"3,2\"/>"
                     "<text x=\"{}\" y=\"{}\">cycle (schedule ends at {}, red line)</text></g>\n",
                     end_x, kTop, end_x, axis_y, label_width, axis_y + 30, e.cycles);
  // The legend: one swatch per unit class drawn, then what the two shades mean.
  out += "<g class=\"legend\">\n";
  for (size_t i = 0; i < classes.size(); ++i) {
    const int lx = 4 + static_cast<int>(i % kLegendPerLine) * kLegendEntry;
    const int ly = legend_y + static_cast<int>(i / kLegendPerLine) * kLegendRow;
    const std::string text = classes[i].empty() ? "loop/branch datapath" : classes[i];
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"{}\" y=\"{}\">{}</text>\n",
                       lx, ly, class_color(classes[i]), lx + 16, ly + 10, xml_escape(text));
  }
  const int note_y = legend_y + (legend_lines - 1) * kLegendRow + 10;
  out += fmt::format("<text x=\"4\" y=\"{}\">dark: cycles the unit is busy; light: until the result is ready "
                     "(latency)</text>\n</g>\n</svg>\n", note_y);
  return out;
}

}  // namespace hlsgym::hwmodel
