// The loop-state rewrites of simplify-while-loops that change the state tuple's shape
// (after XLA's WhileLoopSimplifier: TryRemoveRepeatedWhileTupleIndices,
// TryFlattenNestedTuples, TryRemoveConstantParams, TryMergeInductionVariables). Each
// needs the loop's body and condition called by it alone (the caller checks) and
// returns whether it changed the module; after a change, `w` is still the loop.
#pragma once
#include <vector>

#include "ir/module.h"

namespace hlsgym::passes::while_loop {

// State elements with the same init instruction that the body passes through unchanged
// are one element: the later ones go, their reads read the first.
bool remove_repeated_elements(ir::Module& m, ir::InstrId w, const std::vector<int>& callers);

// A state tuple with tuples inside becomes the flat tuple of its leaves; the body and
// condition rebuild the nested value from the flat parameter, and so do the users.
bool flatten_nested_state(ir::Module& m, ir::InstrId w);

// Elements that start as a constant and that the body sets to an equal constant are that
// constant everywhere: they leave the state. If every element goes and the loop has no
// side effects, the loop is its init value (a loop that never ends, or one whose state
// never changes: either way nothing observable but its value, which is the init).
bool remove_constant_elements(ir::Module& m, ir::InstrId w, const std::vector<int>& callers);

// Two or more induction variables of type `t` (elements the body steps by a constant:
// i' = i + c), or one and a trip counter (0, +1), are rewritten as functions of one trip
// counter (added if there is none): inside the loop and after it, i reads
// init_i + counter * c, and the body passes i through unchanged. Integer types only
// (wrapping arithmetic keeps it exact).
bool merge_induction_variables(ir::Module& m, ir::InstrId w, ir::ElementType t, const std::vector<int>& callers);

}  // namespace hlsgym::passes::while_loop
