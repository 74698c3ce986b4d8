// The work of each pass from 1k to 10k instructions, free of the machine's load and caches:
// run under callgrind, each pass runs once on a fresh copy of BM_Pass's random graphs (1,386
// and 13,169 instructions, seed 7), only that run is counted, and each count is dumped as
// "PASS/SIZE" (scripts/pass_work.sh runs it and prints the table). Each run also prints
// "PASS SIZE ADDED" on stdout, the instructions it created: a pass that finds nothing to
// rewrite in the 1k graph but rewrites in the 10k one grows by more than the graph. Outside valgrind it
// just runs the passes. Arguments name the passes to run (all when none), so that one
// pass's profile can be read: valgrind --tool=callgrind ... hlsgym_pass_work PASS;
// --seed-1k=N draws the 1k graph with seed N (for a pass with nothing to do in seed 7's).
#include <valgrind/callgrind.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

#include "ir/random_module.h"
#include "passes/registry.h"

int main(int argc, char** argv) {
  using namespace hlsgym;
  std::vector<std::string> only;
  uint64_t seed_1k = 7;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    if (arg.starts_with("--seed-1k=")) seed_1k = std::stoull(arg.substr(10));
    else only.push_back(arg);
  }
  std::deque<std::string> labels;  // callgrind reads a dump's label after the request returns
  for (int size : {1000, 10000}) {
    ir::RandomModuleOptions o;
    o.instructions = size;
    o.seed = size == 1000 ? seed_1k : 7;
    o.max_dim = 8;
    const ir::Module graph = ir::random_module(o);
    for (const auto& info : passes::Registry::global().all()) {
      if (!only.empty() && std::find(only.begin(), only.end(), info.name) == only.end()) continue;
      auto pass = passes::Registry::global().create(info.name);
      {
        ir::Module warm = graph;  // first-use tables of the pass are not its per-run work
        pass->run(warm);
      }
      ir::Module m = graph;
      CALLGRIND_TOGGLE_COLLECT;
      pass->run(m);
      CALLGRIND_TOGGLE_COLLECT;
      labels.push_back(info.name + "/" + std::to_string(size));
      CALLGRIND_DUMP_STATS_AT(labels.back().c_str());
      std::printf("%s %d %zu\n", info.name.c_str(), size, m.instruction_slots() - graph.instruction_slots());
    }
  }
}
