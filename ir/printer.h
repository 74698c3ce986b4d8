// ir::Module -> XLA HLO text. print_module(parse_hlo(x)) is a fixed point after one round.
#pragma once
#include <string>

#include "ir/module.h"

namespace hlsgym::ir {

struct PrintOptions {
  bool print_operand_shapes = false;  // the older printer's `add(f32[2] %a, ...)`
  bool print_opaque = true;           // metadata, sharding, backend_config, ...
};

std::string print_module(const Module& m, const PrintOptions& opts = {});
std::string print_computation(const Module& m, CompId c, const PrintOptions& opts = {});
// One instruction line without indentation or trailing newline.
std::string print_instruction(const Module& m, InstrId i, const PrintOptions& opts = {});

}  // namespace hlsgym::ir
