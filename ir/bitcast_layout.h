// XLA's bitcast reads its operand's memory in its own layout. hlsgym's literals are
// row-major whatever the layout (layouts are otherwise kept for printing only), so a
// bitcast between layouts that are not both row-major moves elements: f32[2,3]{0,1} to
// f32[2,3]{1,0} is a transpose. The interpreter and the passes that remove bitcasts ask
// here.
#pragma once
#include <cstdint>

#include "ir/shape.h"

namespace hlsgym::ir {

// True where the bitcast from -> to is a row-major reshape (both layouts absent or
// row-major; a layout that is not a permutation of the dimensions counts as row-major).
bool bitcast_is_reshape(const Shape& from, const Shape& to);
// Otherwise, element k (row-major) of the result is element bitcast_source(from, to, k) of
// the operand (same element count).
int64_t bitcast_source(const Shape& from, const Shape& to, int64_t k);

}  // namespace hlsgym::ir
