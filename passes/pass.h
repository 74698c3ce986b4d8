// The pass interface (after XLA's HloPassInterface): a pass has a name — XLA's name()
// string where XLA has the pass — a one-line description, and run(), which reports
// whether it changed the module. `false` must mean the module is untouched: the RL
// environment relies on it to detect no-op actions without comparing modules.
#pragma once
#include <memory>
#include <string_view>

#include "ir/module.h"

namespace hlsgym::passes {

class Pass {
 public:
  virtual ~Pass() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view description() const = 0;
  // True when the module changed.
  virtual bool run(ir::Module& m) = 0;
  // True when the pass may reorder floating-point arithmetic (so a checker must allow a
  // tolerance for float outputs instead of bit-exactness).
  virtual bool reassociates_floats() const { return false; }
};

using PassPtr = std::unique_ptr<Pass>;

}  // namespace hlsgym::passes
