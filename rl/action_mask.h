// Cost-aware action masking: an action known to change nothing in an environment's
// current state without running its pass, from the state's opcode counts (the environment
// has them for every state anyway; passes/applicability.h says which opcodes each pass acts
// on). Used where pass runs are counted (rl/policy_file.h's episode, rl/guided_search.h);
// training steps are unchanged.
#pragma once
#include "rl/env.h"

namespace hlsgym::rl {

// True: the action's pass cannot change the current module (a no-op that costs no pass
// run). False says nothing: the pass may or may not change it.
bool cannot_change(const Env& env, int action);

}  // namespace hlsgym::rl
