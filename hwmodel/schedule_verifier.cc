#include "hwmodel/schedule_verifier.h"

#include <algorithm>

#include <fmt/core.h>

namespace hlsgym::hwmodel {
namespace {

// Resource use over time by a sweep over busy-interval ends: O(n log n), independent
// of the schedule length.
void check_resources(const ScheduleProblem& p, const Schedule& s, const VerifyOptions& o,
                     std::vector<std::string>& issues) {
  struct Edge {
    int64_t time;
    int delta;  // -1 (release) sorts before +1 (acquire) at the same cycle
    uint16_t resource;
  };
  std::vector<Edge> edges;
  edges.reserve(2 * p.size());
  for (size_t t = 0; t < p.size(); ++t)
    if (p.limited(t)) {
      edges.push_back({s.start[t], +1, p.resource[t]});
      edges.push_back({s.start[t] + p.busy[t], -1, p.resource[t]});
    }
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
    return a.time != b.time ? a.time < b.time : a.delta < b.delta;
  });
  std::vector<int> use(p.limits.size(), 0);
  std::vector<bool> reported(p.limits.size(), false);
  for (const Edge& e : edges) {
    use[e.resource] += e.delta;
    if (use[e.resource] > p.limits[e.resource] && !reported[e.resource] && issues.size() < o.max_issues) {
      reported[e.resource] = true;
      const std::string name = e.resource < p.resource_names.size() ? p.resource_names[e.resource]
                                                                     : std::to_string(e.resource);
      issues.push_back(fmt::format("resource {}: {} tasks hold it at cycle {}, limit {}", name, use[e.resource],
                                   e.time, p.limits[e.resource]));
    }
  }
}

}  // namespace

std::vector<std::string> verify_schedule(const ScheduleProblem& p, const Schedule& s, const VerifyOptions& o) {
  std::vector<std::string> issues;
  if (s.start.size() != p.size()) {
    issues.push_back(fmt::format("schedule has {} starts for {} tasks", s.start.size(), p.size()));
    return issues;
  }
  for (size_t t = 0; t < p.size() && issues.size() < o.max_issues; ++t) {
    if (s.start[t] < 0) issues.push_back(fmt::format("task {} starts at {} < 0", t, s.start[t]));
    for (uint32_t d : p.deps_of(t))
      if (s.start[t] < s.start[d] + p.latency[d] && issues.size() < o.max_issues)
        issues.push_back(fmt::format("task {} starts at {} before its dependence {} ends at {}", t, s.start[t], d,
                                     s.start[d] + p.latency[d]));
    if (p.busy[t] > p.latency[t] && issues.size() < o.max_issues)
      issues.push_back(fmt::format("task {} is busy {} cycles, longer than its latency {}", t, p.busy[t], p.latency[t]));
  }
  if (const int64_t len = schedule_length(p, s.start); len != s.length && issues.size() < o.max_issues)
    issues.push_back(fmt::format("schedule says length {}, tasks end at {}", s.length, len));
  if (!s.order.empty()) {
    std::vector<bool> seen(p.size(), false);
    bool ok = s.order.size() == p.size();
    for (size_t k = 0; ok && k < s.order.size(); ++k) {
      const uint32_t t = s.order[k];
      ok = t < p.size() && !seen[t] && (k == 0 || s.start[s.order[k - 1]] <= s.start[t]);
      if (ok) seen[t] = true;
    }
    if (!ok && issues.size() < o.max_issues) issues.push_back("schedule order is not every task by start time");
  }
  if (o.check_resources) check_resources(p, s, o, issues);
  return issues;
}

}  // namespace hlsgym::hwmodel
