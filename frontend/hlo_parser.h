// XLA HLO text -> ir::Module. Reads what `--xla_dump_to` writes (old and new printers),
// keeping what it does not interpret (metadata, sharding, frontend_attributes,
// backend_config, layouts, header attributes) so that ir::print_module gives it back.
#pragma once
#include <string>
#include <string_view>

#include "ir/module.h"

namespace hlsgym::frontend {

// Parses a whole module. Throws hlsgym::Error("FILE:LINE:COL: ...") on bad input.
// The result is not verified; call ir::verify for that.
ir::Module parse_hlo(std::string_view text, const std::string& filename = "<input>");

// Parses one shape, e.g. "f32[2,3]{1,0}" or "(s32[], pred[4])".
ir::Shape parse_shape(std::string_view text, const std::string& filename = "<shape>");

// Parses the value of a constant of the given shape: "1.5", "{ {1,2},{3,4} }", "{...}".
ir::Literal parse_literal(std::string_view text, const ir::Shape& shape,
                          const std::string& filename = "<literal>");

}  // namespace hlsgym::frontend
