// Helpers shared by the HLS pass family (tree-height-reduction, strength-reduction,
// bitwidth-narrowing, fusion): reading uniform integer constants and building small
// integer expressions with inferred shapes.
#pragma once
#include <cstdint>
#include <optional>
#include <span>

#include "ir/module.h"

namespace hlsgym::passes::hls {

// The value every element of an integer constant holds (a constant, or a broadcast of
// one), read as the type's value (signed types sign-extended, unsigned zero-extended
// into the uint64 bit pattern cast to int64). nullopt for elided or non-uniform constants.
std::optional<int64_t> uniform_int(const ir::Module& m, ir::InstrId i);

// A constant of integer type `t` holding `value` (wrapped to the width), broadcast to
// `like`'s dimensions when `like` is not a scalar.
ir::InstrId splat_int(ir::Module& m, ir::CompId c, ir::ElementType t, int64_t value,
                      const ir::Shape& like);

// `op(a, b)` (or `op(a)` when b == kNoId) with its shape from shape inference.
ir::InstrId make_elementwise(ir::Module& m, ir::CompId c, ir::Opcode op, ir::InstrId a,
                             ir::InstrId b = ir::kNoId);

// convert(a) to element type `t`, keeping a's dimensions (and dynamic bounds).
ir::InstrId make_convert(ir::Module& m, ir::CompId c, ir::InstrId a, ir::ElementType t);

}  // namespace hlsgym::passes::hls
