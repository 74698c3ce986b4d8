// A structural hash of a module: equal for modules that compute the same graph whatever
// their instruction names, ids, metadata or computation names; different (up to 64-bit
// collisions) when any opcode, shape, operand wiring, attribute, called computation or
// constant value differs. The RL environment caches state costs under it and the
// exhaustive search deduplicates states with it.
#pragma once
#include <cstdint>

#include "ir/module.h"

namespace hlsgym::ir {

uint64_t structural_hash(const Module& m);

}  // namespace hlsgym::ir
