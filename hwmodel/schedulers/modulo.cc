// Iterative modulo scheduling; the algorithm is described in modulo.h.
#include "hwmodel/schedulers/modulo.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <queue>

#include <fmt/core.h>

namespace hlsgym::hwmodel {
namespace {

constexpr uint32_t kFree = UINT32_MAX;
// Placements of one op at one II after which it keeps within the window its placed
// successors allow (see run()).
constexpr int kChaseLimit = 4;

// One attempt at one II.
class IterativeModuloScheduler {
 public:
  IterativeModuloScheduler(const ModuloProblem& p, const ModuloGraph& g, int64_t ii)
      : p_(p), g_(g), ii_(ii), start_(p.size(), 0), previous_(p.size(), -1), instance_(p.size(), -1),
        placements_of_(p.size(), 0), placed_(p.size(), false), mrt_(p.limits.size()) {
    for (size_t r = 0; r < p.limits.size(); ++r)
      if (p.limits[r] > 0) mrt_[r].assign(static_cast<size_t>(p.limits[r] * ii), kFree);
  }

  // True when every op is placed within `budget` placements.
  bool run(int64_t budget) {
    rank_by_height();
    for (uint32_t k = 0; k < p_.size(); ++k) queue_.push(k);
    unplaced_ = p_.size();
    while (unplaced_ > 0 && placements_ < budget) {
      const uint32_t op = by_rank_[queue_.top()];
      queue_.pop();
      if (placed_[op]) continue;  // queued again when unplaced, placed since
      const int64_t earliest = earliest_start(op);
      // Rau's window is II cycles from the earliest start, whatever the successors. On a
      // full reservation table that lets a few ops chase each other around the free
      // slots for ever, each evicting the next through a dependence and never a
      // resource holder. An op placed that often keeps to the cycles its placed
      // successors allow, and when none is free is forced, evicting a resource holder
      // (random bodies at MII: 95.3% -> 97.7%).
      const int64_t latest = ++placements_of_[op] > kChaseLimit ? latest_start(op) : INT64_MAX;
      auto [cycle, instance] = first_fit(op, earliest, latest);
      if (cycle < 0) {
        // Rau's rule: never the same place twice in a row, so that the ops it unplaces
        // do not come back to unplace it in turn.
        cycle = previous_[op] < 0 || earliest > previous_[op] ? earliest : previous_[op] + 1;
        instance = least_occupied_instance(op, cycle);
      }
      place(op, cycle, instance);
      ++placements_;
    }
    return unplaced_ == 0;
  }

  int64_t placements() const { return placements_; }
  // Starts shifted so that the first op starts at 0 (a shift rotates the reservation
  // table, which keeps every row free of overlaps).
  std::vector<int64_t> starts() const {
    std::vector<int64_t> s = start_;
    const int64_t first = s.empty() ? 0 : *std::min_element(s.begin(), s.end());
    for (int64_t& t : s) t -= first;
    return s;
  }
  const std::vector<int>& instances() const { return instance_; }

 private:
  // Height first, then intra-iteration order (a zero-delay dependence leaves equal
  // heights, and its source must come first to see its reader unplaced).
  void rank_by_height() {
    const ModuloPaths heights = longest_paths(p_, g_, ii_, PathDirection::kToSinks);
    assert(heights.positive_cycle.empty() && "ii is at least RecMII");
    by_rank_ = g_.order;
    std::stable_sort(by_rank_.begin(), by_rank_.end(),
                     [&](uint32_t a, uint32_t b) { return heights.value[a] > heights.value[b]; });
    rank_.resize(p_.size());
    for (uint32_t k = 0; k < by_rank_.size(); ++k) rank_[by_rank_[k]] = k;
  }

  int64_t earliest_start(uint32_t op) const {
    int64_t earliest = 0;
    for (uint32_t e : g_.in_of(op)) {
      const ModuloDependence& d = p_.deps[e];
      if (d.from != op && placed_[d.from])
        earliest = std::max(earliest, start_[d.from] + d.delay - ii_ * d.distance);
    }
    return earliest;
  }

  // The latest start that keeps every placed successor where it is.
  int64_t latest_start(uint32_t op) const {
    int64_t latest = INT64_MAX;
    for (uint32_t e : g_.out_of(op)) {
      const ModuloDependence& d = p_.deps[e];
      if (d.to != op && placed_[d.to]) latest = std::min(latest, start_[d.to] + ii_ * d.distance - d.delay);
    }
    return latest;
  }

  uint32_t& cell(uint32_t op, int instance, int64_t cycle) {
    return mrt_[p_.resource[op]][static_cast<size_t>(instance * ii_ + cycle % ii_)];
  }
  int64_t occupied(uint32_t op, int instance, int64_t cycle) {
    int64_t n = 0;
    for (int64_t b = 0; b < p_.busy[op]; ++b) n += cell(op, instance, cycle + b) != kFree;
    return n;
  }

  // The first cycle in [earliest, earliest + II) with an instance free on all the op's
  // busy slots (the window covers every slot); {-1, -1} when there is none.
  std::pair<int64_t, int> first_fit(uint32_t op, int64_t earliest, int64_t latest) {
    if (!p_.limited(op)) return {earliest, -1};
    for (int64_t t = earliest; t < earliest + ii_ && t <= latest; ++t)
      for (int k = 0; k < p_.limits[p_.resource[op]]; ++k)
        if (occupied(op, k, t) == 0) return {t, k};
    return {-1, -1};
  }

  int least_occupied_instance(uint32_t op, int64_t cycle) {
    if (!p_.limited(op)) return -1;
    int best = 0;
    for (int k = 1; k < p_.limits[p_.resource[op]]; ++k)
      if (occupied(op, k, cycle) < occupied(op, best, cycle)) best = k;
    return best;
  }

  void place(uint32_t op, int64_t cycle, int instance) {
    if (instance >= 0)
      for (int64_t b = 0; b < p_.busy[op]; ++b) {
        if (const uint32_t holder = cell(op, instance, cycle + b); holder != kFree) unplace(holder);
        cell(op, instance, cycle + b) = op;
      }
    for (uint32_t e : g_.out_of(op)) {
      const ModuloDependence& d = p_.deps[e];
      if (d.to != op && placed_[d.to] && start_[d.to] + ii_ * d.distance < cycle + d.delay) unplace(d.to);
    }
    start_[op] = previous_[op] = cycle;
    instance_[op] = instance;
    placed_[op] = true;
    --unplaced_;
  }

  void unplace(uint32_t op) {
    if (instance_[op] >= 0)
      for (int64_t b = 0; b < p_.busy[op]; ++b) cell(op, instance_[op], start_[op] + b) = kFree;
    instance_[op] = -1;
    placed_[op] = false;
    ++unplaced_;
    queue_.push(rank_[op]);
  }

  const ModuloProblem& p_;
  const ModuloGraph& g_;
  const int64_t ii_;
  std::vector<int64_t> start_, previous_;  // previous_: the op's last place, -1 before any
  std::vector<int> instance_, placements_of_;
  std::vector<bool> placed_;
  std::vector<std::vector<uint32_t>> mrt_;  // per resource, instance-major rows of II slots
  std::vector<uint32_t> by_rank_, rank_;
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> queue_;  // ranks, best first
  size_t unplaced_ = 0;
  int64_t placements_ = 0;
};

// An II at which the ops could run one after another, each after the previous one's
// latency, busy time and delays: the automatic end of the search.
int64_t serial_ii(const ModuloProblem& p) {
  std::vector<int64_t> span(p.size(), 0);
  for (size_t op = 0; op < p.size(); ++op) span[op] = std::max(p.latency[op], p.busy[op]);
  for (const ModuloDependence& d : p.deps) span[d.from] = std::max(span[d.from], d.delay);
  int64_t total = 1;
  for (int64_t s : span) total += s;
  return total;
}

// Which bound sets the MII, and in words.
std::pair<IiLimit, std::string> mii_bound(const ModuloProblem& p, const ModuloSchedule& s) {
  const bool resources = s.res.ii == s.mii, recurrence = s.rec.ii == s.mii;
  if (resources && recurrence)
    return {IiLimit::kResourcesAndRecurrence, describe(p, s.res) + "; " + describe(p, s.rec)};
  if (resources) return {IiLimit::kResources, describe(p, s.res)};
  if (recurrence) return {IiLimit::kRecurrence, describe(p, s.rec)};
  return {IiLimit::kNothing, {}};  // MII 1 with no bound at 1
}

// Sets s.limit and s.reason once the search is over; `first` and `last` are the IIs
// the search covered.
void explain(const ModuloProblem& p, ModuloSchedule& s, int64_t first, int64_t last, int64_t budget) {
  auto [bound_limit, bound] = mii_bound(p, s);
  const std::string of_bound = bound.empty() ? "" : "; the bound: " + bound;
  auto not_found_between = [&](int64_t to) {
    return fmt::format("no modulo schedule found at II {}..{} within {} placements each", first, to, budget);
  };
  if (!s.found) {
    s.limit = IiLimit::kSearch;
    s.reason = (first > last ? fmt::format("the largest II allowed ({}) is below {}, the first to try", last, first)
                             : not_found_between(last)) +
               of_bound;
  } else if (s.ii == 1) {
    s.limit = IiLimit::kNothing;
  } else if (s.ii == s.mii) {
    s.limit = bound_limit;
    s.reason = bound;
  } else if (s.ii == s.target_ii) {
    s.limit = IiLimit::kRequested;
    s.reason = fmt::format("II {} as requested; the bounds allow {}", s.ii, s.mii) +
               (bound.empty() ? "" : " (" + bound + ")");
  } else {
    s.limit = IiLimit::kSearch;
    s.reason = not_found_between(s.ii - 1) + fmt::format(", II {} reached", s.ii) + of_bound;
  }
  if (s.target_ii > 0 && (!s.found || s.ii > s.target_ii))
    s.reason = fmt::format("target II {} not met, ", s.target_ii) +
               (s.found ? fmt::format("II {} reached: ", s.ii) : std::string("no II reached: ")) + s.reason;
}

}  // namespace

std::string_view ii_limit_name(IiLimit l) {
  switch (l) {
    case IiLimit::kNothing: return "nothing";
    case IiLimit::kRequested: return "requested";
    case IiLimit::kResources: return "resources";
    case IiLimit::kRecurrence: return "recurrence";
    case IiLimit::kResourcesAndRecurrence: return "resources and recurrence";
    case IiLimit::kSearch: return "search";
  }
  return "?";
}

ModuloSchedule schedule_modulo(const ModuloProblem& p, const ModuloOptions& o) {
  const ModuloGraph g = modulo_graph(p);
  ModuloSchedule s;
  s.res = res_mii(p);
  s.rec = rec_mii(p, g);
  s.target_ii = o.target_ii;
  s.mii = std::max({int64_t{1}, s.res.ii, s.rec.ii});
  const int64_t first = std::max(s.mii, o.target_ii);
  const int64_t last = o.max_ii > 0 ? o.max_ii : std::max(first, serial_ii(p));
  const int64_t budget = int64_t{o.budget_ratio} * static_cast<int64_t>(std::max<size_t>(p.size(), 1));
  for (int64_t ii = first; ii <= last && !s.found; ++ii) {
    IterativeModuloScheduler attempt(p, g, ii);
    s.found = attempt.run(budget);
    s.placements += attempt.placements();
    if (!s.found) continue;
    s.ii = ii;
    s.start = attempt.starts();
    s.instance = attempt.instances();
    s.length = iteration_length(p, s.start);
    s.stages = stage_count(p, s.length, ii);
  }
  explain(p, s, first, last, budget);
  return s;
}

}  // namespace hlsgym::hwmodel
