// conditional-to-select: every case of XLA's conditional_to_select_test.cc (openxla/xla
// xla/service/conditional_to_select_test.cc at 16569562fc04a1d1eadcd6a79f2269c1ccf4c421),
// each written as a golden test: XLA's HLO in; the mapped computation's root pattern out;
// the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {

// The root expression of the computation the entry's root (a map) applies.
std::string mapped_root(const ir::Module& m) {
  const ir::InstrId map = m.computation(m.entry()).root;
  EXPECT_EQ(m.opcode(map), ir::Opcode::kMap);
  return testing::expression(m, m.computation(m.called(map).at(0)).root);
}

const std::string kEntry =
    "ENTRY comp {\n p1 = f32[1000]{0} parameter(0)\n p2 = f32[1000]{0} parameter(1)\n"
    " ROOT mapped = f32[1000]{0} map(p1, p2), dimensions={0}, to_apply=mapped\n}\n";

TEST(ConditionalToSelectXla, MapConditionalConstants) {
  const ir::Module m = testing::run_golden(
      "conditional-to-select",
      "HloModule MapConditionalConstants\n"
      "if {\n pif = () parameter(0)\n ROOT cif = f32[] constant(0)\n}\n"
      "else {\n pelse = () parameter(0)\n ROOT celse = f32[] constant(1)\n}\n"
      "mapped {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n lt = pred[] compare(a, b), direction=LT\n"
      " t = () tuple()\n ROOT conditional = f32[] conditional(lt, t, t), true_computation=if, false_computation=else\n}\n" +
          kEntry,
      true);
  EXPECT_EQ(mapped_root(m), "select(compare(parameter(0), parameter(1)), constant(0), constant(1))");
  EXPECT_EQ(m.attrs(m.operand(m.computation(m.called(m.computation(m.entry()).root)[0]).root, 0)).direction,
            ir::ComparisonDirection::kLt);
}

TEST(ConditionalToSelectXla, MapConditionalNonScalar) {
  const ir::Module m = testing::run_golden(
      "conditional-to-select",
      "HloModule MapConditionalNonScalar\n"
      "if {\n pif = () parameter(0)\n zero = f32[] constant(0)\n"
      " ROOT zero_broadcasted = f32[2,2]{1,0} broadcast(zero), dimensions={}\n}\n"
      "else {\n pelse = () parameter(0)\n one = f32[] constant(0)\n"
      " ROOT one_broadcasted = f32[2,2]{1,0} broadcast(one), dimensions={}\n}\n"
      "add {\n add_lhs = f32[] parameter(0)\n add_rhs = f32[] parameter(1)\n ROOT add = f32[] add(add_lhs, add_rhs)\n}\n"
      "mapped {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n lt = pred[] compare(a, b), direction=LT\n"
      " t = () tuple()\n"
      " conditional = f32[2,2]{1,0} conditional(lt, t, t), true_computation=if, false_computation=else\n"
      " zero = f32[] constant(0)\n ROOT reduced = f32[] reduce(conditional, zero), dimensions={0,1}, to_apply=add\n}\n" +
          kEntry,
      true);
  EXPECT_EQ(mapped_root(m).substr(0, 62), "reduce(select(broadcast(compare(parameter(0), parameter(1))), ");
}

}  // namespace
}  // namespace hlsgym::passes
