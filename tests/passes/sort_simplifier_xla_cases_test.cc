// simplify-sorts: every case of XLA's sort_simplifier_test.cc (openxla/xla
// xla/service/sort_simplifier_test.cc at 001918b7024cf5f020051a9d25d2dd57a5896aaa), each a
// golden test: HLO in; the root pattern and the number of runs to the fixed point, or no
// change, out; the interpreter agreeing. XLA's [64,8732] sorts are over the interpreter's
// step budget (tens of millions of comparator calls), so the values are compared on the
// same module with [4,87] operands.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {

const std::string kCompare2 =
    "HloModule permutation_sort\ncompare {\n p.0.lhs = f32[] parameter(0)\n p.0.rhs = f32[] parameter(1)\n"
    " p.1.lhs = s32[] parameter(2)\n p.1.rhs = s32[] parameter(3)\n";

// `text` with its [64,8732] operands shrunk to [4,87], for the value comparison.
std::string small(std::string text) {
  for (size_t at; (at = text.find("64,8732")) != std::string::npos;) text.replace(at, 7, "4,87");
  return text;
}

// Runs simplify-sorts until it reports no change (XLA's do-while); returns the run count.
int runs_to_fixed_point(ir::Module& m) {
  int runs = 0;
  while (runs < 8) {
    ++runs;
    if (!testing::run_pass("simplify-sorts", m)) break;
  }
  return runs;
}

// Runs simplify-sorts on XLA's module and on its small copy: the same number of runs to
// the fixed point and the same root pattern, returned for XLA's; the small copy's values
// agree with the interpreter's before the pass.
std::pair<int, std::string> runs_and_root(const std::string& text) {
  ir::Module m = testing::parse_module(text);
  const int runs = runs_to_fixed_point(m);
  const ir::Module small_before = testing::parse_module(small(text));
  ir::Module small_after = small_before;
  EXPECT_EQ(runs_to_fixed_point(small_after), runs);
  EXPECT_EQ(testing::root_expression(small_after), testing::root_expression(m));
  testing::expect_same_outputs(small_before, small_after);
  return {runs, testing::root_expression(m)};
}

TEST(SortSimplifierXla, RemoveUnusedSortOperandArrayResult) {
  const auto [runs, root] = runs_and_root(
      kCompare2 + " ROOT lt = pred[] compare(p.0.lhs, p.0.rhs), direction=LT\n}\n"
      "ENTRY sort_computation {\n keys = f32[64,8732]{1,0} parameter(0)\n values = s32[64,8732]{1,0} parameter(1)\n"
      " sort = (f32[64,8732]{1,0}, s32[64,8732]{1,0}) sort(keys, values), dimensions={1}, to_apply=compare\n"
      " ROOT gte = f32[64,8732]{1,0} get-tuple-element(sort), index=0\n}\n");
  EXPECT_EQ(runs, 2);
  EXPECT_EQ(root, "sort(parameter(0))");
}

TEST(SortSimplifierXla, RemoveUnusedSortOperandTuple) {
  const ir::Module m = testing::run_golden(
      "simplify-sorts",
      "HloModule permutation_sort\ncompare {\n p.0.lhs = f32[] parameter(0)\n p.0.rhs = f32[] parameter(1)\n"
      " p.1.lhs = s32[] parameter(2)\n p.1.rhs = s32[] parameter(3)\n p.2.lhs = u32[] parameter(4)\n"
      " p.2.rhs = u32[] parameter(5)\n ROOT lt = pred[] compare(p.0.lhs, p.0.rhs), direction=LT\n}\n"
      "ENTRY sort_computation {\n keys = f32[64,87] parameter(0)\n values.0 = s32[64,87] parameter(1)\n"
      " values.1 = u32[64,87] parameter(2)\n"
      " sort = (f32[64,87], s32[64,87], u32[64,87]) sort(keys, values.0, values.1), dimensions={1}, to_apply=compare\n"
      " gte.0 = f32[64,87] get-tuple-element(sort), index=0\n gte.1 = u32[64,87] get-tuple-element(sort), index=2\n"
      " ROOT tuple = (f32[64,87], u32[64,87]) tuple(gte.0, gte.1)\n}\n",
      true);
  EXPECT_EQ(testing::root_expression(m, 2), "tuple(get-tuple-element(sort), get-tuple-element(sort))");
  const ir::InstrId root = m.computation(m.entry()).root;
  for (size_t k = 0; k < 2; ++k) {
    const ir::InstrId gte = m.operand(root, k);
    EXPECT_EQ(m.attrs(gte).tuple_index, static_cast<int64_t>(k));
    EXPECT_EQ(testing::expression(m, m.operand(gte, 0)), "sort(parameter(0), parameter(2))");
  }
}

TEST(SortSimplifierXla, DontRemoveUnusedSortKey) {
  const auto [runs, root] = runs_and_root(
      kCompare2 + " ROOT lt = pred[] compare(p.0.lhs, p.0.rhs), direction=LT\n}\n"
      "ENTRY sort_computation {\n keys = f32[64,8732]{1,0} parameter(0)\n values = s32[64,8732]{1,0} parameter(1)\n"
      " sort = (f32[64,8732]{1,0}, s32[64,8732]{1,0}) sort(keys, values), dimensions={1}, to_apply=compare\n"
      " ROOT gte = s32[64,8732]{1,0} get-tuple-element(sort), index=1\n}\n");
  EXPECT_EQ(runs, 1);  // no change
  EXPECT_EQ(root, "get-tuple-element(sort(parameter(0), parameter(1)))");
}

TEST(SortSimplifierXla, RemoveUnusedFirstOperand) {
  const auto [runs, root] = runs_and_root(
      kCompare2 + " ROOT lt = pred[] compare(p.1.lhs, p.1.rhs), direction=LT\n}\n"
      "ENTRY sort_computation {\n keys = f32[64,8732]{1,0} parameter(0)\n values = s32[64,8732]{1,0} parameter(1)\n"
      " sort = (f32[64,8732]{1,0}, s32[64,8732]{1,0}) sort(keys, values), dimensions={1}, to_apply=compare\n"
      " ROOT gte = s32[64,8732]{1,0} get-tuple-element(sort), index=1\n}\n");
  EXPECT_EQ(runs, 2);
  EXPECT_EQ(root, "sort(parameter(1))");
}

}  // namespace
}  // namespace hlsgym::passes
