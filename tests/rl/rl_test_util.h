// Shared by the rl tests: a design from designs/ and the FPGA target.
#pragma once
#include <memory>
#include <string>

#include "frontend/load.h"
#include "hwmodel/target.h"
#include "tests/support/test_data.h"

namespace hlsgym::rl::testutil {

inline ir::Module design(const std::string& name) {
  return frontend::load_design((testing::source_dir() / "designs" / (name + ".yaml")).string()).module;
}

inline std::shared_ptr<const hwmodel::Target> fpga() {
  static auto t = std::make_shared<const hwmodel::Target>(
      hwmodel::load_target("fpga", {testing::source_dir() / "designs" / "targets"}));
  return t;
}

}  // namespace hlsgym::rl::testutil
