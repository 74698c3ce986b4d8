// XLA's default pass order, the baseline every learned or searched order is measured
// against: the CPU compiler's HLO pipeline (openxla/xla xla/service/cpu/cpu_compiler.cc at
// commit 001918b7, early 2023, the era of Ganai et al.; see
// shared/reference/xla_passes.md §1.1), restricted to the passes hlsgym has, with XLA's
// fixed-point wrappers (HloPassFix, 25 iterations) where XLA has them.
#pragma once
#include <string>
#include <vector>

#include "passes/pipeline.h"

namespace hlsgym::passes {

// One stage of the order: XLA's pipeline name, whether XLA runs it to a fixed point,
// and its passes by name (XLA's order, including passes hlsgym does not have).
struct OrderStage {
  std::string name;
  bool fixed_point = false;
  std::vector<std::string> passes;
};

// The stages as XLA runs them, before restriction (the documentation of the order).
const std::vector<OrderStage>& xla_cpu_default_stages();

// The stages restricted to the passes hlsgym has (stages left empty dropped): what
// make_default_order runs, and what rl/guided_search.h replays as environment steps.
std::vector<OrderStage> default_order_stages();
// XLA's HloPassFix limit on a fixed-point stage's iterations.
inline constexpr int kDefaultFixedPointLimit = 25;

// The default order as a runnable pipeline of the registered passes.
PassPtr make_default_order();
// The passes of the default order, flattened in run order (a fixed-point stage's passes
// once each), only those hlsgym has.
std::vector<std::string> default_order_names();
// The passes of the default order's fixed-point stages (XLA's HloPassFix pipelines: the
// simplification pipeline and the one after layout assignment), in run order, each once:
// the passes XLA itself runs to a fixed point, only those hlsgym has.
std::vector<std::string> default_fixed_point_names();
// XLA's passes of the order that hlsgym does not have (target-dependent ones and a few
// linear-algebra expanders), for reports.
std::vector<std::string> default_order_missing();

}  // namespace hlsgym::passes
