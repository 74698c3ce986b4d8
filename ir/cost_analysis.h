// XLA HloCostAnalysis formulas (see shared/reference/xla_passes.md §3): flops,
// transcendentals and bytes accessed, per instruction and summed over a module.
// Sub-computations (to_apply of reduce/map/...) are scaled as XLA scales them;
// while counts one iteration; conditional takes the max over branches.
#pragma once
#include <vector>

#include "ir/module.h"

namespace hlsgym::ir {

struct Cost {
  double flops = 0;
  double transcendentals = 0;
  double bytes_accessed = 0;
  Cost& operator+=(const Cost& o) {
    flops += o.flops;
    transcendentals += o.transcendentals;
    bytes_accessed += o.bytes_accessed;
    return *this;
  }
};

struct CostOptions {
  // XLA counts 0 bytes for shapes without a layout (pre-layout HLO). hlsgym's default
  // assumes a dense row-major layout so bytes are meaningful on every graph.
  bool bytes_need_layout = false;
};

// Cost of one instruction (including what it calls).
Cost instruction_cost(const Module& m, InstrId i, const CostOptions& opts = {});
// Cost of the entry computation, recursing into called computations.
Cost module_cost(const Module& m, const CostOptions& opts = {});

}  // namespace hlsgym::ir
