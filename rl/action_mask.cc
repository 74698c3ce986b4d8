#include "rl/action_mask.h"

#include "passes/applicability.h"

namespace hlsgym::rl {

bool cannot_change(const Env& env, int action) {
  return passes::cannot_change(Env::action_name(action), env.metrics().features.opcode_counts);
}

}  // namespace hlsgym::rl
