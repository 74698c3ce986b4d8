// Writes every float unit of rtl/float_units.h (float_unit_catalog) into a folder, one
// <module>.v each, and prints one row per unit: module, the target file's row and column
// for it (float_unit_key) and its latency; with --synth also the LUT, FF, DSP and CARRY4
// cells of Yosys synth_xilinx -noiopad on the unit alone (rtl::synthesize, the counting
// `hlsgym rtl --synth` uses). scripts/calibrate_float_units.sh runs it for the
// `float_units` table of designs/targets/fpga.yaml.
//   build/bench/hlsgym_float_units DIR [--synth] [MODULE...]
#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ir/element_type.h"
#include "ir/error.h"
#include "rtl/float_units.h"
#include "rtl/yosys.h"

int main(int argc, char** argv) {
  using namespace hlsgym;
  std::vector<std::string> args(argv + 1, argv + argc), only;
  const bool synth = std::erase(args, "--synth") > 0;
  if (args.empty()) {
    fmt::print(stderr, "usage: {} DIR [--synth] [MODULE...]\n", argv[0]);
    return 1;
  }
  const std::filesystem::path dir = args[0];
  only.assign(args.begin() + 1, args.end());
  try {
    for (const rtl::FloatUnit& u : rtl::float_unit_catalog()) {
      const std::string name = rtl::float_unit_name(u);
      if (!only.empty() && std::find(only.begin(), only.end(), name) == only.end()) continue;
      rtl::EmittedDesign d;
      d.module_name = name;
      d.verilog = rtl::float_unit_verilog(u);
      const rtl::Files f{dir / name, dir / name / (name + ".v"), {}};
      std::filesystem::create_directories(f.dir);
      std::ofstream(f.verilog) << d.verilog;
      const rtl::FloatUnitKey key = rtl::float_unit_key(u);
      fmt::print("{} {} {} {}", name, key.unit, ir::element_type_name(key.format), rtl::float_unit_latency(u));
      if (synth) {
        const rtl::SynthReport s = rtl::synthesize(d, f);
        fmt::print(" {} {} {} {}", s.lut, s.ff, s.dsp, s.carry);
      }
      fmt::print("\n");
      std::fflush(stdout);
    }
  } catch (const Error& e) {
    fmt::print(stderr, "error: {}\n", e.what());
    return 1;
  }
  return 0;
}
