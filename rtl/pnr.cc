#include "rtl/pnr.h"

#include <fmt/core.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

#include "ir/error.h"

namespace hlsgym::rtl {
namespace fs = std::filesystem;

namespace {

struct Port {
  bool input = false;
  int width = 1;
  std::string name;
};

// The ports of the design's top module, read from its header (one port per line, as
// the emitter writes them).
std::vector<Port> module_ports(const EmittedDesign& d) {
  std::istringstream in(d.verilog);
  std::string line;
  bool header = false;
  std::vector<Port> ports;
  static const std::regex port(R"(^\s*(input|output)\s+(?:wire|reg)?\s*(?:signed\s+)?(?:\[(\d+):(\d+)\]\s*)?(\w+))");
  while (std::getline(in, line)) {
    if (!header) {
      header = line.rfind("module " + d.module_name, 0) == 0;
      continue;
    }
    std::smatch m;
    if (std::regex_search(line, m, port))
      ports.push_back({m[1] == "input", m[2].matched ? std::stoi(m[2]) - std::stoi(m[3]) + 1 : 1, m[4]});
    if (line.find(");") != std::string::npos) break;
  }
  if (ports.empty()) throw Error("rtl --pnr: cannot read the ports of module " + d.module_name);
  return ports;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Runs `cmd` in `dir` (output to `log`) under coreutils timeout; throws on failure or time out.
double run_tool(const std::string& what, const fs::path& dir, const std::string& cmd, const fs::path& log,
                double timeout_seconds) {
  const std::string limit = timeout_seconds > 0 ? fmt::format("timeout -k 5 {:.3f} ", timeout_seconds) : "";
  const auto t0 = std::chrono::steady_clock::now();
  const int rc =
      run_shell(fmt::format("cd {} && {}{} > {} 2>&1", shell_quote(dir.string()), limit, cmd, shell_quote(log.string())));
  const double s = seconds_since(t0);
  if (timeout_seconds > 0 && (rc == 124 || rc == 128 + 9))
    throw Error(fmt::format("rtl --pnr: {} did not finish within --timeout {:g} s and was stopped; log: {}", what,
                            timeout_seconds, log.string()));
  if (rc != 0) {
    std::istringstream in(read_text(log));
    std::string line, first = "(no error line found)";
    while (std::getline(in, line))
      if (line.find("ERROR") != std::string::npos || line.find("Error") != std::string::npos) {
        first = line;
        break;
      }
    throw Error(fmt::format("rtl --pnr: {} failed (exit {}{}); first error: {}; log: {}", what, rc,
                            rc == 128 + 11 || rc == 139 ? ", a segmentation fault" : "", first, log.string()));
  }
  return s;
}

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  nlohmann::json j;
  try {
    in >> j;
  } catch (const std::exception& e) {
    throw Error(fmt::format("rtl --pnr: cannot read {}: {}", p.string(), e.what()));
  }
  return j;
}

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

void count_ice40(PnrReport& r) {
  for (const auto& [type, n] : r.cells) {
    if (type == "SB_LUT4") r.lut += n;
    else if (starts_with(type, "SB_DFF")) r.ff += n;
    else if (type == "SB_CARRY") r.carry += n;
    else if (type == "SB_MAC16") r.dsp += n;
    else if (starts_with(type, "SB_RAM40_4K")) r.bram += n;
  }
}

}  // namespace

std::string nextpnr_overuse(const std::string& log) {
  // nextpnr's "Device utilisation" lines: "Info: \t         ICESTORM_LC:  6051/ 5280   114%"
  static const std::regex row(R"((\w+):\s+(\d+)/\s*(\d+)\s+(\d+)%)");
  std::string out;
  for (auto it = std::sregex_iterator(log.begin(), log.end(), row); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    if (std::stoll(m[2]) > std::stoll(m[3]))
      out += fmt::format("{}needs {} {} of {} ({}%)", out.empty() ? "" : ", ", m[2].str(), m[1].str(), m[3].str(), m[4].str());
  }
  return out;
}

int64_t harness_logic_cells(const EmittedDesign& d) {
  int64_t cells = 0;
  for (const Port& p : module_ports(d))
    if (p.name != "clk") cells += p.width;
  return cells;
}

std::string pnr_harness(const EmittedDesign& d) {
  const std::vector<Port> ports = module_ports(d);
  int64_t ni = 0, no = 0;
  std::string conn;
  for (const Port& p : ports) {
    if (p.name == "clk") {
      conn += "    .clk(clk),\n";
      continue;
    }
    int64_t& at = p.input ? ni : no;
    conn += fmt::format("    .{}({}[{}:{}]),\n", p.name, p.input ? "in_bits" : "out_bits", at + p.width - 1, at);
    at += p.width;
  }
  if (no == 0) throw Error("rtl --pnr: module " + d.module_name + " has no outputs");
  conn.resize(conn.size() - 2);  // the last ",\n"
  // Concatenations wider than the register are truncated to it (Verilog-2005 assignment).
  return fmt::format(
      "// hlsgym --pnr harness: every input of {0} comes from a shift register fed by `sin`,\n"
      "// every output is loaded (cap) into a shift register read at `sout`: four pins.\n"
      "module hlsgym_pnr_top(input wire clk, input wire sin, input wire cap, output wire sout);\n"
      "  reg [{1}:0] in_bits;\n"
      "  wire [{2}:0] out_bits;\n"
      "  reg [{2}:0] out_shift;\n"
      "  always @(posedge clk) in_bits <= {{in_bits, sin}};\n"
      "  always @(posedge clk) out_shift <= cap ? out_bits : {{out_shift, 1'b0}};\n"
      "  assign sout = out_shift[{2}];\n"
      "  {0} design (\n{3}\n  );\n"
      "endmodule\n",
      d.module_name, std::max<int64_t>(ni, 1) - 1, no - 1, conn);
}

PnrReport place_and_route(const EmittedDesign& d, const Files& f, const hwmodel::Target& t, double timeout_seconds,
                          bool lenient) {
  if (t.pnr.family.empty())
    throw Error(fmt::format("rtl --pnr: target '{}' ({}) names no device to place and route on (a `pnr:` field, as "
                            "designs/targets/ice40.yaml has); use --target ice40",
                            t.name, t.file.string()));
  if (t.resources.logic_cells > 0 && !lenient) {  // minutes of Yosys and nextpnr to learn it otherwise
    const hwmodel::Area& a = d.estimate.area;
    const double design = t.resources.cells_needed(a.lut, a.ff);
    const int64_t harness = harness_logic_cells(d);
    if (design + harness > t.resources.logic_cells)
      throw Error(fmt::format("rtl --pnr: design '{}' does not fit the {}: needs {:.0f} logic cells of {:.0f} ({:.0f}%; the "
                              "design's LUT4 {:.0f} + FF {:.0f}, and {} for the harness's port bits); --lenient runs "
                              "Yosys and nextpnr anyway",
                              d.module_name, t.pnr.device, design + harness, t.resources.logic_cells,
                              100 * (design + harness) / t.resources.logic_cells, a.lut, a.ff, harness));
  }
  const std::string yosys = require_tool("yosys", "yosys");
  const std::string nextpnr = require_tool("nextpnr-" + t.pnr.family, "nextpnr-" + t.pnr.family);
  PnrReport r;
  r.family = t.pnr.family, r.device = t.pnr.device, r.package = t.pnr.package;
  const std::string synth = fmt::format("synth_{} -dsp", t.pnr.family);
  const fs::path stat = f.dir / "pnr_cells.json", harness = f.dir / "pnr_harness.v", net = f.dir / "pnr_netlist.json",
                 report = f.dir / "nextpnr_report.json";
  const std::string v = f.verilog.filename().string();  // Verilog-safe: the module name
  r.synth_seconds = run_tool(
      "yosys " + synth, f.dir,
      fmt::format("{} -q -p {}", shell_quote(yosys),
                  shell_quote(fmt::format("read_verilog {}; {} -top {}; tee -q -o {} stat -json", v, synth, d.module_name,
                                          stat.string()))),
      f.dir / "yosys_pnr_cells.log", timeout_seconds);
  const nlohmann::json cells = read_json(stat);  // kept: a loop over a temporary's items() dangles
  for (const auto& [type, n] : cells.at("design").at("num_cells_by_type").items()) r.cells[type] = n.get<int64_t>();
  count_ice40(r);

  const std::string h = pnr_harness(d);
  std::ofstream(harness) << h;
  for (const Port& p : module_ports(d))
    if (p.name != "clk") (p.input ? r.harness_in_bits : r.harness_out_bits) += p.width;
  const auto t0 = std::chrono::steady_clock::now();
  run_tool("yosys " + synth + " (harness)", f.dir,
           fmt::format("{} -q -p {}", shell_quote(yosys),
                       shell_quote(fmt::format("read_verilog {} {}; {} -top hlsgym_pnr_top -json {}", v,
                                               harness.filename().string(), synth, net.string()))),
           f.dir / "yosys_pnr.log", timeout_seconds);
  const fs::path pnr_log = f.dir / "nextpnr.log";
  try {
    run_tool("nextpnr-" + t.pnr.family, f.dir,
             fmt::format("{} --{} --package {} --json {} --freq {:g} --report {} --seed 1 --timing-allow-fail",
                         shell_quote(nextpnr), t.pnr.device, shell_quote(t.pnr.package), shell_quote(net.string()),
                         t.clock_mhz, shell_quote(report.string())),
             pnr_log, timeout_seconds);
  } catch (const Error&) {
    // the design has more cells than the device: say which kind, read once from the log
    const std::string log = fs::exists(pnr_log) ? read_text(pnr_log) : std::string();
    if (log.find("Unable to place cell") == std::string::npos) throw;
    const std::string over = nextpnr_overuse(log);
    throw Error(fmt::format("rtl --pnr: design '{}' does not fit the {} (nextpnr-{}: unable to place a cell; {}); log: {}",
                            d.module_name, t.pnr.device, t.pnr.family,
                            over.empty() ? "no bel type over its count: the placer ran out of room" : over,
                            pnr_log.string()));
  }
  r.pnr_seconds = seconds_since(t0);
  const nlohmann::json j = read_json(report);
  for (const auto& [bel, u] : j.at("utilization").items()) r.used[bel] = u.at("used").get<int64_t>();
  r.logic_cells = r.used.count("ICESTORM_LC") ? r.used["ICESTORM_LC"] : 0;
  bool first = true;
  for (const auto& [clk, fm] : j.at("fmax").items()) {  // the slowest clock (there is one: clk)
    const double a = fm.at("achieved").get<double>();
    if (first || a < r.fmax_mhz) r.fmax_mhz = a, r.constraint_mhz = fm.at("constraint").get<double>();
    first = false;
  }
  if (first) throw Error("rtl --pnr: nextpnr reported no clock; report: " + report.string());
  return r;
}

std::string pnr_text(const EmittedDesign& d, const PnrReport& r) {
  const hwmodel::Area& a = d.estimate.area;
  return fmt::format(
      "synth_{} -dsp ({:.2f} s) vs estimate:\n"
      "  DSP  {:>7} vs {:.0f} (SB_MAC16)\n  EBR  {:>7} vs {:.0f} (SB_RAM40_4K)\n"
      "  LUT  {:>7} vs {:.0f} (SB_LUT4; SB_CARRY {})\n  FF   {:>7} vs {:.0f}\n"
      "nextpnr-{} --{} --package {} ({:.2f} s with the harness's synthesis; harness of {} in + {} out bits):\n"
      "  Fmax {:.2f} MHz vs {} (target clock {:g} MHz: {})\n  logic cells {} (the design's LUTs and FFs packed, plus the harness)\n",
      r.family, r.synth_seconds, r.dsp, a.dsp, r.bram, a.bram18k, r.lut, a.lut, r.carry, r.ff, a.ff, r.family, r.device,
      r.package, r.pnr_seconds, r.harness_in_bits, r.harness_out_bits, r.fmax_mhz,
      d.estimate.clock.modeled ? fmt::format("{:.2f} estimated, {}", d.estimate.clock.fmax_mhz(), d.estimate.clock.path)
                               : "no estimate: " + d.estimate.clock.unmodeled,
      r.constraint_mhz, r.fmax_mhz >= r.constraint_mhz ? "met" : "MISSED", r.logic_cells);
}

nlohmann::json pnr_json(const EmittedDesign& d, const PnrReport& r) {
  const hwmodel::Area& a = d.estimate.area;
  return {{"family", r.family},
          {"device", r.device},
          {"package", r.package},
          {"estimate", {{"dsp", a.dsp}, {"bram", a.bram18k}, {"lut", a.lut}, {"ff", a.ff},
                        {"fmax_mhz", d.estimate.clock.modeled ? nlohmann::json(d.estimate.clock.fmax_mhz()) : nlohmann::json()},
                        {"critical_path", d.estimate.clock.path}}},
          {"synth", {{"seconds", r.synth_seconds}, {"dsp", r.dsp}, {"bram", r.bram}, {"lut", r.lut}, {"ff", r.ff},
                     {"carry", r.carry}, {"cells", r.cells}}},
          {"nextpnr", {{"seconds", r.pnr_seconds}, {"fmax_mhz", r.fmax_mhz}, {"constraint_mhz", r.constraint_mhz},
                       {"logic_cells", r.logic_cells}, {"used", r.used},
                       {"harness_in_bits", r.harness_in_bits}, {"harness_out_bits", r.harness_out_bits}}}};
}

}  // namespace hlsgym::rtl
