#include "hwmodel/modulo_verifier.h"

#include <fmt/core.h>

namespace hlsgym::hwmodel {
namespace {

std::string check_dependences(const ModuloProblem& p, const ModuloSchedule& s) {
  for (const ModuloDependence& d : p.deps) {
    const int64_t needed = s.start[d.from] + d.delay - d.distance * s.ii;
    if (s.start[d.to] < needed)
      return fmt::format("dependence {} -> {} (delay {}, distance {}): {} starts at {}, needs >= {} at II {}",
                         p.names[d.from], p.names[d.to], d.delay, d.distance, p.names[d.to], s.start[d.to], needed,
                         s.ii);
  }
  return {};
}

// Per resource, the ops that hold each slot of the reservation table.
std::string check_reservation_table(const ModuloProblem& p, const ModuloSchedule& s) {
  std::vector<std::vector<std::vector<uint32_t>>> holders(p.limits.size());
  for (uint32_t op = 0; op < p.size(); ++op) {
    if (!p.limited(op)) continue;
    if (p.busy[op] > s.ii)
      return fmt::format("op {} is busy {} cycles on {}, longer than II {}", p.names[op], p.busy[op],
                         p.resource_names[p.resource[op]], s.ii);
    auto& slots = holders[p.resource[op]];
    slots.resize(static_cast<size_t>(s.ii));
    for (int64_t c = s.start[op]; c < s.start[op] + p.busy[op]; ++c) slots[static_cast<size_t>(c % s.ii)].push_back(op);
  }
  for (size_t r = 0; r < holders.size(); ++r)
    for (size_t slot = 0; slot < holders[r].size(); ++slot) {
      const auto& ops = holders[r][slot];
      if (ops.size() <= static_cast<size_t>(p.limits[r])) continue;
      std::string names;
      for (uint32_t op : ops) names += (names.empty() ? "" : ", ") + p.names[op];
      return fmt::format("resource {}: slot {} of II {} is held {} times ({}), limit {}", p.resource_names[r], slot,
                         s.ii, ops.size(), names, p.limits[r]);
    }
  return {};
}

// Each op keeps its instance in every iteration: no two busy cycles on one instance may
// fall in the same slot.
std::string check_instances(const ModuloProblem& p, const ModuloSchedule& s) {
  if (s.instance.empty()) return {};
  if (s.instance.size() != p.size())
    return fmt::format("schedule has {} instances for {} ops", s.instance.size(), p.size());
  std::vector<std::vector<uint32_t>> holder(p.limits.size());  // per resource: instance-major slots
  for (uint32_t op = 0; op < p.size(); ++op) {
    if (!p.limited(op)) continue;
    const int k = s.instance[op], limit = p.limits[p.resource[op]];
    if (k < 0 || k >= limit)
      return fmt::format("op {} is on instance {} of {}, which has {}", p.names[op], k,
                         p.resource_names[p.resource[op]], limit);
    auto& slots = holder[p.resource[op]];
    slots.resize(static_cast<size_t>(limit * s.ii), UINT32_MAX);
    for (int64_t c = s.start[op]; c < s.start[op] + p.busy[op]; ++c) {
      uint32_t& h = slots[static_cast<size_t>(k * s.ii + c % s.ii)];
      if (h != UINT32_MAX)
        return fmt::format("resource {} instance {}: slot {} of II {} is held by {} and {}",
                           p.resource_names[p.resource[op]], k, c % s.ii, s.ii, p.names[h], p.names[op]);
      h = op;
    }
  }
  return {};
}

}  // namespace

std::string verify_modulo_schedule(const ModuloProblem& p, const ModuloSchedule& s) {
  if (std::string e = modulo_problem_error(p); !e.empty()) return "the problem is not well formed: " + e;
  if (!s.found) return "no schedule: " + s.reason;
  if (s.ii < 1) return fmt::format("II {} < 1", s.ii);
  if (s.start.size() != p.size()) return fmt::format("schedule has {} starts for {} ops", s.start.size(), p.size());
  for (size_t op = 0; op < p.size(); ++op)
    if (s.start[op] < 0) return fmt::format("op {} starts at {} < 0", p.names[op], s.start[op]);
  for (auto check : {check_dependences, check_reservation_table, check_instances})
    if (std::string issue = check(p, s); !issue.empty()) return issue;
  if (const int64_t length = iteration_length(p, s.start); length != s.length)
    return fmt::format("schedule says length {}, one iteration ends at {}", s.length, length);
  if (const int64_t stages = stage_count(p, s.length, s.ii); stages != s.stages)
    return fmt::format("schedule says {} stages, length {} at II {} is {}", s.stages, s.length, s.ii, stages);
  return {};
}

}  // namespace hlsgym::hwmodel
