// The scheduling problem, separate from the algorithms that solve it (as in CIRCT's
// scheduling Problem): operations with fixed latencies, dependences, and resource
// classes with a limit on instances in use per cycle.
//
// Semantics (the verifier checks exactly these):
// - dependence i -> j: start[j] >= start[i] + latency[i];
// - a task with a resource (`resource[t] != kUnlimited`) and busy[t] > 0 holds one
//   instance of it during [start[t], start[t] + busy[t]); at every cycle at most
//   limit[r] tasks hold resource r (a pipelined unit accepts new inputs after `busy`
//   cycles although the earlier task is still in flight, since busy <= latency);
// - the schedule length is max(start[t] + latency[t]), 0 for an empty problem.
// Tasks are in topological order: every dependence points to an earlier task.
#pragma once
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace hlsgym::hwmodel {

struct TaskGraph;

inline constexpr uint16_t kUnlimited = std::numeric_limits<uint16_t>::max();

// Whether a task (or a loop body's operation) holds an instance of a limited resource:
// one rule for ScheduleProblem and ModuloProblem.
inline bool holds_limited_resource(uint16_t resource, int64_t busy, std::span<const int> limits) {
  return resource != kUnlimited && busy > 0 && limits[resource] > 0;
}

struct ScheduleProblem {
  std::vector<int64_t> latency, busy;
  std::vector<uint16_t> resource;          // index into limits, or kUnlimited
  std::vector<uint32_t> dep_offset{0}, deps;  // CSR of predecessors
  std::vector<int> limits;                 // per resource; <= 0 means unlimited
  std::vector<std::string> resource_names;

  size_t size() const { return latency.size(); }
  std::span<const uint32_t> deps_of(size_t t) const {
    return {deps.data() + dep_offset[t], deps.data() + dep_offset[t + 1]};
  }
  bool limited(size_t t) const { return holds_limited_resource(resource[t], busy[t], limits); }
  void add_task(int64_t lat, int64_t busy_cycles, uint16_t res, std::span<const uint32_t> preds) {
    latency.push_back(lat);
    busy.push_back(busy_cycles);
    resource.push_back(res);
    deps.insert(deps.end(), preds.begin(), preds.end());
    dep_offset.push_back(static_cast<uint32_t>(deps.size()));
  }
};

struct Schedule {
  std::vector<int64_t> start;
  // Optional: every task in non-decreasing start order (the list scheduler gives it for
  // free; binding sorts when it is missing).
  std::vector<uint32_t> order;
  int64_t length = 0;
  bool optimal = false;   // proven optimal (exact scheduler finished)
  bool hit_limit = false; // exact scheduler stopped at its node limit: best found so far
  int64_t nodes = 0;      // exact scheduler: search nodes visited
};

int64_t schedule_length(const ScheduleProblem& p, std::span<const int64_t> start);

// Successors in CSR form (built on demand by the algorithms that need them).
struct Successors {
  std::vector<uint32_t> offset, succ;
};
Successors successors(const ScheduleProblem& p);

// Longest path from each task's start to the end of the graph, its latency included
// (the list scheduler's priority and the exact scheduler's bound).
std::vector<int64_t> tail_lengths(const ScheduleProblem& p, const Successors& s);

// Lower bounds on the length of any resource-feasible schedule: the critical path, and
// per limited resource the total busy time over its instances (plus the shortest tail
// after a busy period).
int64_t critical_path_bound(const ScheduleProblem& p);
int64_t resource_bound(const ScheduleProblem& p);

// Resource classes as the target sees them; `unit_limits[c]` for each unit class (FPGA)
// or one "core" resource (CPU) is decided by the caller (estimate.cc).
ScheduleProblem make_problem(const TaskGraph& g, std::span<const uint16_t> resource_of_unit,
                             std::vector<int> limits, std::vector<std::string> names);

}  // namespace hlsgym::hwmodel
