#include "cli/fixed_option.h"

#include <algorithm>

#include "ir/error.h"
#include "ir/verifier.h"
#include "passes/registry.h"

namespace hlsgym::cli {
namespace {

bool has_floats(const ir::Shape& s) {
  if (s.is_tuple()) return std::any_of(s.tuple_elements().begin(), s.tuple_elements().end(), has_floats);
  return ir::is_floating(s.element_type()) || ir::is_complex(s.element_type());
}

bool module_has_floats(const ir::Module& m) {
  for (ir::CompId c : m.live_computations())
    for (ir::InstrId i : m.computation(c).order)
      if (m.is_live(i) && has_floats(m.shape(i))) return true;
  return false;
}

}  // namespace

std::string fixed_spec(const frontend::Design& d, const std::string& fixed_flag) {
  return fixed_flag.empty() ? d.precision : fixed_flag;
}

std::optional<rtl::QuantizedModule> quantized_design(const frontend::Design& d, const std::string& fixed_flag) {
  const std::string spec = fixed_spec(d, fixed_flag);
  if (spec.empty() || spec == "float") return std::nullopt;
  const bool floats = module_has_floats(d.module);
  if (!floats && !fixed_flag.empty())
    throw Error("--fixed " + fixed_flag + " quantizes floats, and the design has none (drop --fixed)", {d.path});
  if (!floats) return std::nullopt;
  rtl::QuantizedModule q = rtl::quantize_module(d.module, rtl::parse_fixed(spec));
  fuse_integer_chains(q.module);
  return q;
}

void fuse_integer_chains(ir::Module& m) {
  passes::Registry::global().create("fusion")->run(m);
  ir::verify(m);
}

}  // namespace hlsgym::cli
