#include "hwmodel/schedule_problem.h"

#include <algorithm>

#include "hwmodel/task_graph.h"

namespace hlsgym::hwmodel {

int64_t schedule_length(const ScheduleProblem& p, std::span<const int64_t> start) {
  int64_t len = 0;
  for (size_t t = 0; t < p.size(); ++t) len = std::max(len, start[t] + p.latency[t]);
  return len;
}

Successors successors(const ScheduleProblem& p) {
  Successors s;
  const size_t n = p.size();
  s.offset.assign(n + 1, 0);
  for (uint32_t d : p.deps) ++s.offset[d + 1];
  for (size_t t = 0; t < n; ++t) s.offset[t + 1] += s.offset[t];
  s.succ.resize(p.deps.size());
  std::vector<uint32_t> fill(s.offset.begin(), s.offset.end() - 1);
  for (size_t t = 0; t < n; ++t)
    for (uint32_t d : p.deps_of(t)) s.succ[fill[d]++] = static_cast<uint32_t>(t);
  return s;
}

std::vector<int64_t> tail_lengths(const ScheduleProblem& p, const Successors& s) {
  const size_t n = p.size();
  std::vector<int64_t> tail(n, 0);
  for (size_t k = n; k-- > 0;) {
    int64_t after = 0;
    for (uint32_t j = s.offset[k]; j < s.offset[k + 1]; ++j) after = std::max(after, tail[s.succ[j]]);
    tail[k] = p.latency[k] + after;
  }
  return tail;
}

namespace {
// Earliest start of each task ignoring resources (the ASAP start).
std::vector<int64_t> heads(const ScheduleProblem& p) {
  std::vector<int64_t> head(p.size(), 0);
  for (size_t t = 0; t < p.size(); ++t)
    for (uint32_t d : p.deps_of(t)) head[t] = std::max(head[t], head[d] + p.latency[d]);
  return head;
}
}  // namespace

int64_t critical_path_bound(const ScheduleProblem& p) {
  const auto head = heads(p);
  int64_t len = 0;
  for (size_t t = 0; t < p.size(); ++t) len = std::max(len, head[t] + p.latency[t]);
  return len;
}

int64_t resource_bound(const ScheduleProblem& p) {
  const auto head = heads(p);
  const auto tail = tail_lengths(p, successors(p));
  const size_t r_count = p.limits.size();
  std::vector<int64_t> total(r_count, 0), first(r_count, INT64_MAX), rest(r_count, INT64_MAX);
  for (size_t t = 0; t < p.size(); ++t) {
    if (!p.limited(t)) continue;
    const uint16_t r = p.resource[t];
    total[r] += p.busy[t];
    first[r] = std::min(first[r], head[t]);
    rest[r] = std::min(rest[r], tail[t] - p.busy[t]);
  }
  int64_t bound = 0;
  for (size_t r = 0; r < r_count; ++r) {
    if (total[r] == 0) continue;
    const int64_t c = p.limits[r];
    bound = std::max(bound, first[r] + (total[r] + c - 1) / c + rest[r]);
  }
  return bound;
}

ScheduleProblem make_problem(const TaskGraph& g, std::span<const uint16_t> resource_of_unit,
                             std::vector<int> limits, std::vector<std::string> names) {
  ScheduleProblem p;
  const size_t n = g.size();
  p.latency.reserve(n);
  p.busy.reserve(n);
  p.resource.reserve(n);
  p.dep_offset.reserve(n + 1);
  p.deps.reserve(g.deps.size());
  for (size_t t = 0; t < n; ++t) {
    const Task& k = g.tasks[t];
    const uint16_t r = k.unit == kNoUnit ? kUnlimited : resource_of_unit[k.unit];
    p.add_task(k.latency, k.busy, r, g.deps_of(t));
  }
  p.limits = std::move(limits);
  p.resource_names = std::move(names);
  return p;
}

}  // namespace hlsgym::hwmodel
