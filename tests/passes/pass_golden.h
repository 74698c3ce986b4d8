// Golden pass tests on HLO text: parse a module, run a pass (once or to its fixed point)
// with the verifier checked, and check that the interpreter agrees before and after.
// Header-only: tests/support/*.cc is linked into every test, and only the passes tests
// link the passes library.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "frontend/hlo_parser.h"
#include "ir/module.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/equivalence.h"
#include "passes/registry.h"

namespace hlsgym::testing {

// Parses and verifies `text` (a whole module, "HloModule ..." first).
inline ir::Module parse_module(const std::string& text) {
  ir::Module m = frontend::parse_hlo(text, "golden.hlo");
  ir::verify(m);
  return m;
}

// Runs `pass` once; fails the test if the result does not verify. Returns "changed".
inline bool run_pass(const std::string& pass, ir::Module& m) {
  const bool changed = passes::Registry::global().create(pass)->run(m);
  const auto issues = ir::verify_all(m);
  EXPECT_TRUE(issues.empty()) << pass << ": " << issues.front().message << "\n" << ir::print_module(m);
  return changed;
}

// Runs `pass` to its fixed point (at most 8 runs); fails the test if it does not get
// there. Returns whether anything changed.
inline bool run_to_fixed_point(const std::string& pass, ir::Module& m) {
  for (int run = 0; run < 8; ++run)
    if (!run_pass(pass, m)) return run > 0;
  ADD_FAILURE() << pass << " still changes the module after 8 runs:\n" << ir::print_module(m);
  return true;
}

// The interpreter gives the same outputs (floats compared exactly) on 4 random input sets.
inline void expect_same_outputs(const ir::Module& before, const ir::Module& after) {
  passes::EquivalenceOptions o;
  o.input_sets = 4;
  const passes::EquivalenceResult r = passes::check_equivalence(before, after, o);
  EXPECT_EQ(r.status, passes::CheckStatus::kPassed) << r.detail << "\nafter:\n" << ir::print_module(after);
}

// Runs `pass` once on the module `text`: "changed" must be `expect_change`, the result
// must verify, an unchanged module must print as before, and (when `compare_values`;
// not for modules that loop for ever or have side effects) the interpreter must agree.
inline ir::Module run_golden(const std::string& pass, const std::string& text, bool expect_change,
                             bool compare_values = true) {
  const ir::Module before = parse_module(text);
  ir::Module m = before;
  EXPECT_EQ(run_pass(pass, m), expect_change) << ir::print_module(m);
  if (!expect_change) {
    EXPECT_EQ(ir::print_module(m), ir::print_module(before));
  }
  if (compare_values) expect_same_outputs(before, m);
  return m;
}

// How many live instructions of computation `c` have opcode `op` (XLA's tests say
// Contains(op::Add()) / Each(Not(op::Add())) of a computation's instructions).
inline int count_opcode(const ir::Module& m, ir::CompId c, ir::Opcode op) {
  int n = 0;
  for (ir::InstrId i : m.instructions(c)) n += m.opcode(i) == op;
  return n;
}

}  // namespace hlsgym::testing
