// Presenting an Estimate: an HLS-style text report (timing, utilization table, energy
// breakdown, unit binding), a JSON object, and a Gantt chart of the schedule as SVG.
// All three need the estimate's details (EstimateOptions::keep_details) for the
// schedule parts; without them those parts are left out.
#pragma once
#include <string>

#include "hwmodel/estimate.h"
#include "hwmodel/target.h"
#include "ir/module.h"

namespace hlsgym::hwmodel {

std::string report_text(const ir::Module& m, const Target& t, const Estimate& e);

// {"design", "target", "scheduler", "lanes", "cycles", "ii", "seconds", "memory_bytes",
//  "bram18k", "energy_pj", "energy": {compute_pj, onchip_pj, dram_pj, static_pj},
//  "area": {dsp, lut, ff, bram18k}, "utilization": {...}, "fit_problem", "fits", "element_ops", "tasks",
//  "schedule_optimal", "uncosted_ops": {op: count}, "unknown_trip_counts",
//  "units": [{"id", "class", "tasks", "busy_cycles", "lanes"}],
//  "schedule": [{"name", "op", "start", "latency", "busy", "unit", "deps": [names]}]}
// Free tasks (latency 0, no unit) are left out of "schedule" when `free_tasks` is false.
std::string report_json(const ir::Module& m, const Target& t, const Estimate& e, bool free_tasks = true);

// One row per unit instance (and one for loops/branches on their own datapaths); a bar
// per task from start to end, darker while it holds its unit; names in tooltips.
std::string gantt_svg(const ir::Module& m, const Estimate& e);

// The id of a unit instance as reports print it: "<class>.<n>" (e.g. "fp_mul.0").
std::string unit_id(const EstimateDetails& d, uint32_t instance);

}  // namespace hlsgym::hwmodel
