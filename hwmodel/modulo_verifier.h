// Checks a modulo schedule against its problem (the semantics in modulo_problem.h),
// without the scheduler's data structures: II >= 1 and a non-negative start per op;
// every dependence, start[j] + distance * II >= start[i] + delay; busy <= II for every
// op on a limited resource; the modulo reservation table, per resource and slot
// t mod II, counting every busy cycle, within the limit; when instances are given
// (the scheduler gives them), each in range and never held twice in one slot; and the
// stated length and stage count.
#pragma once
#include <string>

#include "hwmodel/modulo_problem.h"
#include "hwmodel/schedulers/modulo.h"

namespace hlsgym::hwmodel {

// Empty when the schedule is valid; otherwise the first violation found, in words.
std::string verify_modulo_schedule(const ModuloProblem& p, const ModuloSchedule& s);

}  // namespace hlsgym::hwmodel
