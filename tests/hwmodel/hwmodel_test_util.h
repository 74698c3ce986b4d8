// Shared by the hwmodel tests: the shipped targets and designs.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "frontend/load.h"
#include "hwmodel/estimate.h"
#include "hwmodel/target.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {

inline std::vector<std::filesystem::path> target_dirs() { return {source_dir() / "designs" / "targets"}; }

inline const hwmodel::Target& fpga_target() {
  static const hwmodel::Target t = hwmodel::load_target("fpga", target_dirs());
  return t;
}
inline const hwmodel::Target& cpu_target() {
  static const hwmodel::Target t = hwmodel::load_target("cpu", target_dirs());
  return t;
}

inline ir::Module load_named_design(const std::string& name) {
  return frontend::load_design((source_dir() / "designs" / (name + ".yaml")).string()).module;
}

inline ir::Module load_yaml(const std::string& text) { return frontend::load_yaml_design(text, "inline.yaml").module; }

// The entry instruction called `name` (a test failure, and kNoId, when there is none).
inline ir::InstrId named(const ir::Module& m, const std::string& name) {
  for (ir::InstrId i : m.instructions(m.entry()))
    if (m.name(i) == name) return i;
  ADD_FAILURE() << "no instruction " << name;
  return ir::kNoId;
}

}  // namespace hlsgym::testing
