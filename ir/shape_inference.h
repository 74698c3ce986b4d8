// HLO shape inference: the result shape of an op from its operands and attributes.
// Used by the verifier (to check declared shapes) and the YAML loader (to fill in
// shapes the design leaves out).
#pragma once
#include <span>
#include <string>
#include <vector>

#include "ir/module.h"

namespace hlsgym::ir {

// Infers the result shape. Throws hlsgym::Error (message only, no location) explaining
// the mismatch, e.g. "add: operand shapes f32[4] and f32[5] differ". `called` are the
// called computations (to_apply etc.) of the would-be instruction, resolved in `m`.
// Ops whose shape cannot be inferred (parameter, constant, custom-call, rng-bit-generator,
// ...) throw an Error saying a type must be given.
Shape infer_shape(const Module& m, Opcode op, std::span<const InstrId> operands,
                  const Attributes& attrs, std::span<const CompId> called);

// True if `op` has a shape that infer_shape can compute.
bool can_infer_shape(Opcode op);

}  // namespace hlsgym::ir
