// Dynamic load balancing over ranks for evaluate, search restarts and collect: items (graphs,
// restarts) are handed out one at a time to whichever rank thread is free, so one slow graph
// holds up only the thread that has it. Results come back to rank 0 in item order, so the
// output is the same as a single process's.
//
// Rank 0 runs a small coordinator thread that answers the other ranks' requests (polling
// with short sleeps, so it costs no core) while its own threads take items from the same
// counter. Every rank must pass the same `items` and `threads`.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace hlsgym::dist {

struct WorkItems {
  int items = 0;
  int threads = 1;  // per rank
  std::string what = "graphs";  // for the "more ranks than ..." error
  // Runs item i on a rank thread (0 <= thread < threads); its result as bytes.
  std::function<std::string(int item, int thread)> run;
  // A name for item i in fault messages ("graph fir8").
  std::function<std::string(int item)> label;
};

// Rank 0: the results of every item, in item order. Other ranks: {}. A throwing item ends
// the job (abort_job) with the rank and the item's label; more ranks than items is an
// hlsgym::Error on every rank, before any work.
std::vector<std::string> run_work_items(const WorkItems& w);

}  // namespace hlsgym::dist
