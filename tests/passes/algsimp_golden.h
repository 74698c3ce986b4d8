// The golden-test driver shared by the files that port XLA's algebraic_simplifier_test.cc
// (tests/passes/algsimp_xla_cases*_test.cc): run algsimp to its fixed point on one entry
// computation, check "changed", and check that the interpreter agrees.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::testing {

// Runs algsimp to its fixed point on the module "HloModule m" + `body`; checks that it
// changed the module exactly when `expect_change` (an unchanged module prints as before)
// and, when `compare_values`, that the interpreter agrees; returns the result.
inline ir::Module simplify(const std::string& body, bool expect_change = true, bool compare_values = true) {
  const ir::Module before = parse_module("HloModule m\n\n" + body);
  ir::Module m = before;
  EXPECT_EQ(run_to_fixed_point("algsimp", m), expect_change) << ir::print_module(m);
  if (!expect_change) {
    EXPECT_EQ(ir::print_module(m), ir::print_module(before));
  }
  if (compare_values) expect_same_outputs(before, m);
  return m;
}

// "ENTRY test {" with parameters p0 .. p<n-1> of `shape` (e.g. "f32[]"), then `body`
// (the instructions and the ROOT) and "}": the common frame of XLA's small cases.
inline std::string entry_with_params(const std::string& shape, int n, const std::string& body) {
  std::string text = "ENTRY test {\n";
  for (int k = 0; k < n; ++k)
    text += "  p" + std::to_string(k) + " = " + shape + " parameter(" + std::to_string(k) + ")\n";
  return text + body + "}\n";
}

// The XLA case `name` is listed in deliberate_differences.txt (fails the test otherwise).
inline void expect_listed(const std::string& name) {
  EXPECT_FALSE(deliberate_difference("algsimp", name).empty()) << name;
}

// A case hlsgym deliberately leaves alone: listed, and algsimp does not change `body`.
inline void expect_listed_unchanged(const std::string& name, const std::string& body) {
  expect_listed(name);
  simplify(body, false);
}

// The attributes of the entry computation's root.
inline const ir::Attributes& root_attrs(const ir::Module& m) { return m.attrs(m.computation(m.entry()).root); }

}  // namespace hlsgym::testing
