// ir::Module -> XLA HLO text. print_module(parse_hlo(x)) is a fixed point after one round.
#pragma once
#include <string>
#include <string_view>

#include "ir/module.h"

namespace hlsgym::ir {

struct PrintOptions {
  bool print_operand_shapes = false;  // the older printer's `add(f32[2] %a, ...)`
  bool print_opaque = true;           // metadata, sharding, backend_config, ...
};

std::string print_module(const Module& m, const PrintOptions& opts = {});
std::string print_computation(const Module& m, CompId c, const PrintOptions& opts = {});
// A name as the printer writes it (and the parser reads it back): characters outside
// [A-Za-z0-9_.-] become '_', a reserved word gets XLA's '%' prefix.
std::string hlo_name(std::string_view n);
// One instruction line without indentation or trailing newline.
std::string print_instruction(const Module& m, InstrId i, const PrintOptions& opts = {});

}  // namespace hlsgym::ir
