// --pnr: place and route of the emitted Verilog on the target's FPGA (Target::pnr; today
// iCE40: Yosys synth_ice40 and nextpnr-ice40), for the cells and the clock the hardware
// model's estimate is held against.
//
// - cells: `synth_ice40 -dsp` of the design alone: SB_LUT4, flip-flops (SB_DFF*),
//   SB_CARRY, SB_MAC16 and SB_RAM40_4K (EBR), beside the estimate's LUT/FF/DSP/BRAM.
// - clock: the design has more I/O than a small package (fir8: 76 pins; a UP5K SG48 has
//   39), so nextpnr places it inside a harness whose only pins are clk, a serial input
//   shifted into every design input and a serial output loaded from every design output:
//   the design's own paths stay register to register, and the harness adds one flip-flop
//   per port bit and one LUT per output bit (counted apart: nextpnr's logic cells).
//   nextpnr's achieved frequency of clk is the Fmax reported.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "hwmodel/target.h"
#include "rtl/driver.h"
#include "rtl/rtl.h"

namespace hlsgym::rtl {

struct PnrReport {
  std::string family, device, package;
  // synth_<family> of the design alone
  std::map<std::string, int64_t> cells;
  int64_t lut = 0, ff = 0, carry = 0, dsp = 0, bram = 0;
  double synth_seconds = 0;
  // nextpnr on the harness
  int64_t harness_in_bits = 0, harness_out_bits = 0;
  std::map<std::string, int64_t> used;  // nextpnr utilization: bel type -> used (LC, DSP, RAM, IO)
  int64_t logic_cells = 0;
  double fmax_mhz = 0, constraint_mhz = 0;
  double pnr_seconds = 0;
};

// The harness module (hlsgym_pnr_top) around the design's top module `d.module_name`.
// Throws hlsgym::Error when the module header cannot be read.
std::string pnr_harness(const EmittedDesign& d);

// Runs Yosys and nextpnr in f.dir (logs, netlists and nextpnr's report there), each
// stopped after `timeout_seconds` (0: no limit). Throws hlsgym::Error when the target has
// no pnr device, a tool is missing (naming its Debian package), fails (its first error
// line and log) or runs out of time; and, naming the resource, when the design does not
// fit the device: before any tool runs when the estimate's logic cells and the harness's
// exceed the part (unless `lenient`: then the tools run and say), and when nextpnr cannot
// place a cell (nextpnr_overuse).
PnrReport place_and_route(const EmittedDesign& d, const Files& f, const hwmodel::Target& t,
                          double timeout_seconds, bool lenient = false);

// The logic cells the harness adds: one flip-flop per input bit, and per output bit a
// flip-flop with the LUT that selects its load (the pair packs into one cell).
int64_t harness_logic_cells(const EmittedDesign& d);

// From a nextpnr log that failed to place: each bel type used beyond what the device has,
// as "needs 6051 ICESTORM_LC of 5280 (114%)" (joined by ", "); empty when none is.
std::string nextpnr_overuse(const std::string& log);

std::string pnr_text(const EmittedDesign& d, const PnrReport& r);
nlohmann::json pnr_json(const EmittedDesign& d, const PnrReport& r);

}  // namespace hlsgym::rtl
