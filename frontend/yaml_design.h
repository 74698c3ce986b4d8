// YAML design files (the format of DESIGN.md, "A design in YAML") -> ir::Module.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"

namespace hlsgym::frontend {

// A loaded design: the module plus the design-level keys that are not IR.
struct Design {
  ir::Module module;
  std::string name;
  std::string description;
  std::string target;               // target name or path; empty if the file names none
  std::vector<std::string> passes;  // {"default"} or an explicit list; empty if none given
  std::string path;                 // the file it came from
  std::string precision;            // `precision:`, the fixed-point default (ap_fixed<...>); empty if none
};

// Parses YAML text. Throws hlsgym::Error("FILE:LINE:COL: ...") on bad input, naming the
// op (and key) at fault. Shapes left out are inferred (ir::infer_shape). Verified.
Design load_yaml_design(std::string_view text, const std::string& filename = "<input>");

}  // namespace hlsgym::frontend
