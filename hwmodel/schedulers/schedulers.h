// The algorithms that solve a ScheduleProblem (schedule_problem.h):
// - asap: every task at its earliest dependence-feasible start; resources ignored.
// - alap: every task as late as possible within the ASAP length; resources ignored.
// - list: resource-constrained list scheduling, event driven, O(n log n): at each event
//   time the ready task with the longest tail (path to the end) gets a free instance.
// - exact: branch and bound over serial schedule-generation orders (tasks placed in
//   non-decreasing start order, each at its earliest feasible time, which enumerates
//   every active schedule and so contains an optimal one), pruned by critical-path
//   and resource bounds; starts from the list schedule; stops after `node_limit`
//   nodes and then says so (Schedule::hit_limit) with the best schedule found.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "hwmodel/schedule_problem.h"

namespace hlsgym::hwmodel {

enum class SchedulerKind : uint8_t { kAsap, kAlap, kList, kExact };
std::string_view scheduler_name(SchedulerKind k);
std::optional<SchedulerKind> scheduler_from_name(std::string_view name);
// Whether the kind respects resource limits (asap and alap do not).
inline bool respects_resources(SchedulerKind k) { return k == SchedulerKind::kList || k == SchedulerKind::kExact; }

Schedule schedule_asap(const ScheduleProblem& p);
Schedule schedule_alap(const ScheduleProblem& p);
Schedule schedule_list(const ScheduleProblem& p);

inline constexpr int64_t kDefaultExactNodeLimit = 2'000'000;
inline constexpr size_t kExactMaxTasks = 64;  // beyond this `exact` returns the list schedule
Schedule schedule_exact(const ScheduleProblem& p, int64_t node_limit = kDefaultExactNodeLimit);

Schedule run_scheduler(SchedulerKind k, const ScheduleProblem& p, int64_t exact_node_limit = kDefaultExactNodeLimit);

}  // namespace hlsgym::hwmodel
