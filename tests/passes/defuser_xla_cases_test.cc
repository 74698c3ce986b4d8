// defuser: every case of XLA's defuser_test.cc (openxla/xla xla/service/defuser_test.cc at
// 16569562fc04a1d1eadcd6a79f2269c1ccf4c421), each written as a golden test: HLO in (XLA
// builds the fusions with HloComputation::CreateFusionInstruction; here they are HLO text
// of the fused graph, the fused computation's parameters in the order XLA's fusion gives
// its operands); the number of fusion computations and the root pattern, or no change,
// out; the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {
using testing::root_expression;

ir::Module defuse(const std::string& module, bool expect_change) {
  return testing::run_golden("defuser", "HloModule m\n" + module, expect_change);
}

// XLA's FusionCount: computations called by a fusion instruction.
int fusion_count(const ir::Module& m) {
  int n = 0;
  for (ir::CompId c : m.live_computations()) n += testing::count_opcode(m, c, ir::Opcode::kFusion);
  return n;
}

TEST(DefuserXla, NoFusionInstruction) {
  const ir::Module m = defuse(
      "ENTRY e {\n p0 = f32[2,2] parameter(0)\n p1 = f32[2,2] parameter(1)\n ROOT add = f32[2,2] add(p0, p1)\n}\n",
      false);
  EXPECT_EQ(fusion_count(m), 0);
}

const std::string kFusedAdd =
    "fused_add {\n a = f32[2,2] parameter(0)\n b = f32[2,2] parameter(1)\n ROOT add = f32[2,2] add(a, b)\n}\n";

TEST(DefuserXla, TrivialFusionInstructionAsRoot) {
  const std::string text = kFusedAdd +
                           "ENTRY e {\n p0 = f32[2,2] parameter(0)\n p1 = f32[2,2] parameter(1)\n"
                           " ROOT fusion = f32[2,2] fusion(p0, p1), kind=kLoop, calls=fused_add\n}\n";
  EXPECT_EQ(fusion_count(testing::parse_module("HloModule m\n" + text)), 1);
  const ir::Module m = defuse(text, true);
  EXPECT_EQ(fusion_count(m), 0);
  EXPECT_EQ(root_expression(m), "add(parameter(0), parameter(1))");
}

TEST(DefuserXla, TrivialFusionInstructionNotAsRoot) {
  const ir::Module m = defuse(kFusedAdd +
                                  "ENTRY e {\n p0 = f32[2,2] parameter(0)\n p1 = f32[2,2] parameter(1)\n"
                                  " fusion = f32[2,2] fusion(p0, p1), kind=kLoop, calls=fused_add\n"
                                  " ROOT negate = f32[2,2] negate(fusion)\n}\n",
                              true);
  EXPECT_EQ(fusion_count(m), 0);
  EXPECT_EQ(root_expression(m), "negate(add(parameter(0), parameter(1)))");
}

// add2 = constant + (((p0 + p1) - -(p0 + p1)) * p2) / p2, fused whole or in the two parts
// XLA's MultipleFusionInstructions makes.
TEST(DefuserXla, NonTrivialFusionInstruction) {
  const ir::Module m = defuse(
      "fused {\n a = f32[2,2] parameter(0)\n b = f32[2,2] parameter(1)\n c = f32[2,2] parameter(2)\n"
      " add = f32[2,2] add(a, b)\n negate = f32[2,2] negate(add)\n sub = f32[2,2] subtract(add, negate)\n"
      " mul = f32[2,2] multiply(sub, c)\n div = f32[2,2] divide(mul, c)\n"
      " constant = f32[2,2] constant({{1, 2}, {3, 4}})\n ROOT add2 = f32[2,2] add(constant, div)\n}\n"
      "ENTRY e {\n p0 = f32[2,2] parameter(0)\n p1 = f32[2,2] parameter(1)\n p2 = f32[2,2] parameter(2)\n"
      " ROOT fusion = f32[2,2] fusion(p0, p1, p2), kind=kLoop, calls=fused\n}\n",
      true);
  EXPECT_EQ(fusion_count(m), 0);
  EXPECT_EQ(root_expression(m, 1), "add(constant, divide)");
}

TEST(DefuserXla, MultipleFusionInstructions) {
  const ir::Module m = defuse(
      "fused_sub {\n a = f32[2,2] parameter(0)\n b = f32[2,2] parameter(1)\n add = f32[2,2] add(a, b)\n"
      " negate = f32[2,2] negate(add)\n ROOT sub = f32[2,2] subtract(add, negate)\n}\n"
      "fused_div {\n s = f32[2,2] parameter(0)\n c = f32[2,2] parameter(1)\n mul = f32[2,2] multiply(s, c)\n"
      " div = f32[2,2] divide(mul, c)\n constant = f32[2,2] constant({{1, 2}, {3, 4}})\n"
      " ROOT add2 = f32[2,2] add(constant, div)\n}\n"
      "ENTRY e {\n p0 = f32[2,2] parameter(0)\n p1 = f32[2,2] parameter(1)\n p2 = f32[2,2] parameter(2)\n"
      " fusion.1 = f32[2,2] fusion(p0, p1), kind=kLoop, calls=fused_sub\n"
      " ROOT fusion = f32[2,2] fusion(fusion.1, p2), kind=kLoop, calls=fused_div\n}\n",
      true);
  EXPECT_EQ(fusion_count(m), 0);
  EXPECT_EQ(root_expression(m, 1), "add(constant, divide)");
}

// The outer fusion's negate is itself a fusion.
TEST(DefuserXla, NestedFusionInstructions) {
  const ir::Module m = defuse(
      "inner {\n x = f32[2,2] parameter(0)\n ROOT negate = f32[2,2] negate(x)\n}\n"
      "outer {\n a = f32[2,2] parameter(0)\n b = f32[2,2] parameter(1)\n add = f32[2,2] add(a, b)\n"
      " ROOT fusion.1 = f32[2,2] fusion(add), kind=kLoop, calls=inner\n}\n"
      "ENTRY e {\n p0 = f32[2,2] parameter(0)\n p1 = f32[2,2] parameter(1)\n"
      " ROOT fusion = f32[2,2] fusion(p0, p1), kind=kLoop, calls=outer\n}\n",
      true);
  EXPECT_EQ(fusion_count(m), 0);
  EXPECT_EQ(root_expression(m), "negate(add(parameter(0), parameter(1)))");
}

}  // namespace
}  // namespace hlsgym::passes
