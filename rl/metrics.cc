#include "rl/metrics.h"

#include <fmt/core.h>

#include <limits>

#include "ir/error.h"
#include "rl/graph_wl.h"

namespace hlsgym::rl {

MetricsCache::MetricsCache(const hwmodel::Target* target, hwmodel::EstimateOptions options)
    : target_(target), options_(std::move(options)) {}

HardwareCost hardware_cost(const ir::Module& m, const hwmodel::Target& t, const hwmodel::EstimateOptions& o) {
  const hwmodel::Estimate e = hwmodel::estimate(m, t, o);
  HardwareCost c;
  c.cycles = static_cast<double>(e.cycles);
  c.energy_pj = e.energy_pj;
  c.memory_bytes = static_cast<double>(e.memory_bytes);
  c.area = e.utilization.dsp + e.utilization.lut + e.utilization.ff + e.utilization.bram18k;
  // A design that does not fit the part is no design: its cycles are not a cost to reward
  // (a cycles reward would otherwise unroll until the part overflows).
  if (e.uncosted_ops.empty() && e.unknown_trip_counts == 0 && e.fits) return c;
  // What `report` says about it: the strict estimate's error, with the op's file:line
  // (a lowering error comes before any fit check, so this is the first unknown), or what
  // does not fit.
  hwmodel::EstimateOptions strict = o;
  strict.lenient = false;
  try {
    hwmodel::estimate(m, t, strict);
    c.unknown = "the hardware model had to guess a cost";  // not expected: lenient guessed, strict did not
  } catch (const Error& err) {
    c.unknown = err.what();
  }
  if (c.unknown.empty() && !e.fits) c.unknown = "does not fit the target: " + e.fit_problem;
  if (c.unknown.empty()) c.unknown = fmt::format("{} ops without a cost model, {} loops of unknown trip count",
                                                 e.uncosted_ops.size(), e.unknown_trip_counts);
  c.cycles = c.energy_pj = c.memory_bytes = c.area = std::numeric_limits<double>::quiet_NaN();  // not costs
  return c;
}

std::shared_ptr<const Metrics> MetricsCache::get(const ir::Module& m, uint64_t hash, Needs needs) {
  std::shared_ptr<Metrics> found;
  {
    std::lock_guard lock(mu_);
    auto it = map_.find(hash);
    if (it != map_.end()) found = it->second;
  }
  const bool hw = needs.hardware && target_ != nullptr;
  const auto complete = [&](const Metrics& x) { return (x.has_hardware || !hw) && (x.has_graph_wl || !needs.graph_wl); };
  if (found && complete(*found)) {
    ++hits_;
    return found;
  }
  ++misses_;
  // Computed outside the lock: two threads may compute the same state; both results
  // are identical, the first stored wins.
  auto fresh = std::make_shared<Metrics>(found ? *found : Metrics{});
  if (!found) fresh->features = ir::extract_features(m);
  if (hw && !fresh->has_hardware) {
    fresh->hardware = hardware_cost(m, *target_, options_);
    fresh->has_hardware = true;
  }
  if (needs.graph_wl && !fresh->has_graph_wl) {
    graph_wl_counts(m, fresh->graph_wl);
    fresh->has_graph_wl = true;
  }
  std::lock_guard lock(mu_);
  auto& slot = map_[hash];
  if (slot && complete(*slot)) return slot;
  const bool counted = slot && slot->has_hardware;  // its uncostable state was counted when stored
  if (slot && slot->has_hardware && !fresh->has_hardware) fresh->hardware = slot->hardware, fresh->has_hardware = true;
  if (slot && slot->has_graph_wl && !fresh->has_graph_wl) fresh->graph_wl = slot->graph_wl, fresh->has_graph_wl = true;
  if (fresh->has_hardware && !fresh->hardware.known() && !counted) ++uncostable_;
  slot = fresh;
  return slot;
}

size_t MetricsCache::size() const {
  std::lock_guard lock(mu_);
  return map_.size();
}

}  // namespace hlsgym::rl
