// Prints the search-baseline table of the closing notes: for every design, the cost
// after XLA's default order, greedy, beam, random and GA search (the same step budget)
// and exhaustive search (optimal where it closes), on op count and on FPGA cycles.
//   build/bench/hlsgym_search_table [--budget-steps N] [--max-len L]
#include <fmt/core.h>

#include <limits>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>

#include "frontend/load.h"
#include "hwmodel/target.h"
#include "rl/search.h"

namespace fs = std::filesystem;
using namespace hlsgym;

int main(int argc, char** argv) {
  int64_t budget = 3000;
  int max_len = 10;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--budget-steps")) budget = std::stoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--max-len")) max_len = std::stoi(argv[i + 1]);
  }
  const fs::path src = HLSGYM_SOURCE_DIR;
  auto target = std::make_shared<const hwmodel::Target>(hwmodel::load_target("fpga", {src / "designs" / "targets"}));
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(src / "designs"))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const char* reward : {"opcount", "cycles"}) {
    fmt::print("\nreward {} (lower is better; budget {} pass runs, orders of <= {} passes)\n\n", reward, budget, max_len);
    fmt::print("| design | initial | default | greedy | beam | random | ga | exhaustive | states | optimal |\n");
    fmt::print("|---|---|---|---|---|---|---|---|---|---|\n");
    for (const auto& f : files) {
      const auto d = frontend::load_design(f.string());
      rl::EnvOptions eo;
      eo.reward = reward;
      eo.target = target;
      rl::SearchOptions so;
      so.max_len = max_len;
      so.budget_steps = budget;
      so.seed = 1;
      double cost[5] = {};
      rl::SearchResult base;
      const rl::SearchAlgo algos[] = {rl::SearchAlgo::kGreedy, rl::SearchAlgo::kBeam, rl::SearchAlgo::kRandom,
                                      rl::SearchAlgo::kGa};
      for (int a = 0; a < 4; ++a) {
        so.algo = algos[a];
        base = rl::search(d.module, d.name, eo, so);
        cost[a] = base.cost;
      }
      so.algo = rl::SearchAlgo::kExhaustive;
      so.budget_steps = 0;
      so.max_states = 20000;
      const rl::SearchResult ex = rl::search(d.module, d.name, eo, so);
      fmt::print("| {} | {:.6g} | {:.6g} | {:.6g} | {:.6g} | {:.6g} | {:.6g} | {:.6g} | {} | {} |\n", d.name,
                 base.initial_cost, base.default_cost.value_or(std::numeric_limits<double>::quiet_NaN()), cost[0], cost[1], cost[2], cost[3], ex.cost, ex.states,
                 ex.optimal ? "yes" : "no");
    }
  }
  return 0;
}
