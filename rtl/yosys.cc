#include "rtl/yosys.h"

#include <fmt/core.h>

#include <chrono>
#include <fstream>

#include "ir/error.h"

namespace hlsgym::rtl {
namespace fs = std::filesystem;

namespace {

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// "$dff_32" -> 32 (the width suffix of `stat -width`), 1 when there is none.
int64_t width_suffix(const std::string& type) {
  const size_t u = type.rfind('_');
  if (u == std::string::npos) return 1;
  try {
    return std::stoll(type.substr(u + 1));
  } catch (const std::exception&) {
    return 1;
  }
}

std::map<std::string, int64_t> run_yosys(const std::string& yosys, const Files& f, const std::string& name,
                                         const std::string& script, double& seconds) {
  const fs::path json = f.dir / (name + ".json"), log = f.dir / (name + ".log");
  const std::string cmd = fmt::format("cd {} && {} -q -l {} -p {} > /dev/null 2>&1", shell_quote(f.dir.string()),
                                      shell_quote(yosys), shell_quote(log.string()),
                                      shell_quote(script + fmt::format("; tee -q -o {} stat -width -json", json.string())));
  const auto t0 = std::chrono::steady_clock::now();
  const int rc = run_shell(cmd);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (rc != 0) {
    std::string first = "(no error line found)", line;
    std::ifstream in(log);
    while (std::getline(in, line))
      if (line.find("ERROR") != std::string::npos || line.find("Error") != std::string::npos) {
        first = line;
        break;
      }
    throw Error(fmt::format("rtl: yosys failed (exit {}); first error: {}; log: {}", rc, first, log.string()));
  }
  std::ifstream in(json);
  nlohmann::json j;
  try {
    in >> j;
  } catch (const std::exception& e) {
    throw Error(fmt::format("rtl: cannot read yosys statistics {}: {}", json.string(), e.what()));
  }
  std::map<std::string, int64_t> cells;
  for (const auto& [type, n] : j["design"]["num_cells_by_type"].items()) cells[type] = n.get<int64_t>();
  return cells;
}

void count_word(SynthReport& s) {
  for (const auto& [type, n] : s.word_cells) {
    if (starts_with(type, "$mul")) s.multipliers += n;
    else if (starts_with(type, "$add") || starts_with(type, "$sub") || starts_with(type, "$neg")) s.adders += n;
    else if (starts_with(type, "$div") || starts_with(type, "$mod")) s.dividers += n;
    else if (type.find("dff") != std::string::npos || starts_with(type, "$dlatch")) s.ff_bits += n * width_suffix(type);
  }
}

void count_gates(SynthReport& s) {
  for (const auto& [type, n] : s.xilinx_cells) {
    const std::string t = type.substr(0, type.rfind('_') == std::string::npos ? type.size() : type.rfind('_'));
    if (starts_with(t, "DSP48")) s.dsp += n;
    else if (starts_with(t, "RAMB18")) s.bram18k += n;
    else if (starts_with(t, "RAMB36")) s.bram18k += 2 * n;
    else if (starts_with(t, "LUT") || starts_with(t, "SRL") || starts_with(t, "RAM")) s.lut += n;
    else if (starts_with(t, "FD")) s.ff += n;
    else if (starts_with(t, "CARRY")) s.carry += n;
  }
}

}  // namespace

SynthReport synthesize(const EmittedDesign& d, const Files& f, bool gate_level) {
  const std::string yosys = require_tool("yosys", "yosys");
  SynthReport s;
  const std::string read = fmt::format("read_verilog {}; hierarchy -top {}", f.verilog.filename().string(), d.module_name);
  s.word_cells = run_yosys(yosys, f, "yosys_word", read + "; proc; opt; memory; opt; wreduce; opt_clean", s.word_seconds);
  count_word(s);
  if (!gate_level) {
    s.gate_skipped = "not asked for";
  } else if (d.inventory.lines > kGateLevelMaxLines) {
    s.gate_skipped = fmt::format("{} lines of Verilog (more than {}): too slow for synth_xilinx here", d.inventory.lines,
                                 kGateLevelMaxLines);
  } else {
    s.xilinx_cells = run_yosys(yosys, f, "yosys_xilinx", read + fmt::format("; synth_xilinx -top {} -noiopad", d.module_name),
                               s.gate_seconds);
    s.gate_level = true;
    count_gates(s);
  }
  return s;
}

std::string synth_text(const EmittedDesign& d, const SynthReport& s) {
  const Inventory& v = d.inventory;
  const hwmodel::Area& a = d.estimate.area;
  std::string t = fmt::format(
      "yosys word level ({:.2f} s):\n"
      "  multipliers  {:>6} (emitted {} datapath + {} address scalings)\n"
      "  adders       {:>6} (emitted {} datapath + {} counters)\n"
      "  dividers     {:>6} (emitted {})\n"
      "  FF bits      {:>6} (emitted: storage {} registers + {} BRAM-bound, read ports {}, pipeline {}, control {})\n",
      s.word_seconds, s.multipliers, v.multipliers, v.address_multipliers, s.adders, v.adders, v.control_adders, s.dividers, v.dividers,
      s.ff_bits, v.register_bits, v.bram_bits, v.read_bits, v.pipeline_bits, v.control_bits);
  if (!s.gate_level) return t + "synth_xilinx skipped: " + s.gate_skipped + "\n";
  return t + fmt::format(
                 "synth_xilinx -noiopad ({:.2f} s) vs estimate:\n"
                 "  DSP  {:>7} vs {:.0f}\n  LUT  {:>7} vs {:.0f}\n  FF   {:>7} vs {:.0f}\n  BRAM {:>7} vs {:.0f} (BRAM18K)\n",
                 s.gate_seconds, s.dsp, a.dsp, s.lut, a.lut, s.ff, a.ff, s.bram18k, a.bram18k);
}

nlohmann::json synth_json(const EmittedDesign& d, const SynthReport& s) {
  const Inventory& v = d.inventory;
  nlohmann::json j{{"word", {{"seconds", s.word_seconds},
                             {"multipliers", s.multipliers},
                             {"adders", s.adders},
                             {"dividers", s.dividers},
                             {"ff_bits", s.ff_bits},
                             {"cells", s.word_cells}}},
                   {"emitted", {{"multipliers", v.multipliers},
                                {"adders", v.adders},
                                {"control_adders", v.control_adders},
                                {"address_multipliers", v.address_multipliers},
                                {"rom_bits", v.rom_bits},
                                {"dividers", v.dividers},
                                {"register_bits", v.register_bits},
                                {"bram_bits", v.bram_bits},
                                {"read_bits", v.read_bits},
                                {"pipeline_bits", v.pipeline_bits},
                                {"control_bits", v.control_bits}}},
                   {"estimate", {{"dsp", d.estimate.area.dsp},
                                 {"lut", d.estimate.area.lut},
                                 {"ff", d.estimate.area.ff},
                                 {"bram18k", d.estimate.area.bram18k},
                                 {"control_lut", d.control_area.lut},
                                 {"control_ff", d.control_area.ff},
                                 {"control_unpriced_dividers", d.control.dividers}}}};
  if (s.gate_level)
    j["xilinx"] = {{"seconds", s.gate_seconds}, {"dsp", s.dsp}, {"lut", s.lut}, {"ff", s.ff}, {"bram18k", s.bram18k}, {"carry", s.carry},
                   {"cells", s.xilinx_cells}};
  else
    j["xilinx_skipped"] = s.gate_skipped;
  return j;
}

}  // namespace hlsgym::rtl
