// Random task graphs for property tests and benchmarks of the schedulers and binding,
// without going through the IR: each task depends on up to three of the `window`
// tasks before it (so graphs are wide when the window is large, deep when small), takes
// a random unit class with latency depth + items - 1 and busy = items, and allocates a
// buffer of random size.
#pragma once
#include <cstdint>

#include "hwmodel/modulo_problem.h"
#include "hwmodel/target.h"
#include "hwmodel/task_graph.h"

namespace hlsgym::hwmodel {

struct RandomGraphOptions {
  size_t tasks = 100;
  uint64_t seed = 1;
  int window = 16;        // how far back dependences reach
  int max_items = 16;     // elements per task (busy cycles)
  int free_percent = 10;  // tasks with no unit and 0 cycles
  int classes = kUnitClassCount;  // unit classes drawn from (fewer: more contention)
};

TaskGraph random_task_graph(const Target& t, const RandomGraphOptions& o);

// Random loop bodies for the modulo scheduler's tests and benchmarks. Each op depends on
// up to two of the `window` ops before it (distance 0: a DAG within the iteration),
// `chained_percent` of those with delay 0 (a combinational op chained into its reader);
// `loop_carried` dependences of distance 1..max_distance reach back up to 2 windows (or
// to the op itself, an accumulator) and close recurrences. An op is on one of
// `resources` classes r0, r1, ... of 1..max_limit instances, busy 1..max_busy cycles (at
// most its latency), or on no limited resource (`unlimited_percent`, latency 0..max).
struct RandomLoopBodyOptions {
  size_t ops = 50;
  uint64_t seed = 1;
  int window = 8;
  int resources = 3;
  int max_limit = 3;
  int unlimited_percent = 25;
  int max_latency = 6;
  int max_busy = 2;
  int chained_percent = 10;
  int loop_carried = 4;
  int max_distance = 2;
};

ModuloProblem random_loop_body(const RandomLoopBodyOptions& o);

}  // namespace hlsgym::hwmodel
