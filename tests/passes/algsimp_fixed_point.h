// Golden algsimp tests on an ENTRY body: run algsimp to its fixed point and check that it
// changed the module exactly when expected and that the interpreter agrees before and
// after. Shared by the files of ported XLA algsimp cases (algsimp_xla_cases_b*_test.cc).
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "tests/passes/pass_golden.h"

namespace hlsgym::testing {

// `text` is a whole module without its "HloModule" line. `compare_values` is off only for
// modules the interpreter cannot run in a test's time (none so far: big XLA shapes are
// scaled down instead).
inline ir::Module simplify_to_fixed_point(const std::string& text, bool expect_change = true,
                                          bool compare_values = true) {
  const ir::Module before = parse_module("HloModule m\n\n" + text);
  ir::Module m = before;
  EXPECT_EQ(run_to_fixed_point("algsimp", m), expect_change) << ir::print_module(m);
  if (!expect_change) {
    EXPECT_EQ(ir::print_module(m), ir::print_module(before));
  }
  if (compare_values) expect_same_outputs(before, m);
  return m;
}

// The attributes of the entry computation's root.
inline const ir::Attributes& root_attrs(const ir::Module& m) { return m.attrs(m.computation(m.entry()).root); }

}  // namespace hlsgym::testing
