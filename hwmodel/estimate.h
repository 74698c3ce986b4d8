// One call from a module to its hardware cost on a target:
//   lower (lowering.h) -> schedule (schedulers/) -> bind (binding.h) -> Estimate.
//
// - cycles: the schedule length; seconds = cycles / clock.
// - ii: the initiation interval if invocations overlapped as a dataflow pipeline: every
//   unit instance (and every loop's own datapath) must finish one invocation's work
//   before the next, so ii = max(max over instances of their total busy cycles, longest
//   loop). On a CPU every task holds the core, so ii = cycles.
// - memory_bytes: peak live bytes by liveness (binding.h); bram18k: BRAM blocks of the
//   on-chip buffers after left-edge sharing, plus the loops' own.
// - energy_pj = compute (element ops x per-op energy) + on-chip memory (bytes / 8 x pJ
//   per 64-bit access, x hard-block factor on an FPGA) + DRAM (same, DRAM pJ) + static
//   (static_mw x time).
// - area (FPGA): units + multiplexers + registers + BRAM + control; utilization = area /
//   part. The control logic (counters, compares, index arithmetic, pipeline tags) is
//   counted from the microarchitecture the RTL prints (microarch_control.h) and priced by
//   the target's `control:` block; when the design cannot be planned (an op the RTL does
//   not build) or the target has no `control:` block it is not counted and
//   `control_unmodeled` says why.
//   A design whose area exceeds the part is an Error unless `lenient` (then fits=false).
#pragma once
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hwmodel/binding.h"
#include "hwmodel/clock.h"
#include "hwmodel/loop_pipelining.h"
#include "hwmodel/lowering.h"
#include "hwmodel/schedule_problem.h"
#include "hwmodel/schedulers/schedulers.h"
#include "hwmodel/target.h"
#include "hwmodel/task_graph.h"

namespace hlsgym::hwmodel {

struct EstimateOptions {
  SchedulerKind scheduler = SchedulerKind::kList;
  int lanes = 0;          // 0: the target's default_lanes
  bool lenient = false;   // cost unknown ops as moves, unknown loops as one trip, no fit error
  // Instances per unit class name (FPGA) or "core" (CPU), overriding the target's.
  std::map<std::string, int> unit_limits;
  int64_t exact_node_limit = kDefaultExactNodeLimit;
  bool keep_details = false;  // keep graph, problem, schedule and binding (reports)
  // FPGA: pipeline counted while loops where legal and faster (loop_pipelining.h); a loop
  // with the directive pipeline="off" never is.
  bool pipeline_loops = true;
};

struct EnergyBreakdown {
  double compute_pj = 0, onchip_pj = 0, dram_pj = 0, static_pj = 0;
  double total() const { return compute_pj + onchip_pj + dram_pj + static_pj; }
};

struct EstimateDetails {
  TaskGraph graph;
  ScheduleProblem problem;
  Schedule schedule;
  Binding binding;
  // The separately scheduled computations (loop conditions and bodies, branches) of the
  // module, each with its own details; filled in the entry's details only.
  std::map<ir::CompId, std::shared_ptr<const EstimateDetails>> subs;
  // A while loop's body on an FPGA: whether it is pipelined (then `schedule` is its modulo
  // schedule's flat view, one iteration, and `binding` the modulo binding) or why not.
  std::shared_ptr<const LoopPipeline> pipeline;
};

struct Estimate {
  std::string target, scheduler;
  int lanes = 1;
  int64_t cycles = 0, ii = 0, memory_bytes = 0;
  double seconds = 0;
  double bram18k = 0;
  double energy_pj = 0;
  EnergyBreakdown energy;
  Area area, utilization;  // utilization: fractions of the part (FPGA)
  bool fits = true;
  std::string fit_problem;  // why it does not fit, when it does not
  int64_t element_ops = 0;
  size_t tasks = 0;
  bool schedule_optimal = false, schedule_hit_limit = false;
  int64_t schedule_nodes = 0;  // exact: search nodes (0 with hit_limit: too big to search)
  std::vector<std::pair<std::string, int>> uncosted_ops;  // lenient: opcode, count
  int unknown_trip_counts = 0;
  Area control;                  // FPGA: the control logic, part of `area` (microarch_control.h)
  std::string control_unmodeled;  // why `control` is not (wholly) counted; empty when it is
  ClockEstimate clock;  // FPGA: the critical path and Fmax (clock.h), when the target models timing
  std::shared_ptr<const EstimateDetails> details;  // with keep_details
};

Estimate estimate(const ir::Module& m, const Target& t, const EstimateOptions& o = {});

// The scheduling problem of a lowered graph on a target with these options' limits.
ScheduleProblem make_target_problem(const TaskGraph& g, const Target& t, const EstimateOptions& o);
// Lowers the entry computation with these options (loops costed as estimate() does).
TaskGraph lower_entry(const ir::Module& m, const Target& t, const EstimateOptions& o);

}  // namespace hlsgym::hwmodel
