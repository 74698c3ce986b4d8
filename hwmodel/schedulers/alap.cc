// ALAP: within the ASAP length L, every task starts as late as its successors allow:
// start = min over successors of their start, minus its latency; sinks end at L.
#include <algorithm>

#include "hwmodel/schedulers/schedulers.h"

namespace hlsgym::hwmodel {

Schedule schedule_alap(const ScheduleProblem& p) {
  const Schedule asap = schedule_asap(p);
  const Successors s = successors(p);
  Schedule out;
  out.start.assign(p.size(), 0);
  for (size_t k = p.size(); k-- > 0;) {
    int64_t finish = asap.length;
    for (uint32_t j = s.offset[k]; j < s.offset[k + 1]; ++j) finish = std::min(finish, out.start[s.succ[j]]);
    out.start[k] = finish - p.latency[k];
  }
  out.length = schedule_length(p, out.start);
  return out;
}

}  // namespace hlsgym::hwmodel
