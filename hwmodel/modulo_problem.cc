#include "hwmodel/modulo_problem.h"

#include <algorithm>

#include <fmt/core.h>

#include "hwmodel/timing.h"
#include "ir/error.h"

namespace hlsgym::hwmodel {
namespace {

// Dependence indices grouped by one endpoint (CSR), in dependence order within a group.
void group_deps(const ModuloProblem& p, uint32_t ModuloDependence::*endpoint, std::vector<uint32_t>& offset,
                std::vector<uint32_t>& items) {
  offset.assign(p.size() + 1, 0);
  for (const ModuloDependence& d : p.deps) ++offset[d.*endpoint + 1];
  for (size_t op = 0; op < p.size(); ++op) offset[op + 1] += offset[op];
  items.resize(p.deps.size());
  std::vector<uint32_t> fill(offset.begin(), offset.end() - 1);
  for (uint32_t e = 0; e < p.deps.size(); ++e) items[fill[p.deps[e].*endpoint]++] = e;
}

// Kahn's algorithm over the distance-0 dependences; fewer ops than p.size() come out
// when some of them lie on (or after) an intra-iteration cycle.
std::vector<uint32_t> intra_iteration_order(const ModuloProblem& p, const std::vector<uint32_t>& out_offset,
                                            const std::vector<uint32_t>& out) {
  std::vector<uint32_t> waiting(p.size(), 0), order;
  order.reserve(p.size());
  for (const ModuloDependence& d : p.deps) waiting[d.to] += d.distance == 0;
  for (uint32_t op = 0; op < p.size(); ++op)
    if (waiting[op] == 0) order.push_back(op);
  for (size_t k = 0; k < order.size(); ++k)
    for (uint32_t j = out_offset[order[k]]; j < out_offset[order[k] + 1]; ++j) {
      const ModuloDependence& d = p.deps[out[j]];
      if (d.distance == 0 && --waiting[d.to] == 0) order.push_back(d.to);
    }
  return order;
}

// Every op Kahn left behind waits on another one left behind, so walking such
// predecessors backwards must revisit an op: the walk from there is a cycle.
std::string name_intra_iteration_cycle(const ModuloProblem& p, const std::vector<uint32_t>& order) {
  std::vector<bool> ordered(p.size(), false);
  for (uint32_t op : order) ordered[op] = true;
  std::vector<uint32_t> waits_on(p.size(), 0);
  for (const ModuloDependence& d : p.deps)
    if (d.distance == 0 && !ordered[d.from]) waits_on[d.to] = d.from;
  const auto first = std::find(ordered.begin(), ordered.end(), false) - ordered.begin();
  std::vector<size_t> seen_at(p.size(), SIZE_MAX);
  std::vector<uint32_t> walk;
  for (auto op = static_cast<uint32_t>(first); seen_at[op] == SIZE_MAX; op = waits_on[op]) {
    seen_at[op] = walk.size();
    walk.push_back(op);
  }
  // The walk went against the dependences: the cycle, in dependence order, is the
  // reverse of its tail from the revisited op on.
  const uint32_t revisited = waits_on[walk.back()];
  std::string names = p.names[revisited];
  for (size_t k = walk.size(); k-- > seen_at[revisited];) names += " -> " + p.names[walk[k]];
  return fmt::format(
      "intra-iteration cycle {}: every dependence on it has distance 0, so an op would wait for itself within one "
      "iteration; a cycle must go through a loop-carried dependence (distance >= 1)",
      names);
}

std::string field_error(const ModuloProblem& p) {
  const size_t n = p.size();
  if (p.names.size() != n || p.busy.size() != n || p.resource.size() != n)
    return fmt::format("modulo problem has {} latencies but {} names, {} busy counts and {} resources", n,
                       p.names.size(), p.busy.size(), p.resource.size());
  if (p.resource_names.size() != p.limits.size())
    return fmt::format("modulo problem has {} resource limits but {} resource names", p.limits.size(),
                       p.resource_names.size());
  for (size_t op = 0; op < n; ++op) {
    if (p.latency[op] < 0 || p.busy[op] < 0)
      return fmt::format("op {}: latency {} and busy {} must not be negative", p.names[op], p.latency[op], p.busy[op]);
    if (p.resource[op] != kUnlimited && p.resource[op] >= p.limits.size())
      return fmt::format("op {}: resource {} does not exist ({} resources)", p.names[op], p.resource[op],
                         p.limits.size());
  }
  for (const ModuloDependence& d : p.deps) {
    if (d.from >= n || d.to >= n) return fmt::format("dependence {} -> {}: no such op ({} ops)", d.from, d.to, n);
    if (d.delay < 0 || d.distance < 0)
      return fmt::format("dependence {} -> {}: delay {} and distance {} must not be negative", p.names[d.from],
                         p.names[d.to], d.delay, d.distance);
  }
  return {};
}

}  // namespace

int64_t iteration_length(const ModuloProblem& p, std::span<const int64_t> start) {
  int64_t length = 0;
  for (size_t op = 0; op < p.size(); ++op) length = std::max(length, start[op] + p.latency[op]);
  return length;
}

int64_t stage_count(const ModuloProblem& p, int64_t length, int64_t ii) {
  return p.size() == 0 ? 0 : std::max<int64_t>(1, ceil_div(length, ii));
}

std::string modulo_problem_error(const ModuloProblem& p) {
  if (std::string e = field_error(p); !e.empty()) return e;
  std::vector<uint32_t> out_offset, out;
  group_deps(p, &ModuloDependence::from, out_offset, out);
  const auto order = intra_iteration_order(p, out_offset, out);
  return order.size() == p.size() ? std::string() : name_intra_iteration_cycle(p, order);
}

ModuloGraph modulo_graph(const ModuloProblem& p) {
  if (std::string e = field_error(p); !e.empty()) throw Error(e);
  ModuloGraph g;
  group_deps(p, &ModuloDependence::from, g.out_offset, g.out);
  group_deps(p, &ModuloDependence::to, g.in_offset, g.in);
  g.order = intra_iteration_order(p, g.out_offset, g.out);
  if (g.order.size() != p.size()) throw Error(name_intra_iteration_cycle(p, g.order));
  g.loop_carried = static_cast<size_t>(
      std::count_if(p.deps.begin(), p.deps.end(), [](const ModuloDependence& d) { return d.distance > 0; }));
  return g;
}

}  // namespace hlsgym::hwmodel
