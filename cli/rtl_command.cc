// hlsgym rtl DESIGN -o DIR [--target T] [--schedule S] [--lanes N] [--sim] [--vectors N] [--seed S]
//   [--trace] [--synth] [--pnr] [--fixed SPEC] [--json]:
// emit Verilog and a Verilator testbench from the hardware model's schedule and binding;
// --sim builds and simulates it against the interpreter, --synth runs Yosys, --pnr places and
// routes it on the target's FPGA (rtl/pnr.h).
#include <fmt/core.h>

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/fixed_option.h"
#include "cli/targets.h"
#include "frontend/load.h"
#include "ir/error.h"
#include "rtl/driver.h"
#include "rtl/fixed_accuracy.h"
#include "rtl/pnr.h"
#include "rtl/rtl.h"
#include "rtl/yosys.h"

namespace hlsgym::cli {
namespace {

struct RtlFlags {
  std::string design, out, target, schedule = "list", fixed;
  int vectors = 16, lanes = 0;
  double timeout = 600;
  uint64_t seed = 1;
  bool sim = false, trace = false, synth = false, pnr = false, json = false, no_pipeline = false, lenient = false;
};

nlohmann::json sim_json(const rtl::SimResult& r) {
  nlohmann::json j{{"vectors", r.vectors},
                   {"mismatches", r.mismatches},
                   {"estimated_cycles", r.estimated_cycles},
                   {"measured_cycles", r.measured_cycles},
                   {"min_measured_cycles", r.min_measured_cycles},
                   {"restart_interval", r.restart_interval},
                   {"timeouts", r.timeouts},
                   {"build_seconds", r.build_seconds},
                   {"run_seconds", r.run_seconds},
                   {"verilog", r.verilog.string()}};
  if (r.first) j["first_mismatch"] = rtl::describe(*r.first);
  if (!r.vcd.empty()) j["vcd"] = r.vcd.string();
  return j;
}

void print_sim(const rtl::SimResult& r) {
  fmt::print("simulation: {} vectors, {} mismatching output elements, {} timeouts\n", r.vectors, r.mismatches,
             r.timeouts);
  fmt::print("cycles: estimated {}, measured {}{}\n", r.estimated_cycles, r.measured_cycles,
             r.measured_cycles == r.estimated_cycles && r.min_measured_cycles == r.estimated_cycles ? " (agree)"
                                                                                                    : " (DISAGREE)");
  fmt::print("restart interval: {} cycles (start held high; the report's interval is {})\n", r.restart_interval,
             r.estimated_cycles + 1);
  fmt::print("verilator build {:.2f} s, run {:.3f} s\n", r.build_seconds, r.run_seconds);
  if (r.first) fmt::print("first mismatch: {}\n", rtl::describe(*r.first));
  if (!r.vcd.empty()) fmt::print("trace: {}\n", r.vcd.string());
}

// hls4ml-style profiling of a quantized design: accuracy against the float design over
// the simulated vectors, and the first value that left its format.
void report_accuracy(const rtl::FixedAccuracy& a, const std::string& spec, bool json, nlohmann::json& j) {
  // an overflow is intended only where the user named the overflow mode
  const bool asked = spec.find("AP_WRAP") != std::string::npos || spec.find("AP_SAT") != std::string::npos;
  if (json) {
    nlohmann::json acc{{"format", spec}, {"vectors", a.vectors}, {"elements", a.elements}, {"nan_references", a.skipped},
                       {"max_abs_error", a.max_abs_error}, {"overflows", a.overflows}};
    acc["snr_db"] = std::isinf(a.snr_db) ? nlohmann::json("inf") : nlohmann::json(a.snr_db);
    if (a.first_overflow) acc["first_overflow"] = rtl::describe(*a.first_overflow);
    j["accuracy"] = acc;
  } else {
    fmt::print("accuracy vs float ({}): max abs error {:.6g}, SNR {} over {} output elements of {} vectors{}\n", spec,
               a.max_abs_error, std::isinf(a.snr_db) ? std::string("inf dB (exact)") : fmt::format("{:.2f} dB", a.snr_db),
               a.elements, a.vectors, a.skipped ? fmt::format(" ({} NaN in the float design, skipped)", a.skipped) : "");
    if (a.first_overflow && asked)
      fmt::print("warning: {} values overflow their format; first: {}\n", a.overflows, rtl::describe(*a.first_overflow));
  }
  if (a.first_overflow && !asked)
    throw Error(fmt::format("--fixed {}: {} values overflow (first: {}); give more integer bits, or name the overflow "
                            "mode (ap_fixed<W,I,Q,AP_SAT> or AP_WRAP) to accept it",
                            spec, a.overflows, rtl::describe(*a.first_overflow)));
}

void run_rtl(const RtlFlags& flags) {
  frontend::Design d = frontend::load_design(flags.design);
  auto target = load_cli_target(flags.target, d.target);
  if (flags.target.empty() && target->is_cpu()) {  // a design's cpu target does not apply to RTL
    fmt::print(stderr, "note: {} names target '{}', a CPU; emitting for fpga\n", flags.design, target->name);
    target = load_cli_target("fpga", "");
  }
  const std::optional<rtl::QuantizedModule> quantized = quantized_design(d, flags.fixed);
  const ir::Module& m = quantized ? quantized->module : d.module;
  rtl::EmitOptions o;
  const auto kind = hwmodel::scheduler_from_name(flags.schedule);
  if (!kind) throw Error("--schedule: expected asap, alap, list or exact, got '" + flags.schedule + "'");
  o.estimate.scheduler = *kind;
  o.estimate.lanes = flags.lanes;
  o.estimate.pipeline_loops = !flags.no_pipeline;
  o.estimate.lenient = flags.lenient;
  o.module_name = rtl::module_name_for(d.name.empty() ? m.name() : d.name);
  const rtl::EmittedDesign e = rtl::emit(m, *target, o);
  const rtl::Files files = rtl::write_files(e, flags.out);
  nlohmann::json j{{"design", o.module_name},
                   {"verilog", files.verilog.string()},
                   {"testbench", files.testbench.string()},
                   {"estimated_cycles", e.estimated_cycles},
                   {"lines", e.inventory.lines}};
  if (!flags.json)
    fmt::print("wrote {} ({} lines, {} units, {} tracks) and {}; estimated {} cycles\n", files.verilog.string(),
               e.inventory.lines, e.inventory.units, e.inventory.tracks, files.testbench.string(), e.estimated_cycles);
  std::optional<rtl::SimResult> sim;
  if (flags.sim || flags.trace) {
    rtl::SimOptions so{flags.vectors, flags.seed, flags.trace};
    if (!flags.json) fmt::print(stderr, "building with Verilator (log: {}) ...\n", (files.dir / "verilator_build.log").string());
    const rtl::BuildResult b = rtl::build_model(e, files, flags.trace, flags.timeout, [&](double s, const std::string& last) {
      fmt::print(stderr, "  still building ({:.0f} s): {}\n", s, last.substr(0, 120));
    });
    sim = rtl::simulate(m, e, files, b, so);
    if (flags.json) j.update(sim_json(*sim));
    else print_sim(*sim);
    if (quantized)
      report_accuracy(rtl::measure_accuracy(d.module, *quantized, flags.vectors, flags.seed),
                      fixed_spec(d, flags.fixed), flags.json, j);
  }
  if (flags.synth) {
    const rtl::SynthReport s = rtl::synthesize(e, files);
    if (flags.json) j["synth"] = rtl::synth_json(e, s);
    else fmt::print("{}", rtl::synth_text(e, s));
  }
  if (flags.pnr) {
    if (!flags.json) fmt::print(stderr, "placing and routing with nextpnr-{} (logs in {}) ...\n", target->pnr.family, files.dir.string());
    const rtl::PnrReport r = rtl::place_and_route(e, files, *target, flags.timeout, flags.lenient);
    if (flags.json) j["pnr"] = rtl::pnr_json(e, r);
    else fmt::print("{}", rtl::pnr_text(e, r));
  }
  if (flags.json) fmt::print("{}\n", j.dump(2));
  if (sim && !sim->passed())
    throw Error(sim->first ? "cosimulation failed: " + rtl::describe(*sim->first)
                           : fmt::format("cosimulation failed: measured {} cycles (min {}), estimated {}, {} timeouts",
                                         sim->measured_cycles, sim->min_measured_cycles, sim->estimated_cycles,
                                         sim->timeouts));
}

}  // namespace

void add_rtl_command(CLI::App& app) {
  auto flags = std::make_shared<RtlFlags>();
  CLI::App* cmd = app.add_subcommand(
      "rtl",
      "Emit synthesizable Verilog-2005 that runs the hardware model's schedule on its bound\n"
      "units and registers, plus a C++ Verilator testbench. --sim builds it with Verilator,\n"
      "runs random input vectors and compares every output element with the interpreter and\n"
      "the measured cycles with the estimate; --synth runs Yosys and compares its operator\n"
      "and DSP/LUT/FF counts with the area estimate. Integers, and f32/f16/bf16 through pipelined\n"
      "IEEE-754 units (add, multiply, divide, sqrt, compare, min/max, abs/negate, converts;\n"
      "reductions and dots accumulate in the element type, compared bit for bit with the\n"
      "interpreter's hardware order); transcendentals and other float types need --fixed SPEC\n"
      "(quantized to ap_fixed<W,I,Q,O> first; with --sim it prints the accuracy against the float\n"
      "design: max abs error and SNR, and refuses an overflow unless the overflow mode is named).");
  cmd->add_option("DESIGN", flags->design, "a .yaml design or a .hlo XLA HLO text file")->required();
  cmd->add_option("-o,--out", flags->out, "output folder for <design>.v, tb_<design>.cpp and the build")->required();
  cmd->add_option("--target", flags->target,
                  "fpga (designs/targets/NAME.yaml) or a target .yaml file; default: the design's `target:`\n"
                  "when it is an FPGA, else fpga");
  cmd->add_option("--schedule", flags->schedule, "asap, alap, list or exact")->capture_default_str();
  cmd->add_option("--lanes", flags->lanes, "parallel lanes per op (default: the target's default_lanes)")
      ->check(CLI::Range(1, 1 << 12));
  cmd->add_flag("--no-pipeline", flags->no_pipeline,
                "run every while loop's iterations one after another (no loop pipelining)");
  cmd->add_flag("--lenient", flags->lenient, "emit a design that exceeds the target's resources (as report --lenient)");
  cmd->add_flag("--sim", flags->sim, "build with Verilator, simulate and compare with the interpreter");
  cmd->add_option("--timeout", flags->timeout,
                  "stop a Verilator build, or each Yosys/nextpnr run of --pnr, that runs longer than this many seconds "
                  "(0: no limit)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--vectors", flags->vectors, "random input vectors to simulate")
      ->check(CLI::Range(1, 1000000))->capture_default_str();
  cmd->add_option("--seed", flags->seed, "vector k uses random inputs of seed + k")->capture_default_str();
  cmd->add_flag("--trace", flags->trace, "write a VCD of the simulation to DIR/trace.vcd (implies --sim)");
  cmd->add_flag("--synth", flags->synth,
                "run Yosys (word level; gate level with synth_xilinx on small designs) and compare with the estimate");
  cmd->add_flag("--pnr", flags->pnr,
                "place and route on the target's FPGA (--target ice40: Yosys synth_ice40 and nextpnr-ice40) and print "
                "its cells and Fmax beside the estimate");
  cmd->add_option("--fixed", flags->fixed, kFixedOptionHelp);
  cmd->add_flag("--json", flags->json, "print one JSON object instead of text");
  cmd->callback([flags] { run_rtl(*flags); });
}

}  // namespace hlsgym::cli
