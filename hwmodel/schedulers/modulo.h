// Iterative modulo scheduling (Rau 1994) of a ModuloProblem (modulo_problem.h).
//
// II starts at max(ResMII, RecMII, 1, the requested II) (modulo_bounds.h) and grows by
// one until a schedule is found or `max_ii` is passed. At one II, ops are taken by
// height (longest path to the end of the iteration under delay - II * distance, Rau's
// HeightR; ties in intra-iteration order) and each goes to the first cycle from its
// earliest start (over its placed predecessors) on which some instance of its resource
// has every slot of its busy cycles free in the modulo reservation table (a row per
// instance). When no cycle in II consecutive ones fits, it is placed anyway, at its
// earliest start or one cycle after its previous place, and the ops on its slots of the
// least occupied instance and the placed successors whose dependence it now breaks
// are unplaced and queued again. An op placed more than a few times at one II looks
// only up to the latest start its placed successors allow, so that it evicts resource
// holders rather than chase its successors around a full table. The attempt fails
// after budget_ratio placements per op.
//
// The result says which bound holds the II up (`limit`, `reason`): a resource, a
// recurrence, the requested II, or the search itself when it found nothing at the bound.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hwmodel/modulo_bounds.h"
#include "hwmodel/modulo_problem.h"

namespace hlsgym::hwmodel {

struct ModuloOptions {
  int64_t target_ii = 0;  // the II asked for; 0: the smallest one found
  int64_t max_ii = 0;     // give up above it; 0: the II at which ops could run one after another
  int budget_ratio = 6;   // placements per op at one II before trying the next
};

// What keeps the II where it is.
enum class IiLimit : uint8_t {
  kNothing,                 // II 1
  kRequested,               // the target II, above every bound
  kResources,               // ResMII
  kRecurrence,              // RecMII
  kResourcesAndRecurrence,  // both, equal
  kSearch,                  // no schedule found at the bound within the budget
};
std::string_view ii_limit_name(IiLimit l);

struct ModuloSchedule {
  bool found = false;
  int64_t ii = 0, target_ii = 0, mii = 0;  // mii = max(ResMII, RecMII, 1)
  std::vector<int64_t> start;
  std::vector<int> instance;  // per op, the instance of its resource it holds; -1 for none
  int64_t length = 0;         // iteration_length
  int64_t stages = 0;         // stage_count
  ResourceMii res;
  RecurrenceMii rec;
  IiLimit limit = IiLimit::kNothing;
  std::string reason;      // empty for II 1; else what keeps it up (and the target missed)
  int64_t placements = 0;  // over every II tried
};

// Throws hlsgym::Error when the problem is not well formed (modulo_problem_error).
ModuloSchedule schedule_modulo(const ModuloProblem& p, const ModuloOptions& o = {});

}  // namespace hlsgym::hwmodel
