// --fixed SPEC of `report` and `rtl`: the fixed-point format a design runs in. SPEC (an
// ap_fixed<W,I,Q,O> or W,I) overrides the design's `precision:`; `--fixed float` keeps a
// design with `precision:` in floating point. Per-op `precision` attributes apply
// whenever the design is quantized.
#pragma once
#include <optional>
#include <string>

#include "frontend/yaml_design.h"
#include "rtl/fixed_point.h"

namespace hlsgym::cli {

inline constexpr const char* kFixedOptionHelp =
    "quantize floats to fixed point: ap_fixed<W,I[,Q[,O]]> (2 <= W <= 64; Q: AP_TRN, AP_RND, AP_RND_CONV; "
    "O: AP_WRAP, AP_SAT) or W,I; overrides the design's precision:, `float` ignores it";

// The quantized design, or nullopt when it stays in floating point. Throws when --fixed
// is given to a design without floats (it would be silently ignored).
std::optional<rtl::QuantizedModule> quantized_design(const frontend::Design& d, const std::string& fixed_flag);
// The default format's text (the flag's, else the design's), for messages.
std::string fixed_spec(const frontend::Design& d, const std::string& fixed_flag);

}  // namespace hlsgym::cli
