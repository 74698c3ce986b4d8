// ASAP: start = latest finish of the predecessors. Tasks are topologically ordered,
// so one forward pass suffices.
#include <algorithm>

#include "hwmodel/schedulers/schedulers.h"

namespace hlsgym::hwmodel {

Schedule schedule_asap(const ScheduleProblem& p) {
  Schedule s;
  s.start.assign(p.size(), 0);
  for (size_t t = 0; t < p.size(); ++t)
    for (uint32_t d : p.deps_of(t)) s.start[t] = std::max(s.start[t], s.start[d] + p.latency[d]);
  s.length = schedule_length(p, s.start);
  return s;
}

std::string_view scheduler_name(SchedulerKind k) {
  switch (k) {
    case SchedulerKind::kAsap: return "asap";
    case SchedulerKind::kAlap: return "alap";
    case SchedulerKind::kList: return "list";
    case SchedulerKind::kExact: return "exact";
  }
  return "?";
}

std::optional<SchedulerKind> scheduler_from_name(std::string_view name) {
  for (SchedulerKind k : {SchedulerKind::kAsap, SchedulerKind::kAlap, SchedulerKind::kList, SchedulerKind::kExact})
    if (scheduler_name(k) == name) return k;
  return std::nullopt;
}

Schedule run_scheduler(SchedulerKind k, const ScheduleProblem& p, int64_t exact_node_limit) {
  switch (k) {
    case SchedulerKind::kAsap: return schedule_asap(p);
    case SchedulerKind::kAlap: return schedule_alap(p);
    case SchedulerKind::kList: return schedule_list(p);
    case SchedulerKind::kExact: return schedule_exact(p, exact_node_limit);
  }
  return schedule_list(p);
}

}  // namespace hlsgym::hwmodel
