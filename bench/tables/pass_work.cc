// The work of each pass from 1k to 10k instructions, free of the machine's load and caches:
// run under callgrind, each pass runs once on a fresh copy of BM_Pass's random graphs (1,386
// and 13,169 instructions, seed 7), only that run is counted, and each count is dumped as
// "PASS/SIZE" (scripts/pass_work.sh runs it and prints the table). Outside valgrind it
// just runs the passes. Arguments name the passes to run (all when none), so that one
// pass's profile can be read: valgrind --tool=callgrind ... hlsgym_pass_work PASS.
#include <valgrind/callgrind.h>

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include "ir/random_module.h"
#include "passes/registry.h"

int main(int argc, char** argv) {
  using namespace hlsgym;
  const std::vector<std::string> only(argv + 1, argv + argc);
  std::deque<std::string> labels;  // callgrind reads a dump's label after the request returns
  for (int size : {1000, 10000}) {
    ir::RandomModuleOptions o;
    o.instructions = size;
    o.seed = 7;
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
    }
  }
}
