// The adders in a read port's address (hwmodel/clock.h). The RTL computes an operand's
// element index from the task's loop counters (microarch index expressions): a sum of
// counters, each times its row-major stride (a window adds the tap's counter to the
// output's in its dimension). A term whose stride is a power of two above everything
// the smaller terms reach takes bits of its own and is wired beside them; every other
// term (overlapping bits, a stride such as 6, a padding offset) is a carry chain.
#pragma once
#include <optional>

#include "ir/module.h"

namespace hlsgym::hwmodel {

// Carry chains in the address `reader` computes to read its operand `operand`, for the
// ops whose index is derived here (reduce, reduce-window, dot, convolution, and a gather's
// start indices and operand, whose started dimensions add the clamped start);
// nullopt for the others.
std::optional<int> address_adders(const ir::Module& m, ir::InstrId reader, ir::InstrId operand);

}  // namespace hlsgym::hwmodel
