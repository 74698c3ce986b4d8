#include "hwmodel/modulo_bounds.h"

#include <algorithm>

#include <fmt/core.h>

#include "hwmodel/timing.h"

namespace hlsgym::hwmodel {
namespace {

constexpr uint32_t kNoDep = UINT32_MAX;

std::string count_of(int64_t n, const char* noun) { return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s"); }

// A cycle of the graph where each op points along the dependence that last raised its
// value (`via`), as dependence indices in dependence order; empty when there is none.
// Any such cycle has a positive weight: the dependence that closed it raised a value
// that the rest of the cycle had already passed on.
std::vector<uint32_t> cycle_of_via(const ModuloProblem& p, const std::vector<uint32_t>& via, bool forward) {
  const size_t n = p.size();
  auto next = [&](uint32_t op) { return forward ? p.deps[via[op]].from : p.deps[via[op]].to; };
  std::vector<uint32_t> walk_of(n, UINT32_MAX);  // the walk that first reached each op
  for (uint32_t root = 0; root < n; ++root) {
    uint32_t op = root;
    while (walk_of[op] == UINT32_MAX && via[op] != kNoDep) {
      walk_of[op] = root;
      op = next(op);
    }
    if (walk_of[op] != root) continue;  // ended at an op without `via` or on an older walk
    std::vector<uint32_t> cycle;
    uint32_t k = op;
    do {
      cycle.push_back(via[k]);
      k = next(k);
    } while (k != op);
    if (forward) std::reverse(cycle.begin(), cycle.end());  // the walk went against the dependences
    return cycle;
  }
  return {};
}

// Rotated to start at its lowest-numbered op, so that the same recurrence always reads
// the same way.
void start_at_lowest_op(const ModuloProblem& p, std::vector<uint32_t>& cycle) {
  const auto first = std::min_element(cycle.begin(), cycle.end(), [&](uint32_t a, uint32_t b) {
    return p.deps[a].from < p.deps[b].from;
  });
  std::rotate(cycle.begin(), first, cycle.end());
}

}  // namespace

ModuloPaths longest_paths(const ModuloProblem& p, const ModuloGraph& g, int64_t ii, PathDirection direction) {
  const bool forward = direction == PathDirection::kFromSources;
  const size_t n = p.size();
  ModuloPaths paths;
  paths.value.assign(n, 0);
  std::vector<uint32_t> via(n, kNoDep);
  // A sweep in g.order (reversed to the sinks) settles every path of distance-0
  // dependences, so a path with L loop-carried dependences is settled after L + 1
  // sweeps and every simple path after g.loop_carried + 1. A value still rising after
  // that exceeds every simple path to its op, which its chain of `via` dependences
  // bounds unless that chain closes a cycle, which is then positive.
  for (size_t sweep = 1;; ++sweep) {
    bool changed = false;
    for (size_t k = 0; k < n; ++k) {
      const uint32_t op = forward ? g.order[k] : g.order[n - 1 - k];
      for (uint32_t e : forward ? g.out_of(op) : g.in_of(op)) {
        const ModuloDependence& d = p.deps[e];
        const uint32_t other = forward ? d.to : d.from;
        const int64_t reached = paths.value[op] + d.delay - ii * d.distance;
        if (reached > paths.value[other]) {
          paths.value[other] = reached;
          via[other] = e;
          changed = true;
        }
      }
    }
    if (!changed) return paths;
    if (sweep > g.loop_carried + 1) {
      paths.positive_cycle = cycle_of_via(p, via, forward);
      if (!paths.positive_cycle.empty()) return paths;
    }
  }
}

ResourceMii res_mii(const ModuloProblem& p) {
  const size_t r_count = p.limits.size();
  std::vector<int64_t> uses(r_count, 0), cycles(r_count, 0);
  std::vector<uint32_t> longest(r_count, kNoOp);
  for (uint32_t op = 0; op < p.size(); ++op) {
    if (!p.limited(op)) continue;
    const uint16_t r = p.resource[op];
    ++uses[r];
    cycles[r] += p.busy[op];
    if (longest[r] == kNoOp || p.busy[op] > p.busy[longest[r]]) longest[r] = op;
  }
  ResourceMii best;
  for (uint16_t r = 0; r < r_count; ++r) {
    if (uses[r] == 0) continue;
    const int64_t shared = ceil_div(cycles[r], p.limits[r]);
    const int64_t alone = p.busy[longest[r]];
    if (std::max(shared, alone) <= best.ii) continue;
    best = {std::max(shared, alone), r, uses[r], cycles[r], p.limits[r], alone > shared ? longest[r] : kNoOp};
  }
  return best;
}

RecurrenceMii rec_mii(const ModuloProblem& p, const ModuloGraph& g) {
  auto has_positive_cycle = [&](int64_t ii) {
    return !longest_paths(p, g, ii, PathDirection::kFromSources).positive_cycle.empty();
  };
  // Every cycle has distance >= 1 and, being simple, a delay of at most every delay
  // summed: no cycle is positive at that II.
  int64_t lo = 0, hi = 0;
  for (const ModuloDependence& d : p.deps) hi += d.delay;
  if (g.loop_carried == 0 || !has_positive_cycle(0)) return {};
  lo = 1;  // invariant: positive cycle at lo - 1, none at hi
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (has_positive_cycle(mid)) lo = mid + 1;
    else hi = mid;
  }
  RecurrenceMii rec;
  rec.ii = lo;
  rec.cycle = longest_paths(p, g, lo - 1, PathDirection::kFromSources).positive_cycle;
  start_at_lowest_op(p, rec.cycle);
  for (uint32_t e : rec.cycle) rec.delay += p.deps[e].delay, rec.distance += p.deps[e].distance;
  return rec;
}

std::string describe(const ModuloProblem& p, const ResourceMii& b) {
  if (b.ii == 0) return {};
  const std::string& name = p.resource_names[b.resource];
  if (b.long_op != kNoOp)
    return fmt::format("op {} holds its {} instance {} every iteration -> ResMII {}", p.names[b.long_op], name,
                       count_of(b.ii, "cycle"), b.ii);
  const std::string holding = b.busy_cycles == b.uses ? "of 1 cycle" : "holding it " + count_of(b.busy_cycles, "cycle");
  return fmt::format("resource {}: {} {} on {} -> ResMII {}", name, count_of(b.uses, "use"), holding,
                     count_of(b.limit, "instance"), b.ii);
}

std::string describe(const ModuloProblem& p, const RecurrenceMii& b) {
  if (b.ii == 0) return {};
  std::string ops = p.names[p.deps[b.cycle.front()].from];
  for (uint32_t e : b.cycle) ops += " -> " + p.names[p.deps[e].to];
  return fmt::format("recurrence {}: delay {} over distance {} -> RecMII {}", ops, b.delay, b.distance, b.ii);
}

}  // namespace hlsgym::hwmodel
