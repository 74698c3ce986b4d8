// The modulo scheduling problem of a loop body, separate from the algorithm that solves
// it (as CIRCT's CyclicProblem and ModuloProblem extend its Problem): operations with
// latencies and resources as in ScheduleProblem, dependences that may cross iterations,
// and an initiation interval II, the cycles between the starts of consecutive iterations.
//
// Semantics (modulo_verifier checks exactly these), for II >= 1 and a start per op:
// - dependence i -> j with delay d and distance k: start[j] + k * II >= start[i] + d.
//   k = 0 orders two ops of one iteration; k >= 1 ties op j of iteration n + k to op i
//   of iteration n (an accumulator, a loop state the next iteration reads). d is the
//   source's latency unless given (0 for a combinational op chained into its reader).
// - an op on a limited resource holds one instance for `busy` cycles from its start, in
//   every iteration. Iterations start every II cycles, so in the steady state the modulo
//   reservation table counts, per resource and per slot s in [0, II), the busy cycles c
//   of every op with (start + c) mod II == s; no slot may count more than the limit.
//   An op keeps its instance from one iteration to the next (the binding the RTL builds:
//   no rotation of instances), so an op busy longer than II would collide with itself:
//   busy > II is infeasible at that II. When a schedule names each op's instance (the
//   scheduler's does), no instance may be held twice in one slot either: slot counts
//   alone can admit a table no fixed binding fits (three 2-cycle uses on 2 instances
//   at II 3 fill every slot twice, yet each pair overlaps).
// - distance-0 dependences form a DAG (nothing waits for itself within an iteration);
//   every cycle of dependences goes through at least one loop-carried one.
// - length = max(start + latency), the latency of one iteration; stages = ceil(length /
//   II), the iterations in flight at once.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hwmodel/schedule_problem.h"

namespace hlsgym::hwmodel {

struct ModuloDependence {
  uint32_t from = 0, to = 0;
  int64_t delay = 0;     // cycles from the start of `from` to the earliest start of `to`
  int64_t distance = 0;  // iterations between them: 0 within one, >= 1 loop-carried
};

struct ModuloProblem {
  std::vector<std::string> names;  // per op, for reasons and verifier messages
  std::vector<int64_t> latency, busy;
  std::vector<uint16_t> resource;  // index into limits, or kUnlimited
  std::vector<int> limits;         // instances per resource; <= 0 means unlimited
  std::vector<std::string> resource_names;
  std::vector<ModuloDependence> deps;

  size_t size() const { return latency.size(); }
  bool limited(size_t op) const { return holds_limited_resource(resource[op], busy[op], limits); }

  uint16_t add_resource(std::string name, int limit) {
    limits.push_back(limit);
    resource_names.push_back(std::move(name));
    return static_cast<uint16_t>(limits.size() - 1);
  }
  uint32_t add_op(std::string name, int64_t lat, uint16_t res = kUnlimited, int64_t busy_cycles = 1) {
    names.push_back(std::move(name));
    latency.push_back(lat);
    busy.push_back(busy_cycles);
    resource.push_back(res);
    return static_cast<uint32_t>(latency.size() - 1);
  }
  // The delay is the source's latency.
  void add_dep(uint32_t from, uint32_t to, int64_t distance = 0) {
    deps.push_back({from, to, latency.at(from), distance});
  }
  void add_dep_with_delay(uint32_t from, uint32_t to, int64_t delay, int64_t distance = 0) {
    deps.push_back({from, to, delay, distance});
  }
};

// max(start + latency): the latency of one iteration; 0 for an empty body.
int64_t iteration_length(const ModuloProblem& p, std::span<const int64_t> start);
// ceil(length / II), at least 1 for a non-empty body: the iterations in flight at once
// in the steady state, each in its own stage.
int64_t stage_count(const ModuloProblem& p, int64_t length, int64_t ii);

// Empty when `p` is well formed: aligned per-op vectors, resources and ops in range,
// non-negative latencies, busy cycles, delays and distances, and no cycle of distance-0
// dependences (the message then names the ops on one such cycle).
std::string modulo_problem_error(const ModuloProblem& p);

// What the bounds and the scheduler walk: dependences (indices into p.deps) by source
// and by target, and the ops in an order where every distance-0 dependence points
// forward (so one sweep in that order settles every path within an iteration).
struct ModuloGraph {
  std::vector<uint32_t> out_offset, out, in_offset, in;
  std::vector<uint32_t> order;
  size_t loop_carried = 0;  // dependences with distance >= 1

  std::span<const uint32_t> out_of(size_t op) const {
    return {out.data() + out_offset[op], out.data() + out_offset[op + 1]};
  }
  std::span<const uint32_t> in_of(size_t op) const {
    return {in.data() + in_offset[op], in.data() + in_offset[op + 1]};
  }
};

// Throws hlsgym::Error with modulo_problem_error's message when `p` is not well formed.
ModuloGraph modulo_graph(const ModuloProblem& p);

}  // namespace hlsgym::hwmodel
