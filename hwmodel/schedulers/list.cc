// Resource-constrained list scheduling, event driven so that the cost is O((n + e) log n)
// whatever the latencies (a cycle-by-cycle loop would cost O(cycles)).
//
// Time jumps from event to event: a task becoming dependence-ready (all predecessors
// started, its earliest start reached) or a unit instance being released. At each event
// time, ready tasks without a limited resource start at once; for each limited
// resource, free instances go to the ready tasks with the longest tail (longest path to
// the end of the graph, the classic critical-path priority), ties to the earlier task.
// The schedule is non-delay: no free instance idles while a task for it is ready.
#include <algorithm>

#include "hwmodel/schedulers/schedulers.h"

namespace hlsgym::hwmodel {
namespace {

struct Event {
  int64_t time;
  uint32_t id;  // task (arrival) or resource (release)
};
struct Later {  // min-heap on time, then id (deterministic)
  bool operator()(const Event& a, const Event& b) const {
    return a.time != b.time ? a.time > b.time : a.id > b.id;
  }
};

class ListScheduler {
 public:
  explicit ListScheduler(const ScheduleProblem& p)
      : p_(p), succ_(successors(p)), tail_(tail_lengths(p, succ_)), remaining_(p.size()),
        est_(p.size(), 0), ready_(p.limits.size()), free_(p.limits.begin(), p.limits.end()) {
    arrivals_.reserve(p.size());
    releases_.reserve(p.size());
    out_.start.assign(p.size(), 0);
    out_.order.reserve(p.size());
    is_dirty_.assign(p.limits.size(), false);
  }

  Schedule run() {
    for (size_t t = 0; t < p_.size(); ++t) {
      remaining_[t] = static_cast<uint32_t>(p_.dep_offset[t + 1] - p_.dep_offset[t]);
      if (remaining_[t] == 0) push(arrivals_, {0, static_cast<uint32_t>(t)});
    }
    size_t done = 0;
    while (done < p_.size()) {
      const int64_t now = next_time();
      if (now == INT64_MAX) break;  // unreachable for a valid problem (deps point back)
      while (!releases_.empty() && releases_.front().time <= now) {
        const uint32_t r = pop(releases_).id;
        ++free_[r];
        mark(r);
      }
      // Zero-latency tasks make successors ready at `now` again: repeat until quiet.
      // Only resources that got a ready task or a free instance are looked at.
      bool progress = true;
      while (progress) {
        progress = false;
        while (!arrivals_.empty() && arrivals_.front().time <= now) {
          const uint32_t t = pop(arrivals_).id;
          if (p_.limited(t)) push_ready(t), mark(p_.resource[t]);
          else start(t, now), ++done, progress = true;
        }
        while (!dirty_.empty()) {
          const uint16_t r = dirty_.back();
          dirty_.pop_back();
          is_dirty_[r] = false;
          while (free_[r] > 0 && !ready_[r].empty()) {
            const uint32_t t = pop_ready(r);
            --free_[r];
            push(releases_, {now + p_.busy[t], r});
            start(t, now), ++done, progress = true;
          }
        }
      }
    }
    out_.length = schedule_length(p_, out_.start);
    return std::move(out_);
  }

 private:
  void mark(uint32_t r) {
    if (!is_dirty_[r]) is_dirty_[r] = true, dirty_.push_back(static_cast<uint16_t>(r));
  }
  int64_t next_time() const {
    int64_t t = INT64_MAX;
    if (!arrivals_.empty()) t = arrivals_.front().time;
    if (!releases_.empty()) t = std::min(t, releases_.front().time);
    return t;
  }
  void start(uint32_t t, int64_t now) {
    out_.start[t] = now;
    out_.order.push_back(t);  // `now` never decreases
    const int64_t finish = now + p_.latency[t];
    for (uint32_t j = succ_.offset[t]; j < succ_.offset[t + 1]; ++j) {
      const uint32_t s = succ_.succ[j];
      est_[s] = std::max(est_[s], finish);
      if (--remaining_[s] == 0) push(arrivals_, {est_[s], s});
    }
  }
  static void push(std::vector<Event>& h, Event e) {
    h.push_back(e);
    std::push_heap(h.begin(), h.end(), Later{});
  }
  static Event pop(std::vector<Event>& h) {
    std::pop_heap(h.begin(), h.end(), Later{});
    const Event e = h.back();
    h.pop_back();
    return e;
  }
  // Ready heaps are max-heaps on (tail, -index).
  bool before(uint32_t a, uint32_t b) const { return tail_[a] != tail_[b] ? tail_[a] < tail_[b] : a > b; }
  void push_ready(uint32_t t) {
    auto& h = ready_[p_.resource[t]];
    h.push_back(t);
    std::push_heap(h.begin(), h.end(), [this](uint32_t a, uint32_t b) { return before(a, b); });
  }
  uint32_t pop_ready(size_t r) {
    auto& h = ready_[r];
    std::pop_heap(h.begin(), h.end(), [this](uint32_t a, uint32_t b) { return before(a, b); });
    const uint32_t t = h.back();
    h.pop_back();
    return t;
  }

  const ScheduleProblem& p_;
  Successors succ_;
  std::vector<int64_t> tail_;
  std::vector<uint32_t> remaining_;
  std::vector<int64_t> est_;
  std::vector<std::vector<uint32_t>> ready_;
  std::vector<int> free_;
  std::vector<uint16_t> dirty_;
  std::vector<bool> is_dirty_;
  std::vector<Event> arrivals_, releases_;
  Schedule out_;
};

}  // namespace

Schedule schedule_list(const ScheduleProblem& p) { return ListScheduler(p).run(); }

}  // namespace hlsgym::hwmodel
