// Random task graphs for property tests and benchmarks of the schedulers and binding,
// without going through the IR: each task depends on up to three of the `window`
// tasks before it (so graphs are wide when the window is large, deep when small), takes
// a random unit class with latency depth + items - 1 and busy = items, and allocates a
// buffer of random size.
#pragma once
#include <cstdint>

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

}  // namespace hlsgym::hwmodel
