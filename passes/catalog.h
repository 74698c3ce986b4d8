// Registration of the built-in pass families (see catalog.cc).
#pragma once
#include <initializer_list>

#include "passes/registry.h"

namespace hlsgym::passes {

// Adds one PassInfo per factory (name and description are read off a probe instance).
void register_factories(Registry& r, std::initializer_list<PassPtr (*)()> makes, ActionGroup group = kFirstActions);

void register_builtin_passes(Registry& r);
void register_algebraic_simplifier_passes(Registry& r);  // catalog_algebraic_simplifier.cc
void register_control_flow_passes(Registry& r);          // catalog_control_flow.cc
void register_movement_passes(Registry& r);              // catalog_movement.cc
void register_expander_passes(Registry& r);              // catalog_expanders.cc
void register_hls_passes(Registry& r);                   // catalog_hls.cc
void register_directive_passes(Registry& r);             // catalog_hls.cc

}  // namespace hlsgym::passes
