// Copying and inlining computations (used by call-inliner, flatten-call-graph,
// map-inline, the while/conditional simplifiers and unrolling). Control edges
// (control-predecessors=) are copied along: an instruction only a control edge reaches
// is copied too, and the names in the attribute are the copies'.
#pragma once
#include <span>
#include <string>

#include "ir/module.h"

namespace hlsgym::passes {

// A deep copy of computation `c` named `name` (instructions copied, callees shared).
ir::CompId clone_computation(ir::Module& m, ir::CompId c, std::string name);

// Copies the body of `callee` into computation `into`, with its parameters bound to
// `args`; returns the copy of the callee's root.
ir::InstrId inline_computation(ir::Module& m, ir::CompId callee, ir::CompId into,
                               std::span<const ir::InstrId> args);

// Removes computations that nothing reachable from the entry calls. True if any.
bool remove_unreachable_computations(ir::Module& m);

}  // namespace hlsgym::passes
