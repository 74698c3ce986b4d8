// dot-merger with its size threshold: XLA's DotMerger takes max_size_to_merge (bytes of a
// dot's operands and result); a pair of dots is merged only if one of them is under it.
#pragma once
#include <cstdint>

#include "passes/pass.h"

namespace hlsgym::passes {

// The registry's dot-merger uses XLA's GPU pipeline threshold ("only merge smallish
// dots", DotMerger(int64_t{16} << 20)); XLA's CPU pipeline does not run the pass.
inline constexpr int64_t kXlaGpuDotMergerMaxBytes = int64_t{16} << 20;

PassPtr make_dot_merger(int64_t max_size_to_merge);
PassPtr make_dot_merger();

}  // namespace hlsgym::passes
