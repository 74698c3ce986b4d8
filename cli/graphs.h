// The graph sets `train` and `evaluate` take: folders (every .hlo and .yaml inside,
// sorted), single files, each loaded with frontend::load_design and named by its stem, and
// graph lists (.txt: one file or folder per line, relative to the list; # comments), which
// name a documented split such as designs/splits/hw-train.txt.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "ir/module.h"
#include "rl/env.h"

namespace hlsgym::cli {

std::vector<std::pair<std::string, ir::Module>> load_graphs(const std::vector<std::string>& args);

// The graphs an environment with options `o` can cost (rl::split_costable); says on
// stderr how many were left out for `command` and why (the first reason), and is an
// Error when none is left.
std::vector<std::pair<std::string, ir::Module>> keep_costable(std::vector<std::pair<std::string, ir::Module>> graphs,
                                                              const rl::EnvOptions& o, const std::string& command);

}  // namespace hlsgym::cli
