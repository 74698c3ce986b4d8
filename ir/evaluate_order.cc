// The accumulation order of reductions and contractions (EvalOptions::accumulation).
#include <algorithm>

#include "ir/evaluate_internal.h"

namespace hlsgym::ir::eval {

TermOrder term_order(const OpContext& c, int64_t terms) {
  TermOrder order;
  order.chunk = std::max<int64_t>(terms, 1);
  if (!c.options || c.options->accumulation != AccumulationOrder::kHardware) return order;
  order.hardware = true;
  // The RTL splits an output's terms over `split` lanes, ceil(terms / split) each; lanes
  // past the last term hold nothing and take no part in the tree (hwmodel/microarch_ops.cc
  // plan_split, rtl/verilog_units.cc emit_tree).
  const int64_t split = std::clamp<int64_t>(c.options->split_of ? c.options->split_of(c.i) : 1, 1, order.chunk);
  order.chunk = (order.chunk + split - 1) / split;
  order.chunks = (std::max<int64_t>(terms, 1) + order.chunk - 1) / order.chunk;
  return order;
}

}  // namespace hlsgym::ir::eval
