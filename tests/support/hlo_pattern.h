// Root patterns for golden pass tests: an instruction written as the expression of
// opcodes it computes, e.g. "get-tuple-element(sort(parameter(0), iota))", so a test can
// state the graph XLA's matcher expects (m::GetTupleElement(m::Sort(m::Parameter(0),
// m::Iota()))) in one string.
#pragma once
#include <string>

#include "ir/module.h"

namespace hlsgym::testing {

// Opcodes down to `depth` levels of operands (deeper operands are left out, with their
// parentheses); a parameter shows its number, a constant scalar its value.
std::string expression(const ir::Module& m, ir::InstrId i, int depth = 8);
// The expression of the entry computation's root.
std::string root_expression(const ir::Module& m, int depth = 8);

}  // namespace hlsgym::testing
