// What the environment knows about a state (a module): its graph features (opcode
// counts, flops, transcendentals, bytes, ...) and, when a hardware reward or the cost
// observation needs it, the hardware model's estimate. States are cached under their
// structural hash, so revisiting a state (a no-op pass, a search meeting a known graph)
// costs one hash.
#pragma once
#include <memory>
#include <atomic>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "hwmodel/estimate.h"
#include "ir/features.h"
#include "ir/module.h"

namespace hlsgym::rl {

struct HardwareCost {
  double cycles = 0, energy_pj = 0, memory_bytes = 0;
  // Sum of the FPGA utilization fractions (DSP + LUT + FF + BRAM); 0 on a CPU target.
  double area = 0;
  // Empty when the numbers above are the hardware model's; otherwise why the model
  // cannot cost this state (a while loop whose trip count is not proven, an op without
  // a cost model: `report`'s error, with its file:line), and the numbers are not costs.
  std::string unknown;
  bool known() const { return unknown.empty(); }
};

struct Metrics {
  ir::Features features;
  bool has_hardware = false;
  HardwareCost hardware;
  // rl/graph_wl.h's raw counts, when the graph-wl observation asked for them: a function
  // of the state like the rest, so a revisited state (a pass that changed nothing, a
  // memoized transition) is not walked again.
  bool has_graph_wl = false;
  std::vector<double> graph_wl;
  double instructions() const { return static_cast<double>(features.instructions); }
};

// Thread-safe; shared by an environment and its forks.
class MetricsCache {
 public:
  // `target` null: hardware costs are never computed.
  MetricsCache(const hwmodel::Target* target, hwmodel::EstimateOptions options);
  // What is computed on a miss: the features always, the hardware cost and the graph-wl
  // counts when asked for (a hit that lacks one computes it and stores it).
  struct Needs {
    bool hardware = false, graph_wl = false;
  };
  std::shared_ptr<const Metrics> get(const ir::Module& m, uint64_t hash, Needs needs);
  size_t size() const;
  int64_t hits() const { return hits_; }
  int64_t misses() const { return misses_; }
  // Distinct states met whose hardware cost could not be computed, and environment
  // steps refused because they would have led to one (Env::step).
  int64_t uncostable_states() const { return uncostable_; }
  int64_t refused_steps() const { return refused_; }
  void count_refused_step() { ++refused_; }

 private:
  const hwmodel::Target* target_;
  hwmodel::EstimateOptions options_;
  mutable std::mutex mu_;
  std::unordered_map<uint64_t, std::shared_ptr<Metrics>> map_;
  std::atomic<int64_t> hits_{0}, misses_{0}, uncostable_{0}, refused_{0};
};

// The estimate as the environment's costs. Never a guess nor a design the part cannot
// hold: when the estimate had to cost an op as a memory move or a loop as one trip
// (lenient), or the design does not fit the target (area, or memory beyond its DRAM),
// `unknown` says why.
HardwareCost hardware_cost(const ir::Module& m, const hwmodel::Target& t, const hwmodel::EstimateOptions& o);

}  // namespace hlsgym::rl
