// Checks a schedule against its problem (the semantics in schedule_problem.h):
// dependences (start[j] >= start[i] + latency[i]), non-negative starts, the stated
// length, and -- when asked -- resource limits at every cycle.
#pragma once
#include <string>
#include <vector>

#include "hwmodel/schedule_problem.h"

namespace hlsgym::hwmodel {

struct VerifyOptions {
  bool check_resources = true;  // asap/alap schedules ignore limits by definition
  size_t max_issues = 10;
};

// Empty when the schedule is valid; otherwise one line per violation found.
std::vector<std::string> verify_schedule(const ScheduleProblem& p, const Schedule& s,
                                         const VerifyOptions& o = {});

}  // namespace hlsgym::hwmodel
