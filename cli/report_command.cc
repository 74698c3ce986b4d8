// hlsgym report DESIGN [--target T] [--schedule asap|alap|list|exact] [--lanes N]
//   [--units CLASS=N,...] [--lenient] [--fixed SPEC] [--json] [--gantt FILE.svg]:
// schedule, bind and estimate a design on a hardware target; an HLS-style report.
#include <fmt/core.h>

#include <fstream>
#include <map>

#include "cli/commands.h"
#include "cli/fixed_option.h"
#include "cli/targets.h"
#include "frontend/load.h"
#include "hwmodel/estimate.h"
#include "hwmodel/report.h"
#include "hwmodel/target.h"
#include "ir/error.h"

namespace hlsgym::cli {
namespace {

struct ReportFlags {
  std::string design, target, schedule = "list", gantt, units, fixed;
  int lanes = 0;
  int64_t node_limit = hwmodel::kDefaultExactNodeLimit;
  bool json = false, lenient = false, no_pipeline = false;
};

std::map<std::string, int> parse_units(const std::string& spec) {
  std::map<std::string, int> out;
  size_t pos = 0;
  while (pos < spec.size()) {
    size_t end = spec.find(',', pos);
    if (end == std::string::npos) end = spec.size();
    const std::string item = spec.substr(pos, end - pos);
    const size_t eq = item.find('=');
    int n = 0;
    try {
      if (eq == std::string::npos) throw std::invalid_argument(item);
      size_t used = 0;
      n = std::stoi(item.substr(eq + 1), &used);
      if (used != item.size() - eq - 1) throw std::invalid_argument(item);
    } catch (const std::exception&) {
      throw Error("--units: expected CLASS=N[,CLASS=N...], e.g. fp_mul=2,mem=4; got '" + item + "'");
    }
    out[item.substr(0, eq)] = n;
    pos = end + 1;
  }
  return out;
}

void run_report(const ReportFlags& flags) {
  frontend::Design d = frontend::load_design(flags.design);
  const auto target_ptr = load_cli_target(flags.target, d.target);
  const hwmodel::Target& target = *target_ptr;

  hwmodel::EstimateOptions o;
  const auto kind = hwmodel::scheduler_from_name(flags.schedule);
  if (!kind) throw Error("--schedule: expected asap, alap, list or exact, got '" + flags.schedule + "'");
  o.scheduler = *kind;
  o.lanes = flags.lanes;
  o.lenient = flags.lenient;
  o.unit_limits = parse_units(flags.units);
  o.exact_node_limit = flags.node_limit;
  o.keep_details = true;
  o.pipeline_loops = !flags.no_pipeline;
  const std::optional<rtl::QuantizedModule> quantized = quantized_design(d, flags.fixed);
  if (quantized) d.module = quantized->module;  // estimate the fixed-point design
  const hwmodel::Estimate e = hwmodel::estimate(d.module, target, o);

  if (!flags.gantt.empty()) {
    std::ofstream out(flags.gantt);
    if (!out || !(out << hwmodel::gantt_svg(d.module, e))) throw Error("cannot write the Gantt chart", {flags.gantt});
  }
  if (flags.json) fmt::print("{}", hwmodel::report_json(d.module, target, e));
  else fmt::print("{}", hwmodel::report_text(d.module, target, e));
}

}  // namespace

void add_report_command(CLI::App& app) {
  auto flags = std::make_shared<ReportFlags>();
  CLI::App* cmd = app.add_subcommand(
      "report",
      "Schedule, bind and estimate a design on a hardware target: latency in cycles,\n"
      "initiation interval, peak live memory, BRAM, energy (compute, on-chip memory,\n"
      "DRAM, static) and area (DSP, LUT, FF, BRAM18K) with utilization, the critical path\n"
      "and Fmax on targets with a timing model (ice40), and per loop its trips, latency and\n"
      "II (a counted while loop: pipelined at its II, or why not), as an HLS-style report;\n"
      "--gantt writes the schedule as an SVG Gantt chart.");
  cmd->add_option("DESIGN", flags->design, "a .yaml design or a .hlo XLA HLO text file")->required();
  cmd->add_option("--target", flags->target,
                  "fpga, cpu (designs/targets/NAME.yaml) or a target .yaml file;\n"
                  "default: the design's `target:` or fpga");
  cmd->add_option("--schedule", flags->schedule, "asap, alap, list or exact")->capture_default_str();
  cmd->add_option("--lanes", flags->lanes, "parallel lanes per op (default: the target's default_lanes)")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--units", flags->units, "unit instances per class, e.g. fp_mul=2,mem=4 (cpu: core=N)");
  cmd->add_option("--exact-node-limit", flags->node_limit, "search nodes before `exact` gives up proving optimality")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40))->capture_default_str();
  cmd->add_flag("--lenient", flags->lenient,
                "cost ops without a cost model as memory moves, loops with unknown trip counts\n"
                "as one trip, and report designs that do not fit instead of failing");
  cmd->add_flag("--no-pipeline", flags->no_pipeline,
                "run every while loop's iterations one after another (no loop pipelining; per loop:\n"
                "the YAML directive pipeline: off)");
  cmd->add_option("--fixed", flags->fixed, kFixedOptionHelp);
  cmd->add_flag("--json", flags->json, "print one JSON object instead of the report");
  cmd->add_option("--gantt", flags->gantt, "write the schedule as an SVG Gantt chart to this file");
  cmd->callback([flags] { run_report(*flags); });
}

}  // namespace hlsgym::cli
