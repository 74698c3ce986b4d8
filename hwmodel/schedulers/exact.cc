// Exact scheduling by branch and bound (small graphs, about 25 tasks).
//
// Search space: serial schedule generation. A node is a sequence of placed tasks; a
// child places one more dependence-ready task at the earliest time its dependences and
// resource limits allow. Every active schedule (no task can start earlier without
// moving another) is produced by placing its tasks in order of (start, index), and an
// optimal active schedule always exists, so the search only follows sequences whose
// (start, index) pairs increase: this removes the permutations that give the same
// schedule. Bounds: every unplaced task starts no earlier than the last placed start
// and its predecessors' earliest finishes; its tail (longest path to the end) follows;
// per resource, the unplaced busy time spread over its instances.
#include <algorithm>

#include "hwmodel/schedulers/schedulers.h"

namespace hlsgym::hwmodel {
namespace {

struct Interval {
  int64_t start, end;
};

class BranchAndBound {
 public:
  BranchAndBound(const ScheduleProblem& p, int64_t node_limit)
      : p_(p), succ_(successors(p)), tail_(tail_lengths(p, succ_)), node_limit_(node_limit),
        placed_(p.size(), false), start_(p.size(), 0), lb_start_(p.size(), 0), held_(p.limits.size()) {}

  Schedule run() {
    Schedule best = schedule_list(p_);
    best_len_ = best.length;
    best_start_ = best.start;
    search(0, -1, -1, 0);
    Schedule s;
    s.start = std::move(best_start_);
    s.length = best_len_;
    s.nodes = nodes_;
    s.hit_limit = nodes_ >= node_limit_;
    s.optimal = !s.hit_limit;
    return s;
  }

 private:
  // Earliest start >= from at which `t` can hold an instance of its resource for busy cycles.
  int64_t earliest_feasible(size_t t, int64_t from) const {
    if (!p_.limited(t)) return from;
    const auto& iv = held_[p_.resource[t]];
    const int cap = p_.limits[p_.resource[t]];
    std::vector<int64_t> cand{from};
    for (const Interval& i : iv)
      if (i.end > from) cand.push_back(i.end);
    std::sort(cand.begin(), cand.end());
    for (int64_t x : cand)
      if (fits(iv, cap, x, x + p_.busy[t])) return x;
    return cand.back();  // unreachable: after the last end every instance is free
  }
  static bool fits(const std::vector<Interval>& iv, int cap, int64_t a, int64_t b) {
    // The overlap count over [a, b) peaks at a or at some interval start inside it.
    auto count_at = [&](int64_t y) {
      int n = 0;
      for (const Interval& i : iv) n += i.start <= y && y < i.end;
      return n;
    };
    if (count_at(a) >= cap) return false;
    for (const Interval& i : iv)
      if (i.start > a && i.start < b && count_at(i.start) >= cap) return false;
    return true;
  }

  int64_t est(size_t t) const {
    int64_t e = 0;
    for (uint32_t d : p_.deps_of(t)) e = std::max(e, start_[d] + p_.latency[d]);
    return e;
  }

  int64_t lower_bound(int64_t last_start, int64_t makespan) {
    int64_t lb = makespan;
    std::vector<int64_t> busy_sum(p_.limits.size(), 0), base(p_.limits.size(), INT64_MAX),
        rest(p_.limits.size(), INT64_MAX);
    for (size_t t = 0; t < p_.size(); ++t) {
      if (placed_[t]) continue;
      int64_t s = last_start < 0 ? 0 : last_start;
      for (uint32_t d : p_.deps_of(t))
        s = std::max(s, (placed_[d] ? start_[d] : lb_start_[d]) + p_.latency[d]);
      lb_start_[t] = s;
      lb = std::max(lb, s + tail_[t]);
      if (!p_.limited(t)) continue;
      const uint16_t r = p_.resource[t];
      busy_sum[r] += p_.busy[t];
      base[r] = std::min(base[r], s);
      rest[r] = std::min(rest[r], tail_[t] - p_.busy[t]);
    }
    for (size_t r = 0; r < busy_sum.size(); ++r)
      if (busy_sum[r] > 0) lb = std::max(lb, base[r] + (busy_sum[r] + p_.limits[r] - 1) / p_.limits[r] + rest[r]);
    return lb;
  }

  void search(size_t placed_count, int64_t last_start, int64_t last_index, int64_t makespan) {
    if (nodes_ >= node_limit_) return;
    ++nodes_;
    if (placed_count == p_.size()) {
      if (makespan < best_len_) best_len_ = makespan, best_start_ = start_;
      return;
    }
    if (lower_bound(last_start, makespan) >= best_len_) return;
    struct Child {
      int64_t start;
      uint32_t task;
    };
    std::vector<Child> children;
    for (size_t t = 0; t < p_.size(); ++t) {
      if (placed_[t] || !ready(t)) continue;
      const int64_t s = earliest_feasible(t, est(t));
      if (s < last_start || (s == last_start && static_cast<int64_t>(t) < last_index)) continue;
      children.push_back({s, static_cast<uint32_t>(t)});
    }
    // Most promising first, so good schedules (and tight pruning) come early.
    std::sort(children.begin(), children.end(), [&](const Child& a, const Child& b) {
      return a.start + tail_[a.task] > b.start + tail_[b.task];
    });
    for (const Child& c : children) {
      place(c.task, c.start);
      search(placed_count + 1, c.start, c.task, std::max(makespan, c.start + p_.latency[c.task]));
      unplace(c.task);
      if (nodes_ >= node_limit_) return;
    }
  }

  bool ready(size_t t) const {
    for (uint32_t d : p_.deps_of(t))
      if (!placed_[d]) return false;
    return true;
  }
  void place(uint32_t t, int64_t s) {
    placed_[t] = true;
    start_[t] = s;
    if (p_.limited(t)) held_[p_.resource[t]].push_back({s, s + p_.busy[t]});
  }
  void unplace(uint32_t t) {
    placed_[t] = false;
    if (p_.limited(t)) held_[p_.resource[t]].pop_back();
  }

  const ScheduleProblem& p_;
  Successors succ_;
  std::vector<int64_t> tail_;
  int64_t node_limit_;
  std::vector<bool> placed_;
  std::vector<int64_t> start_, lb_start_;
  std::vector<std::vector<Interval>> held_;
  int64_t best_len_ = 0, nodes_ = 0;
  std::vector<int64_t> best_start_;
};

}  // namespace

Schedule schedule_exact(const ScheduleProblem& p, int64_t node_limit) {
  if (p.size() > kExactMaxTasks) {
    Schedule s = schedule_list(p);
    s.hit_limit = true;  // too big to search: the list schedule, not proven optimal
    return s;
  }
  return BranchAndBound(p, node_limit).run();
}

}  // namespace hlsgym::hwmodel
