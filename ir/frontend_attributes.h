// XLA's `frontend_attributes={key="value",...}`: hints a frontend attaches to an
// instruction that do not change what it computes. hlsgym reads one of them, `lanes`:
// how many parallel lanes the hardware gives the op's loop (unrolled, its arrays
// partitioned cyclically one bank per lane; hwmodel/lowering.h). YAML designs set it per
// op (`directives: {unroll: N}` or the attribute itself), the unroll directive passes
// (passes/unroll_directives.cc) set it from the environment.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "ir/module.h"

namespace hlsgym::ir {

// The most lanes hwmodel accepts on one op; larger values are ignored as malformed.
constexpr int kMaxLanes = 1'000'000;

// The value of `key` (quotes removed), if the attribute names it.
std::optional<std::string> frontend_attribute(const Attributes& a, std::string_view key);
// Sets `key` to `value`, keeping the other keys in their order; an empty value removes
// the key, and the whole attribute when no key is left (so undoing a hint restores the
// instruction exactly).
void set_frontend_attribute(Attributes& a, std::string_view key, std::string_view value);

// `lanes` as a number in [1, kMaxLanes], if given.
std::optional<int> lanes_hint(const Module& m, InstrId i);
// Sets (lanes >= 2) or removes (lanes <= 1: the op follows the global lane count again)
// the hint.
void set_lanes_hint(Module& m, InstrId i, int lanes);

}  // namespace hlsgym::ir
