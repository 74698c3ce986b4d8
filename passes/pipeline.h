// Pipelines as data (XLA's HloPassPipeline) and the fixed-point wrapper (HloPassFix).
#pragma once
#include <string>
#include <vector>

#include "passes/pass.h"

namespace hlsgym::passes {

// Runs its passes in order, once each. Changed if any pass changed the module.
class Pipeline final : public Pass {
 public:
  explicit Pipeline(std::string name, std::vector<PassPtr> passes = {})
      : name_(std::move(name)), passes_(std::move(passes)) {}
  void add(PassPtr p) { passes_.push_back(std::move(p)); }
  std::string_view name() const override { return name_; }
  std::string_view description() const override { return "a sequence of passes"; }
  bool run(ir::Module& m) override;
  bool reassociates_floats() const override;
  const std::vector<PassPtr>& passes() const { return passes_; }

 private:
  std::string name_;
  std::vector<PassPtr> passes_;
};

// Re-runs a pass until it reports no change, at most `limit` times (XLA: 25). Like XLA,
// hitting the limit stops the loop; the result is still "changed" if any run changed.
class FixedPoint final : public Pass {
 public:
  explicit FixedPoint(PassPtr inner, int limit = 25) : inner_(std::move(inner)), limit_(limit) {}
  std::string_view name() const override { return inner_->name(); }
  std::string_view description() const override { return "runs a pass to a fixed point"; }
  bool run(ir::Module& m) override;
  bool reassociates_floats() const override { return inner_->reassociates_floats(); }
  int last_iterations() const { return last_iterations_; }

 private:
  PassPtr inner_;
  int limit_;
  int last_iterations_ = 0;
};

}  // namespace hlsgym::passes
