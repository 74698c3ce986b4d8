// Shared by simplify-sorts and stable-sort-expander: rebuilding a sort with another list
// of operands and comparator, and rewiring the users of its tuple elements.
#pragma once
#include <vector>

#include "ir/module.h"

namespace hlsgym::passes::sorting {

// Element `k` of a sort's result: the result itself for a one-operand sort (an array),
// a get-tuple-element of it otherwise.
ir::InstrId element(ir::Module& m, ir::InstrId sort, int64_t k);

// A new sort of `operands` with comparator `cmp` and the attributes of `old` (with
// `stable` for is_stable); its shape is an array for one operand, a tuple otherwise.
ir::InstrId make_sort(ir::Module& m, ir::InstrId old, const std::vector<ir::InstrId>& operands, ir::CompId cmp,
                      bool stable);

// A comparator computation taking (a_k, b_k) scalars for each type in `types` (params
// 2k, 2k+1), with the body left to the caller.
ir::CompId new_comparator(ir::Module& m, const std::vector<ir::ElementType>& types, std::vector<ir::InstrId>& params);

// Uses of element k of `old` (a gte, or the array itself) move to element new_index[k]
// of `fresh` (skipped where new_index[k] < 0); where the whole tuple `old` is used (it is
// a root or has another user) it becomes a tuple of fresh's elements. `old` is removed.
void rewire(ir::Module& m, ir::InstrId old, ir::InstrId fresh, const std::vector<int64_t>& new_index);

}  // namespace hlsgym::passes::sorting
