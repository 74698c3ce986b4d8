// XLA HloCostAnalysis formulas (see shared/reference/xla_passes.md §3): flops,
// transcendentals and bytes accessed, per instruction and summed over a module.
// Sub-computations (to_apply of reduce/map/...) are scaled as XLA scales them;
// while counts one iteration; conditional takes the max over branches.
#pragma once
#include <cstdint>
#include <memory>
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
// Cost of the entry computation, recursing into called computations.
Cost module_cost(const Module& m, const CostOptions& opts = {});

// The sizes of one value that the cost formulas and ir::extract_features read. No member
// initializers: CostTable allocates one per instruction slot without clearing them first
// (clearing 0.5 MB was 5 % of a feature extraction) and writes every slot itself.
struct ValueSizes {
  double elements;        // elements, a tuple's summed over its elements
  double bytes;           // shape_bytes() with the table's options
  int64_t element_count;  // Shape::element_count() (0 unless an array)
  int64_t byte_size;      // Shape::byte_size()
  bool array;             // Shape::is_array()
};

// The costs of many instructions of one module (issue 18 item 6: feature extraction of
// every new RL state): each live value's shape is read once into a flat array, so a
// formula reads an operand's bytes without the pointer chase to its shape, and each
// called computation is costed once, not once per caller (hundreds of reduces share one
// to_apply). The numbers are instruction_cost()'s bit for bit: both run the same
// formulas, which read their sizes from either source. Valid while the module is unchanged.
class CostTable {
 public:
  explicit CostTable(const Module& m, const CostOptions& opts = {});
  const ValueSizes& sizes(InstrId i) const { return sizes_[i]; }
  Cost instruction(InstrId i);
  // One run of computation c: its live instructions' costs summed in order.
  Cost computation(CompId c);

 private:
  const Module& m_;
  CostOptions opts_;
  std::unique_ptr<ValueSizes[]> sizes_;  // by InstrId; zero for dead slots
  std::vector<Cost> computation_cost_;
  std::vector<uint8_t> computation_state_;  // 0 not costed, 1 being costed, 2 costed
};

}  // namespace hlsgym::ir
