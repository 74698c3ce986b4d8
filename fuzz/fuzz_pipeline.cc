// parse -> verify -> interpret -> cost -> estimate on whatever verifies. Issue 17: nothing
// that passes the verifier may crash the interpreter, the cost analysis or the hardware
// estimate, and nothing may run unbounded. Allowed outcomes: success, hlsgym::Error
// (including an exceeded interpretation budget), std::bad_alloc refused up front is not
// allowed (the budget refuses big values before allocating them).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "frontend/hlo_parser.h"
#include "hwmodel/estimate.h"
#include "hwmodel/target.h"
#include "ir/cost_analysis.h"
#include "ir/error.h"
#include "ir/evaluate.h"
#include "ir/verifier.h"

namespace {
const hlsgym::hwmodel::Target& fpga() {
  static const hlsgym::hwmodel::Target t =
      hlsgym::hwmodel::load_target("fpga", {std::filesystem::path(HLSGYM_SOURCE_DIR) / "designs/targets"});
  return t;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  hlsgym::ir::Module m;
  try {
    m = hlsgym::frontend::parse_hlo(text, "fuzz.hlo");
    if (!hlsgym::ir::verify_all(m).empty()) return 0;
  } catch (const hlsgym::Error&) {
    return 0;
  }
  try {
    hlsgym::ir::module_cost(m);
  } catch (const hlsgym::Error&) {
  }
  try {
    double input_bytes = 0;
    for (auto p : m.computation(m.entry()).params) input_bytes += static_cast<double>(m.shape(p).byte_size());
    if (input_bytes < 16e6) {
      hlsgym::ir::EvalOptions o;
      o.max_steps = 2e6;
      o.max_bytes = 64e6;
      o.max_while_iterations = 10000;
      hlsgym::ir::evaluate(m, hlsgym::ir::random_inputs(m, 1), o);
    }
  } catch (const hlsgym::Error&) {
  }
  try {
    hlsgym::hwmodel::estimate(m, fpga());
  } catch (const hlsgym::Error&) {
  }
  return 0;
}
