// Any input must either parse (and then verify, print and re-parse) or raise
// hlsgym::Error. Anything else — a crash, a sanitizer report, another exception — is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "frontend/hlo_parser.h"
#include "ir/error.h"
#include "ir/printer.h"
#include "ir/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    hlsgym::ir::Module m = hlsgym::frontend::parse_hlo(text, "fuzz.hlo");
    if (hlsgym::ir::verify_all(m).empty()) hlsgym::frontend::parse_hlo(hlsgym::ir::print_module(m), "printed");
  } catch (const hlsgym::Error&) {
  }
  return 0;
}
