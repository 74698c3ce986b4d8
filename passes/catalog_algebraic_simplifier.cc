// The algebraic simplifier pass family: one factory per line.
#include "passes/catalog.h"

namespace hlsgym::passes {

PassPtr make_algsimp();

void register_algebraic_simplifier_passes(Registry& r) {
  register_factories(r, {make_algsimp});
}

}  // namespace hlsgym::passes
