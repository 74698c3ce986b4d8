// Any input must either load as a verified design or raise hlsgym::Error.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "frontend/yaml_design.h"
#include "ir/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    hlsgym::frontend::load_yaml_design(text, "fuzz.yaml");
  } catch (const hlsgym::Error&) {
  }
  return 0;
}
