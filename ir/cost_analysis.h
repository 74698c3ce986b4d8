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
// The bytes XLA counts for a value of shape `s` (0 for a shape without a layout when
// opts.bytes_need_layout; 8 per element of a tuple, its pointers).
double shape_bytes(const Shape& s, const CostOptions& opts = {});
// The same cost with every instruction's shape_bytes() known (indexed by InstrId; the
// entries of the instruction and its operands are read): a module's cost reads each
// shape once instead of once per use (ir::extract_features).
Cost instruction_cost(const Module& m, InstrId i, const CostOptions& opts, const std::vector<double>& shape_bytes_of);
// Cost of the entry computation, recursing into called computations.
Cost module_cost(const Module& m, const CostOptions& opts = {});

}  // namespace hlsgym::ir
