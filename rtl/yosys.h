// --synth: Yosys on the emitted Verilog, compared with what the emitter put in it
// (Inventory) and with the hardware model's area estimate.
//
// - word level (always): `proc; opt; memory; opt; wreduce; opt_clean; stat -width`:
//   $mul/$add/$sub/$div/$mod cells and flip-flop bits, to hold against the emitter's
//   inventory (one multiplier per multiplier or MAC lane, ...).
// - gate level (small designs): `synth_xilinx -noiopad`: DSP48E1, LUTs (LUT1..6, SRL,
//   LUTRAM) and flip-flops, to hold against the estimate's DSP/LUT/FF. Its run time
//   grows fast with design size, hence the limit.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "rtl/driver.h"
#include "rtl/rtl.h"

namespace hlsgym::rtl {

struct SynthReport {
  std::map<std::string, int64_t> word_cells;  // cell type with width suffix -> count
  int64_t multipliers = 0, adders = 0, dividers = 0, ff_bits = 0;
  double word_seconds = 0;
  bool gate_level = false;
  std::string gate_skipped;  // why synth_xilinx did not run
  std::map<std::string, int64_t> xilinx_cells;
  int64_t dsp = 0, lut = 0, ff = 0, carry = 0;
  int64_t bram18k = 0;  // RAMB18E1 + 2 x RAMB36E1
  double gate_seconds = 0;
};

// Gate-level synthesis runs when the design is at most this many Verilog lines.
inline constexpr int64_t kGateLevelMaxLines = 6000;

// Runs Yosys in f.dir (logs and JSON there). Throws hlsgym::Error when yosys is missing
// (naming the Debian package) or fails (naming its log).
SynthReport synthesize(const EmittedDesign& d, const Files& f, bool gate_level = true);

std::string synth_text(const EmittedDesign& d, const SynthReport& s);
nlohmann::json synth_json(const EmittedDesign& d, const SynthReport& s);

}  // namespace hlsgym::rtl
