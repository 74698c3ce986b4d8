// Small helpers every pass uses: side-effect queries, replacing an instruction, and
// reading constants through broadcasts.
#pragma once
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "ir/module.h"

namespace hlsgym::passes {

// True if removing or duplicating the instruction could change observable behaviour:
// side-effecting opcodes, custom-calls marked custom_call_has_side_effect=true,
// collectives with a channel_id, and control flow that calls any of those.
bool has_side_effect(const ir::Module& m, ir::InstrId i);

// Moves every use (and root status) of `old_id` to `new_id`, then removes `old_id`
// and any operands that became dead (no users, not root, no side effect, not a parameter).
void replace_instruction(ir::Module& m, ir::InstrId old_id, ir::InstrId new_id);

// Removes `i` if it is dead, then its operands that became dead, transitively.
// Returns the number of instructions removed.
int remove_if_dead(ir::Module& m, ir::InstrId i);

// The scalar value of a constant, or of a broadcast of a scalar constant (as XLA's
// algebraic simplifier looks through broadcasts); nullptr otherwise.
const ir::Literal* scalar_constant(const ir::Module& m, ir::InstrId i);
// True if `i` is a constant (or broadcast of one) whose every element equals `value`.
bool is_all(const ir::Module& m, ir::InstrId i, double value);

// The instruction names a control-predecessors= value ("{a, b}") lists.
std::vector<std::string> control_predecessor_names(const std::string& value);
// Instructions with control edges: those with a control-predecessors= attribute (kept
// verbatim from the HLO text) and those it names. XLA neither removes such instructions
// (HloComputation::IsSafelyRemovable) nor merges them.
std::unordered_set<ir::InstrId> with_control_edges(const ir::Module& m);

}  // namespace hlsgym::passes
