// Lower bounds on the II of any modulo schedule of a ModuloProblem, each with what sets
// it, so that a report can say why a loop's II is above 1 or above its target.
//
// - ResMII: per limited resource r, ceil(busy cycles of its ops per iteration / limit):
//   the modulo reservation table has II slots per instance. An op busy longer than that
//   raises the bound to its busy cycles (busy > II is infeasible, modulo_problem.h).
// - RecMII: per cycle of dependences C, sum of delays D(C) over sum of distances K(C)
//   >= 1, since start[j] + k II >= start[i] + d summed around C gives II K(C) >= D(C);
//   RecMII = max over cycles of ceil(D(C) / K(C)), 0 without a cycle of positive delay.
//   Found exactly as the smallest II at which no cycle has a positive weight under
//   delay - II * distance (a binary search over II, each probe a longest-path sweep).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hwmodel/modulo_problem.h"

namespace hlsgym::hwmodel {

inline constexpr uint32_t kNoOp = UINT32_MAX;

struct ResourceMii {
  int64_t ii = 0;                  // 0: no op holds a limited resource
  uint16_t resource = kUnlimited;  // the resource that sets it (the first one on a tie)
  int64_t uses = 0, busy_cycles = 0;  // per iteration, on that resource
  int limit = 0;
  uint32_t long_op = kNoOp;  // set when one op's busy cycles set the bound
};
ResourceMii res_mii(const ModuloProblem& p);

struct RecurrenceMii {
  int64_t ii = 0;                // 0: no cycle of positive delay
  std::vector<uint32_t> cycle;   // a recurrence that needs `ii`: dependence indices in order
  int64_t delay = 0, distance = 0;  // summed around it: ii = ceil(delay / distance)
};
RecurrenceMii rec_mii(const ModuloProblem& p, const ModuloGraph& g);

// "resource mul: 4 uses of 1 cycle on 1 instance -> ResMII 4";
// "recurrence acc -> add -> acc: delay 3 over distance 1 -> RecMII 3". Empty for ii 0.
std::string describe(const ModuloProblem& p, const ResourceMii& b);
std::string describe(const ModuloProblem& p, const RecurrenceMii& b);

// Longest paths under the weights delay - ii * distance, every op starting from 0:
// from the sources, value[j] = max(0, value[i] + weight(i -> j)), the earliest start of
// each op at `ii` (resources aside); to the sinks, value[i] = max(0, value[j] +
// weight(i -> j)), Rau's height of i. When some cycle has a positive weight there are no
// such values, and `positive_cycle` holds one (dependence indices in order).
enum class PathDirection : uint8_t { kFromSources, kToSinks };
struct ModuloPaths {
  std::vector<int64_t> value;
  std::vector<uint32_t> positive_cycle;
};
ModuloPaths longest_paths(const ModuloProblem& p, const ModuloGraph& g, int64_t ii, PathDirection direction);

}  // namespace hlsgym::hwmodel
