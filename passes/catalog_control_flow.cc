// The control flow pass family: one factory per line.
#include "passes/catalog.h"

namespace hlsgym::passes {

void register_control_flow_passes(Registry& r) {
  register_factories(r, {});
}

}  // namespace hlsgym::passes
