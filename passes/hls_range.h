// Value-range analysis for the HLS passes: an interval [lo, hi] that contains every
// element an integer (or pred) instruction can hold, on every input. Intervals are
// exact mathematical bounds in 128-bit arithmetic; an operation whose exact result could
// leave its type's range (and so wrap) gets the whole range of the type.
#pragma once
#include <vector>

#include "ir/module.h"

namespace hlsgym::passes::hls {

using Int = __int128;

struct Range {
  Int lo = 0, hi = -1;  // empty (lo > hi) means "not an integer value: no range"
  bool known() const { return lo <= hi; }
  bool within(const Range& outer) const { return outer.known() && known() && outer.lo <= lo && hi <= outer.hi; }
};

// The values of an integer or pred element type; an empty range for any other type.
Range type_range(ir::ElementType t);

// Ranges by instruction id, computed in post order so operands come first.
class RangeAnalysis {
 public:
  explicit RangeAnalysis(const ir::Module& m) : m_(m), ranges_(m.instruction_slots()) {}

  // Computes (and stores) the range of `i` from its operands' stored ranges.
  Range compute(ir::InstrId i);
  // The stored range, or the whole type's for an instruction not computed yet.
  Range get(ir::InstrId i) const;
  void set(ir::InstrId i, Range r);

 private:
  Range evaluate(ir::InstrId i) const;
  Range arithmetic(ir::InstrId i) const;
  Range bitwise(ir::InstrId i) const;
  Range shift(ir::InstrId i) const;
  Range division(ir::InstrId i) const;
  Range reduction(ir::InstrId i) const;
  Range constant(ir::InstrId i) const;

  const ir::Module& m_;
  std::vector<Range> ranges_;
};

}  // namespace hlsgym::passes::hls
