// The graph sets `train` and `evaluate` take: folders (every .hlo and .yaml inside,
// sorted) and single files, each loaded with frontend::load_design and named by its stem.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "ir/module.h"

namespace hlsgym::cli {

std::vector<std::pair<std::string, ir::Module>> load_graphs(const std::vector<std::string>& args);

}  // namespace hlsgym::cli
