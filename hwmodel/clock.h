// The clock a microarchitecture can run at (FPGA targets with a `timing:` model): its
// slowest register-to-register path, composed from delays measured on the part
// (Target::timing, scripts/calibrate_timing.py), over the structures the binding builds:
// - a read port: loop counters -> (address arithmetic) -> word multiplexer of the
//   buffer's track -> read register. Reductions, windows, dots and gathers add the carry
//   chains their address terms need (clock_address.h); other movement ops an adder of the
//   address bits. A gather's or dynamic-slice's run-time start is clamped in front of the
//   address (gather_start, by the bits the index is stored in; folded when every stored
//   value is in range). The multiplexer is as wide as the value read. A loop body's or
//   branch's state lives in its caller's register tracks: its reads are their ports.
// - a unit stage: read register -> the tasks' select when several tasks share the
//   instance (a chain in start order: a task passes its own and the later tasks') -> the operation (a fused body: its slowest chain of operations; a
//   reduction: its combiner and the accumulator's init select; an integer mac: the
//   measured lane (its adder fed by the SB_MAC16's output register), the slot register
//   cleared by its reset, plus a select of g slot registers or a split lane's clear where
//   rtl builds one; a shift by a run-time amount: its measured row) -> the write-data
//   select of the destination track when several instances write it -> the word register.
// - the store: the unit's result net reaches every word register of every track its
//   tasks store into, a body's in-place state leaf in its caller included (write_port by
//   the words).
// Each path is the measured delay of its measured components plus lut_ns per LUT level of
// glue; the design's slowest path is then stretched by the route factor measured at its
// size (LUT4s + flip-flops). A multiplier is a DSP block whose own delay nextpnr-ice40 does
// not time, so a product costs the logic around it. Operations with no measured delay
// (integer divide, floats) leave the clock unmodeled, and say which.
#pragma once
#include <string>

#include "hwmodel/binding.h"
#include "hwmodel/schedule_problem.h"
#include "hwmodel/target.h"
#include "hwmodel/task_graph.h"
#include "ir/module.h"

namespace hlsgym::hwmodel {

struct ClockEstimate {
  bool modeled = false;    // the target has a timing model and every path was priced
  double critical_ns = 0;  // the slowest register-to-register path
  double route_factor = 1;  // applied by place()
  std::string path;        // which path, in words
  std::string unmodeled;   // why not modeled (the target or the first unpriced op)
  double fmax_mhz() const { return critical_ns > 0 ? 1000 / critical_ns : 0; }
  // Against a clock of `target_mhz`: positive when the path fits in its period.
  double slack_ns(double target_mhz) const { return 1000 / target_mhz - critical_ns; }
  // The slower of the two (a loop body's clock folded into its caller's); unmodeled wins.
  void merge(const ClockEstimate& other);
  // Stretches the path as nets stretch in a design of `logic_cells` (TimingModel::route),
  // once, on the whole design's merged clock.
  void place(double logic_cells, const TimingModel& tm);
};

ClockEstimate estimate_clock(const ir::Module& m, const TaskGraph& g, const Binding& b, const Schedule& s,
                             const Target& t);

}  // namespace hlsgym::hwmodel
