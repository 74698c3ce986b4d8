#include "passes/pipeline.h"

namespace hlsgym::passes {

bool Pipeline::run(ir::Module& m) {
  bool changed = false;
  for (auto& p : passes_) changed |= p->run(m);
  return changed;
}

bool Pipeline::reassociates_floats() const {
  for (const auto& p : passes_)
    if (p->reassociates_floats()) return true;
  return false;
}

bool FixedPoint::run(ir::Module& m) {
  bool changed = false;
  last_iterations_ = 0;
  while (last_iterations_ < limit_) {
    ++last_iterations_;
    if (!inner_->run(m)) break;
    changed = true;
  }
  return changed;
}

}  // namespace hlsgym::passes
