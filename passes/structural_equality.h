// Structural equality of instructions and computations, as XLA's HloInstruction::Identical
// and HloComputation::operator== see it: same opcodes, shapes, operands (by position in a
// dependency order), constant values and attributes, metadata aside. Shared by cse (which
// compares called computations this way) and computation-deduplicator.
#pragma once
#include <functional>

#include "ir/module.h"

namespace hlsgym::passes {

// The attributes, metadata ignored (source locations do not change meaning).
bool same_attributes_except_metadata(const ir::Attributes& a, const ir::Attributes& b);

// Whether two callees count as the same computation.
using SameCallee = std::function<bool(ir::CompId, ir::CompId)>;

// `a` and `b` have the same instructions in the same dependency order (local post
// order), the same root and the same number of parameters; instruction k of one equals
// instruction k of the other up to operand renaming, and their callees are equal by
// `same_callee`. Elided constants are never equal (their values are placeholders).
bool same_computation(const ir::Module& m, ir::CompId a, ir::CompId b, const SameCallee& same_callee);

// The same with the dependency orders already computed.
bool same_computation(const ir::Module& m, ir::CompId a, const std::vector<ir::InstrId>& order_a, ir::CompId b,
                      const std::vector<ir::InstrId>& order_b, const SameCallee& same_callee);

// Computations equal by structure, callees compared the same way, recursively (XLA's
// HloComputation::operator==); the call graph is acyclic (verified), so this ends.
bool same_computation_deep(const ir::Module& m, ir::CompId a, ir::CompId b);

}  // namespace hlsgym::passes
