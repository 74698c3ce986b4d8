// map-inline: every case of XLA's map_inliner_test.cc (openxla/xla
// xla/service/map_inliner_test.cc at 16569562fc04a1d1eadcd6a79f2269c1ccf4c421), each
// written as a golden test: HLO in (XLA builds the modules with HloComputation::Builder;
// here they are HLO text of the same graph); the root pattern and XLA's expected values
// out; the interpreter agreeing before and after.
#include <gtest/gtest.h>

#include "ir/evaluate.h"
#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {

// Runs map-inline (expected to change the module) and returns the module; `values` are
// the f32 outputs XLA's case expects when it runs the result.
ir::Module inline_map(const std::string& module, const std::vector<double>& values) {
  const ir::Module m = testing::run_golden("map-inline", module, true);
  const ir::Literal out = ir::evaluate(m, {}).value;
  EXPECT_EQ(out.element_count(), static_cast<int64_t>(values.size()));
  for (size_t k = 0; k < values.size() && static_cast<int64_t>(k) < out.element_count(); ++k)
    EXPECT_EQ(out.get_double(static_cast<int64_t>(k)), values[k]) << k;
  return m;
}

TEST(MapInlinerXla, MapMax) {
  const ir::Module m = inline_map(
      "HloModule m\nmax_f32 {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT m = f32[] maximum(x, y)\n}\n"
      "ENTRY MapMaxFunction {\n lhs = f32[4] constant({1, 2, 3, 4})\n rhs = f32[4] constant({4, 3, 2, 1})\n"
      " ROOT map = f32[4] map(lhs, rhs), dimensions={0}, to_apply=max_f32\n}\n",
      {4, 3, 3, 4});
  EXPECT_EQ(testing::root_expression(m), "maximum(constant, constant)");
  const ir::InstrId root = m.computation(m.entry()).root;
  EXPECT_EQ(m.name(m.operand(root, 0)), "lhs");
  EXPECT_EQ(m.name(m.operand(root, 1)), "rhs");
}

TEST(MapInlinerXla, MapConstant) {
  const ir::Module m = inline_map(
      "HloModule m\nconst2_f32 {\n x = f32[] parameter(0)\n ROOT c = f32[] constant(2)\n}\n"
      "ENTRY MapConstFunction {\n lhs = f32[2,4] constant({{1, 2, 3, 4}, {5, 6, 7, 8}})\n"
      " ROOT map = f32[2,4] map(lhs), dimensions={0,1}, to_apply=const2_f32\n}\n",
      {2, 2, 2, 2, 2, 2, 2, 2});
  EXPECT_EQ(testing::root_expression(m), "broadcast(constant(2))");
}

// The applied computation numbers its parameters opposite to their order: x is
// parameter(1), y parameter(0), and it computes x - y.
TEST(MapInlinerXla, MapSubtractOppositeOrder) {
  const ir::Module m = inline_map(
      "HloModule m\nsub_f32 {\n x = f32[] parameter(1)\n y = f32[] parameter(0)\n ROOT s = f32[] subtract(x, y)\n}\n"
      "ENTRY MapSubFunction {\n lhs = f32[4] constant({1, 2, 3, 4})\n rhs = f32[4] constant({4, 3, 2, 1})\n"
      " ROOT map = f32[4] map(lhs, rhs), dimensions={0}, to_apply=sub_f32\n}\n",
      {3, 1, -1, -3});
  const ir::InstrId root = m.computation(m.entry()).root;
  ASSERT_EQ(m.opcode(root), ir::Opcode::kSubtract);
  EXPECT_EQ(m.name(m.operand(root, 0)), "rhs");
  EXPECT_EQ(m.name(m.operand(root, 1)), "lhs");
}

// The applied computation returns its second parameter (the last instruction XLA's
// builder adds is the root).
TEST(MapInlinerXla, MapParameter) {
  const ir::Module m = inline_map(
      "HloModule m\nparam_f32 {\n p0 = f32[] parameter(0)\n ROOT p1 = f32[] parameter(1)\n}\n"
      "ENTRY MapParamFunction {\n lhs = f32[] constant(1)\n rhs = f32[] constant(4)\n"
      " ROOT map = f32[] map(lhs, rhs), dimensions={}, to_apply=param_f32\n}\n",
      {4});
  EXPECT_EQ(m.name(m.computation(m.entry()).root), "rhs");
}

}  // namespace
}  // namespace hlsgym::passes
