// rtl: Verilog from the hardware model's schedule and binding, a Verilator testbench,
// and the drivers that build, simulate and synthesize it.
//
//   ir::Module --hwmodel::estimate (keep_details)--> schedule + binding
//              --hwmodel::make_plan (hwmodel/microarch.h)--> Plan --emit_verilog--> <module>.v
//              --testbench--> tb_<module>.cpp --cosimulate (driver.h)--> measured cycles
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hwmodel/estimate.h"
#include "hwmodel/microarch_control.h"
#include "hwmodel/target.h"
#include "ir/module.h"

namespace hlsgym::rtl {

// What the emitted Verilog holds, counted while it is written (to hold Yosys against).
struct Inventory {
  int units = 0, lanes = 0, tasks = 0, tracks = 0;
  int multipliers = 0;      // datapath `*` operators
  int adders = 0;           // datapath `+`/`-` operators (MAC accumulators included)
  int dividers = 0;         // `/` and `%`
  int float_units = 0;      // IEEE-754 unit instances (rtl/float_units.h)
  int control_adders = 0;   // the cycle counter and one issue counter per unit
  int64_t register_bits = 0;  // tracks the binding put in registers
  int64_t bram_bits = 0;      // tracks the binding put in BRAM (emitted as memories too)
  int64_t rom_bits = 0;       // constants (initialized, read-only memories)
  int address_multipliers = 0;  // constant scalings of index arithmetic (`*` by a constant)
  int64_t read_bits = 0;      // data registers of the synchronous memory reads (inside a BRAM when mapped)
  int64_t pipeline_bits = 0;  // unit pipeline and tag registers
  int64_t control_bits = 0;   // FSM, cycle and issue counters
  int64_t lines = 0;
  std::vector<int> track_read_ports;  // per plan track (the entry's first, numbered as the binding's)
};

struct PortInfo {
  std::string port;    // Verilog name prefix (in_x, out_y)
  std::string value;   // IR name
  ir::ElementType type{};
  int64_t elements = 1;
  bool scalar = false;  // a plain port; else <port>_we/_addr/_din (in) or _addr/_dout (out)
  int width = 1;        // datapath bits
  int addr_bits = 1;
};

struct EmittedDesign {
  std::string module_name;
  // Per reduce/dot/convolution split over several lanes (TaskPlan::split): into how many
  // chunks its outputs' terms go, for the hardware-order reference (ir::EvalOptions::split_of).
  std::map<ir::InstrId, int64_t> splits;
  // Whether some value is a float: cosim compares with ir::evaluate in the hardware's
  // accumulation order (AccumulationOrder::kHardware), bit for bit.
  bool floating = false;
  std::string verilog;
  std::vector<PortInfo> inputs, outputs;
  int64_t estimated_cycles = 0;
  hwmodel::Estimate estimate;
  Inventory inventory;
  // The control logic of the microarchitecture, priced by the target's `control:` block
  // (hwmodel/microarch_control.h); not yet part of estimate.area.
  hwmodel::ControlInventory control;
  hwmodel::Area control_area;
};

struct EmitOptions {
  hwmodel::EstimateOptions estimate;  // scheduler, lanes, unit limits (details are kept)
  std::string module_name;            // default: the module's name, made Verilog-safe
};

// Schedules, binds and emits. Throws hlsgym::Error for what the emitter does not support
// (floating point, control flow, ops outside its set: the message names the op and line).
EmittedDesign emit(const ir::Module& m, const hwmodel::Target& t, const EmitOptions& o = {});

// A Verilog-safe module name for a design name.
std::string module_name_for(const std::string& design);

}  // namespace hlsgym::rtl
