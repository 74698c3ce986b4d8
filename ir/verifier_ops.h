// Checks of single operations that shape inference alone does not make: XLA's
// HloVerifier rules for dimension numbers (gather, scatter), operand lists (dynamic
// slices, collectives, custom-calls the interpreter evaluates), element types (convert,
// reshape, bitcast), array operands where values are expected (a token is not a value),
// the signatures of applied computations, and shape sizes that overflow. They exist
// because the interpreter, the passes and the cost model index tensors by these numbers:
// an inconsistent module that got past the verifier read out of bounds.
#pragma once
#include <string>

#include "ir/module.h"

namespace hlsgym::ir {

// The first problem of instruction `i` found by these checks, or "" when there is none.
std::string check_operation(const Module& m, InstrId i);

// Why `s` is not a valid shape (a negative dimension, an element count or byte size
// that overflows 63 bits), or "".
std::string check_shape_size(const Shape& s);

// The first computation that calls itself, directly or through others, as "a -> b -> a";
// "" when the call graph is acyclic. `caller` (when given) receives the instruction
// that closes the cycle, so the error can point at a line.
std::string find_call_cycle(const Module& m, InstrId* caller = nullptr);

// The gather result shape XLA's shape inference gives (throws hlsgym::Error).
Shape infer_gather_shape(const Shape& operand, const Shape& indices, const GatherDims& d);

}  // namespace hlsgym::ir
