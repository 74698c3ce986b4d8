// One entry point for every design argument: `.yaml`/`.yml` designs and `.hlo`/`.txt`
// XLA HLO text, chosen by extension.
#pragma once
#include <string>

#include "frontend/yaml_design.h"

namespace hlsgym::frontend {

// Loads and verifies a design file. Throws hlsgym::Error with file:line:col.
Design load_design(const std::string& path);

}  // namespace hlsgym::frontend
