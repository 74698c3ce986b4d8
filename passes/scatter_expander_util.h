// The analysis behind scatter_expander: whether a scatter can be expanded exactly, and
// the facts the expansion needs (trip count, window, index type, combiner form).
#pragma once
#include <optional>
#include <vector>

#include "ir/module.h"

namespace hlsgym::passes::scatter_detail {

// One output of the update computation, classified so that simple forms become one
// elementwise op. A scatter of n operands has one Combiner per operand; output k reads
// parameters k (current) and n + k (update).
struct Combiner {
  enum Kind { kKeep, kAssign, kBinary, kMap } kind = kMap;
  ir::Opcode op = ir::Opcode::kAdd;  // kBinary
  bool swapped = false;              // kBinary: op(update, current) instead of op(current, update)
  ir::CompId computation = ir::kNoId;  // the whole update computation
  int64_t output = 0;                  // which output of it (kMap of a variadic scatter)
  // True when applying several updates to one element gives the same result in any order.
  bool order_insensitive = false;
};

struct ScatterInfo {
  ir::InstrId scatter, indices;
  std::vector<ir::InstrId> operands, updates;  // one update per operand, all of one shape each
  const ir::ScatterDims* dims;
  int64_t trip_count;    // number of index vectors N
  int64_t vector_size;   // K
  std::vector<int64_t> window;               // per operand dimension (1 at inserted dims)
  std::vector<int64_t> scatter_update_dims;  // update dims that are not window dims, in order
  ir::ElementType index_type;    // s32 or s64, what the indices are converted to
  ir::ElementType counter_type;  // the loop counter: s32, or s64 for huge trip counts
  std::vector<Combiner> combiners;  // one per operand
};

// The facts for an exactly expandable scatter, or nullopt.
std::optional<ScatterInfo> analyze(const ir::Module& m, ir::InstrId scatter);

}  // namespace hlsgym::passes::scatter_detail
