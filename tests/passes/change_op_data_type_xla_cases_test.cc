// change-op-data-type: every case of XLA's change_op_data_type_test.cc (openxla/xla
// xla/service/change_op_data_type_test.cc at 16569562fc04a1d1eadcd6a79f2269c1ccf4c421),
// each a golden test: XLA's HLO text in; the root pattern with its shapes, or no change,
// out; the interpreter agreeing where the rewrite is exact. XLA's cases construct the pass
// with a type map and a matcher; hlsgym's pass is the configuration XLA's CPU pipeline
// runs (f16 -> f32, dots and convolutions), so the cases with other options are listed.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {

const char* const kPass = "change-op-data-type";

std::string shape_of(const ir::Module& m, ir::InstrId i) { return m.shape(i).to_string(false); }

// XLA's matcher accepts every instruction (an add here); the CPU configuration changes
// dots and convolutions only, so the add stays f16.
TEST(ChangeOpDataTypeXla, Simple) {
  EXPECT_FALSE(testing::deliberate_difference(kPass, "Simple").empty());
  const ir::Module m = testing::run_golden(
      kPass, "HloModule module\nENTRY entry {\n ROOT op = add(f16[10] parameter(0), f16[10] parameter(1))\n}\n", false);
  EXPECT_EQ(testing::root_expression(m), "add(parameter(0), parameter(1))");
}

TEST(ChangeOpDataTypeXla, AllTypesMustBeSame) {
  testing::run_golden(kPass,
                      "HloModule module\nENTRY entry {\n ROOT op = f16[1] dynamic-slice(f16[10] parameter(0), "
                      "s32[1] parameter(1)), dynamic_slice_sizes={1}\n}\n",
                      false);
}

// f16 computed in f32 and rounded back: two roundings instead of one, so the values are
// not compared exactly (the pass says reassociates_floats()).
TEST(ChangeOpDataTypeXla, DotAndConv) {
  ir::Module m = testing::parse_module(
      "HloModule module\nENTRY entry {\n dot = f16[10,10] dot(f16[10,10] parameter(0), f16[10,10] parameter(1)),\n"
      "   lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " conv = f16[1,2,1] convolution(f16[1,2,1] parameter(2), f16[1,1,1] parameter(3)),\n"
      "   window={size=1}, dim_labels=b0f_0io->b0f\n root = tuple(dot, conv)\n}\n");
  EXPECT_TRUE(testing::run_pass(kPass, m));
  EXPECT_EQ(testing::root_expression(m), "tuple(convert(dot(convert(parameter(0)), convert(parameter(1)))), "
                                         "convert(convolution(convert(parameter(2)), convert(parameter(3)))))");
  const ir::InstrId root = m.computation(m.entry()).root;
  const ir::InstrId dot = m.operand(m.operand(root, 0), 0), conv = m.operand(m.operand(root, 1), 0);
  EXPECT_EQ(shape_of(m, m.operand(root, 0)), "f16[10,10]");
  EXPECT_EQ(shape_of(m, m.operand(dot, 0)), "f32[10,10]");
  EXPECT_EQ(shape_of(m, m.operand(dot, 1)), "f32[10,10]");
  EXPECT_EQ(shape_of(m, m.operand(root, 1)), "f16[1,2,1]");
  EXPECT_EQ(shape_of(m, m.operand(conv, 0)), "f32[1,2,1]");
  EXPECT_EQ(shape_of(m, m.operand(conv, 1)), "f32[1,1,1]");
}

// A custom cloner is an option of XLA's pass API; with the CPU configuration the add stays.
TEST(ChangeOpDataTypeXla, SimpleWithCloner) {
  EXPECT_FALSE(testing::deliberate_difference(kPass, "SimpleWithCloner").empty());
  testing::run_golden(
      kPass, "HloModule module\nENTRY entry {\n ROOT op = add(f16[10] parameter(0), f16[10] parameter(1))\n}\n", false);
}

// XLA maps f16 -> f32 and u16 -> u32 for every instruction; the CPU configuration leaves adds.
TEST(ChangeOpDataTypeXla, SimpleWithMultipleTypes) {
  EXPECT_FALSE(testing::deliberate_difference(kPass, "SimpleWithMultipleTypes").empty());
  const ir::Module m = testing::run_golden(
      kPass,
      "HloModule module\nENTRY entry {\n op1 = add(f16[10] parameter(0), f16[10] parameter(1))\n"
      " op2 = add(u16[10] parameter(2), u16[10] parameter(3))\n ROOT tup = (f16[10], u16[10]) tuple(op1, op2)\n}\n",
      false);
  EXPECT_EQ(testing::root_expression(m),
            "tuple(add(parameter(0), parameter(1)), add(parameter(2), parameter(3)))");
}

}  // namespace
}  // namespace hlsgym::passes
