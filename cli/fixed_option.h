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
// The quantized module's integer chains (each float op's rescale, table index and line,
// and the chains of such ops between values with several readers) as loop fusions (the
// `fusion` pass): one pipelined body each, no buffer between its ops, as an HLS tool
// chains the operators of hls4ml's ap_fixed code. Unfused, every shift, add and clamp
// of a rescale is a task with a buffer of its own (black_scholes: 566 tasks, 82,861
// LUT by the estimate, mostly register files).
void fuse_integer_chains(ir::Module& m);
// The default format's text (the flag's, else the design's), for messages.
std::string fixed_spec(const frontend::Design& d, const std::string& fixed_flag);

}  // namespace hlsgym::cli
