// A design input's value range: random input vectors (ir::random_inputs, and so `run`,
// `optimize --check` and RTL co-simulation) draw the parameter's elements uniformly in
// [lo, hi] instead of the defaults, so a pricer is tested on prices, not on the log of a
// negative. YAML gives it per input (`S: {type: f32[16], range: [50, 150]}`); an HLO
// parameter carries it as `frontend_attributes={range="50,150"}`.
#pragma once
#include <optional>
#include <string>

#include "ir/element_type.h"
#include "ir/module.h"

namespace hlsgym::ir {

struct InputRange {
  double lo = 0, hi = 0;
};

// Why [lo, hi] cannot be a range of element type t (empty when it can): lo > hi, a bound
// not finite, an integer type's bound not an integer or beyond the type, a float bound
// beyond the type's finite values, a type without values (tuples, tokens).
std::string input_range_problem(ElementType t, double lo, double hi);

// The range parameter i declares, if any. Throws hlsgym::Error naming the parameter when
// the attribute is malformed or input_range_problem objects.
std::optional<InputRange> input_range(const Module& m, InstrId i);
// Declares it (the attribute's text: "lo,hi" with every digit a double needs).
void set_input_range(Module& m, InstrId i, const InputRange& r);

}  // namespace hlsgym::ir
