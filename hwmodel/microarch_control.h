// The control logic of the microarchitecture (microarch.h), counted from the same structure
// the Verilog prints: every timeline's cycle counter, every lane's loop counters (with
// their wrap compare, a grouped output's base register, slot/round/group counters), its
// issue window compare, and the affine index arithmetic its reads, guards and output
// addresses use (adders, constant strides, the comparisons of bound guards). Counted for
// the whole loop nest as synthesis builds it (microarch_control.cc: a timeline counter
// without wrap is its end compare, index sums of disjoint bits are wiring, register-file
// read addresses fold into the read multiplexer, long tag pipelines are SRL16Es) and priced
// per component by the target's `control:` block (ControlCost, scripts/calibrate_control.sh:
// Yosys on one component and on each of those rules at a time, never fitted to designs).
#pragma once
#include <vector>

#include "hwmodel/microarch.h"
#include "hwmodel/target.h"
#include "hwmodel/task_graph.h"

namespace hlsgym::hwmodel {

// Bit widths of every control component the Verilog builds, one entry per instance.
struct ControlInventory {
  std::vector<int> timers;     // timeline cycle counters: no wrap, the increment and end compare
  std::vector<int> counters;   // restart + enable + wrap at a bound (the compare included)
  std::vector<int> compares;   // a value against a constant (issue windows, guards)
  std::vector<int> adders;     // index sums (each term after the first, a constant offset)
  std::vector<int> scales;     // index x constant stride (not a power of two)
  int64_t register_bits = 0;   // state bits without their own logic (base registers, FSM flags,
                               // timeline counters, pipeline tags)
  int64_t shift_registers = 0; // tag bits delayed 3+ stages: one SRL16E (a LUT) each
  int64_t address_registers = 0;  // of register_bits: the next-address registers' (next_address_bits)
  // Index divisions and remainders by a constant that is not a power of two: synthesis
  // builds a divider the component table does not price; the control area is then unknown.
  int dividers = 0;
};

// The non-constant index nodes `roots` reach in `ix` (constants are inlined, not built).
std::vector<bool> reachable_index_nodes(const IxPool& ix, const std::vector<int>& roots);
// The index nodes a lane of `tp` builds as wires: everything its leaves, guards and
// output/term addresses reach.
std::vector<bool> built_index_nodes(const TaskPlan& tp);

// The bits of the address register of its own that read alternative `a` of `tp` reads
// through (0 unless it reads a register file: a BRAM's or a ROM's address is not one) (rtl/verilog_units.cc: loaded with the next cycle's
// address, so the read multiplexer selects by flip-flops nothing else reads), or 0 when
// the read's address is wired from the counters. Built where the address is the lane's
// loop counters' bits concatenated out of their nesting order (maxpool's 2 x 2 window,
// {oy, ky, ox, kx}): Yosys covers that read tree in 1.4x the LUTs of one addressed by an
// input or by the same counters in order (scripts/calibrate_read_address.sh), and the
// register of its own brings it back (maxpool 822 -> 635 LUT for 2 flip-flops kept).
int next_address_bits(const Plan& p, const TaskPlan& tp, const Alt& a);

ControlInventory control_inventory(const Plan& p);

// LUT and FF of the inventory at the target's calibrated component costs.
Area control_area(const ControlInventory& inv, const ControlCost& cost);

}  // namespace hlsgym::hwmodel
