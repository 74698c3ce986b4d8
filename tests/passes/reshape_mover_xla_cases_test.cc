// reshape-mover: every case of XLA's reshape_mover_test.cc (openxla/xla
// xla/service/reshape_mover_test.cc at 16569562fc04a1d1eadcd6a79f2269c1ccf4c421), each
// written as a golden test: HLO in (XLA builds most of its modules with
// HloComputation::Builder; here they are HLO text of the same graph); the root pattern,
// or no change, out; the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {
using testing::root_expression;

ir::Module move(const std::string& entry, bool expect_change) {
  return testing::run_golden("reshape-mover", "HloModule m\n" + entry, expect_change);
}

std::string root_shape(const ir::Module& m) { return m.shape(m.computation(m.entry()).root).to_string(); }

// add(reshape(p0), reshape(p1)) with p0, p1 of the given types, reshaped to `out`.
std::string add_of_reshapes(const std::string& in0, const std::string& in1, const std::string& out) {
  return "ENTRY e {\n param0 = " + in0 + " parameter(0)\n param1 = " + in1 + " parameter(1)\n reshape0 = " + out +
         " reshape(param0)\n reshape1 = " + out + " reshape(param1)\n ROOT add = " + out +
         " add(reshape0, reshape1)\n}\n";
}

TEST(ReshapeMoverXla, ReshapesWithDifferentInputShapesNotMoved) {
  const ir::Module m = move(add_of_reshapes("f32[1,8,1,7]", "f32[1,8,7,1]", "f32[8,7]"), false);
  EXPECT_EQ(root_expression(m), "add(reshape(parameter(0)), reshape(parameter(1)))");
}

// An f32[8,7] constant of zeros (XLA's Literal::CreateFromShape).
std::string zeros_8x7() {
  std::string row = "{0", rows = "{";
  for (int k = 1; k < 7; ++k) row += ", 0";
  row += "}";
  for (int k = 0; k < 8; ++k) rows += (k ? ", " : "") + row;
  return rows + "}";
}

// The rng has one user: rearranging it is free, so there is no rearrangement worth moving.
TEST(ReshapeMoverXla, 1ConstantAnd1ReshapesOnRngNotMoved) {
  const ir::Module before = testing::parse_module(
      "HloModule m\nENTRY e {\n zero = f32[] constant(0)\n one = f32[] constant(1)\n"
      " rng0 = f32[1,8,1,7,1] rng(zero, one), distribution=rng_uniform\n reshape0 = f32[8,7] reshape(rng0)\n"
      " const1 = f32[8,7] constant(" + zeros_8x7() + ")\n ROOT add = f32[8,7] add(reshape0, const1)\n}\n");
  ir::Module m = before;
  EXPECT_FALSE(testing::run_pass("reshape-mover", m));  // rng: no value comparison
  EXPECT_EQ(ir::print_module(m), ir::print_module(before));
}

TEST(ReshapeMoverXla, ScalarReshapesNotMoved) {
  const ir::Module m = move(add_of_reshapes("f32[1,1,1]", "f32[1,1,1]", "f32[]"), false);
  EXPECT_EQ(root_expression(m), "add(reshape(parameter(0)), reshape(parameter(1)))");
}

TEST(ReshapeMoverXla, EquivalentReshapesMoved) {
  const ir::Module m = move(add_of_reshapes("f32[1,8,1,7]", "f32[1,8,1,7]", "f32[8,7]"), true);
  EXPECT_EQ(root_expression(m), "reshape(add(parameter(0), parameter(1)))");
  EXPECT_EQ(root_shape(m), "f32[8,7]");
}

TEST(ReshapeMoverXla, 1ConstantAnd2ReshapesMoved) {
  const ir::Module m = move(
      "ENTRY e {\n const0 = pred[2,3] constant({{true, true, false}, {false, false, true}})\n"
      " param1 = f32[1,3,1,2] parameter(0)\n reshape1 = f32[2,3] reshape(param1)\n"
      " param2 = f32[1,3,1,2] parameter(1)\n reshape2 = f32[2,3] reshape(param2)\n"
      " ROOT select = f32[2,3] select(const0, reshape1, reshape2)\n}\n",
      true);
  EXPECT_EQ(root_expression(m), "reshape(select(reshape(constant), parameter(0), parameter(1)))");
  EXPECT_EQ(root_shape(m), "f32[2,3]");
}

TEST(ReshapeMoverXla, 1ParameterAnd1ReshapeNotMoved) {
  const ir::Module m = move(
      "ENTRY e {\n param0 = f32[1,8,1,7] parameter(0)\n reshape0 = f32[8,7] reshape(param0)\n"
      " param1 = f32[8,7] parameter(1)\n ROOT add = f32[8,7] add(reshape0, param1)\n}\n",
      false);
  EXPECT_EQ(root_expression(m), "add(reshape(parameter(0)), parameter(1))");
}

TEST(ReshapeMoverXla, 2TrivialConstantReshapeNotMoved) {
  const ir::Module m = move(
      "ENTRY e {\n const0 = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n reshape0 = f32[3,2] reshape(const0)\n"
      " const1 = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n reshape1 = f32[3,2] reshape(const1)\n"
      " pred = pred[3,2] parameter(0)\n ROOT select = f32[3,2] select(pred, reshape0, reshape1)\n}\n",
      false);
  EXPECT_EQ(root_expression(m), "select(parameter(0), reshape(constant), reshape(constant))");
}

TEST(ReshapeMoverXla, 1NonTrivialReshapeMoved) {
  const ir::Module m = move(
      "ENTRY e {\n param0 = f32[1,3,1,2] parameter(0)\n const1 = f32[2,3] constant({{1, 2, 3}, {4, 5, 6}})\n"
      " reshape0 = f32[2,3] reshape(param0)\n ROOT add = f32[2,3] add(reshape0, const1)\n}\n",
      true);
  EXPECT_EQ(root_expression(m), "reshape(add(parameter(0), reshape(constant)))");
  EXPECT_EQ(root_shape(m), "f32[2,3]");
}

// reshape1 rearranges a constant of another shape: XLA counts it as a rearrangement that
// is neither equivalent to reshape0 nor free, so nothing moves.
TEST(ReshapeMoverXla, 1NonTrivialReshapeWith1ReshapedConstNotMoved) {
  const ir::Module m = move(
      "ENTRY e {\n param0 = f32[1,3] parameter(0)\n const1 = f32[3] constant({9, 8, 7})\n"
      " reshape0 = f32[1,1,3] reshape(param0)\n reshape1 = f32[1,1,3] reshape(const1)\n"
      " ROOT add = f32[1,1,3] add(reshape0, reshape1)\n}\n",
      false);
  EXPECT_EQ(root_expression(m), "add(reshape(parameter(0)), reshape(constant))");
}

// XLA wraps the add in a loop fusion (CreateFusionInstruction) and moves the reshapes
// across the fusion. hlsgym's reshape-mover treats a fusion as not elementwise (listed).
TEST(ReshapeMoverXla, EquivalentReshapesMovedAcrossFusion) {
  EXPECT_FALSE(testing::deliberate_difference("reshape-mover", "EquivalentReshapesMovedAcrossFusion").empty());
  const ir::Module m = move(
      "fused {\n p0 = f32[8,7] parameter(0)\n p1 = f32[8,7] parameter(1)\n ROOT add = f32[8,7] add(p0, p1)\n}\n"
      "ENTRY e {\n param0 = f32[1,8,1,7] parameter(0)\n param1 = f32[1,8,1,7] parameter(1)\n"
      " reshape0 = f32[8,7] reshape(param0)\n reshape1 = f32[8,7] reshape(param1)\n"
      " ROOT fusion = f32[8,7] fusion(reshape0, reshape1), kind=kLoop, calls=fused\n}\n",
      false);
  EXPECT_EQ(root_expression(m), "fusion(reshape(parameter(0)), reshape(parameter(1)))");
}

TEST(ReshapeMoverXla, EquivalentReshapesMovedAcrossSelect) {
  const ir::Module m = move(
      "ENTRY e {\n param0 = f32[1,8,1,7] parameter(0)\n param1 = f32[1,8,1,7] parameter(1)\n"
      " pred = pred[1,8,1,7] parameter(2)\n reshape0 = f32[8,7] reshape(param0)\n"
      " reshape1 = f32[8,7] reshape(param1)\n reshape_pred = pred[8,7] reshape(pred)\n"
      " ROOT select = f32[8,7] select(reshape_pred, reshape0, reshape1)\n}\n",
      true);
  EXPECT_EQ(root_expression(m), "reshape(select(parameter(2), parameter(0), parameter(1)))");
  EXPECT_EQ(root_shape(m), "f32[8,7]");
}

TEST(ReshapeMoverXla, ScalarReshapeNotMovedAcrossSelect) {
  const ir::Module m = move(
      "ENTRY e {\n param0 = f32[] parameter(0)\n param1 = f32[] parameter(1)\n pred = pred[1,1,1] parameter(2)\n"
      " reshape_pred = pred[] reshape(pred)\n ROOT select = f32[] select(reshape_pred, param0, param1)\n}\n",
      false);
  EXPECT_EQ(root_expression(m), "select(reshape(parameter(2)), parameter(0), parameter(1))");
}

TEST(ReshapeMoverXla, MultiplePasses) {
  const ir::Module m = move(
      "ENTRY e {\n param0 = f32[1,8,1,7] parameter(0)\n param1 = f32[1,8,1,7] parameter(1)\n"
      " param2 = f32[8,7,1] parameter(2)\n reshape0 = f32[8,7,1] reshape(param0)\n"
      " reshape1 = f32[8,7,1] reshape(param1)\n add0 = f32[8,7,1] add(reshape0, reshape1)\n"
      " reshape2 = f32[8,7] reshape(param2)\n reshape3 = f32[8,7] reshape(add0)\n"
      " ROOT add1 = f32[8,7] add(reshape2, reshape3)\n}\n",
      true);
  EXPECT_EQ(root_expression(m), "reshape(add(parameter(2), reshape(add(parameter(0), parameter(1)))))");
}

TEST(ReshapeMoverXla, SinkTransposeAcrossBroadcastScalar) {
  const ir::Module m = move(
      "ENTRY TransposeMulInversedTranspose {\n src0 = f32[20,8]{1,0} parameter(0)\n"
      " transpose0 = f32[8,20]{1,0} transpose(src0), dimensions={1,0}\n src1 = f32[] parameter(1)\n"
      " broadcast0 = f32[8,20]{1,0} broadcast(src1), dimensions={}\n"
      " ROOT multiply0 = f32[8,20]{1,0} multiply(transpose0, broadcast0)\n}\n",
      true);
  EXPECT_EQ(root_expression(m, 1), "transpose(multiply)");
}

TEST(ReshapeMoverXla, ReshapeWithUsersOutsideCandidatesNotSink) {
  move("ENTRY ReshapeWithMultipleUsers {\n param0 = f32[20,8]{1,0} parameter(0)\n"
       " reshape0 = f32[8,20]{1,0} reshape(param0)\n param1 = f32[] parameter(1)\n"
       " broadcast0 = f32[8,20]{1,0} broadcast(param1), dimensions={}\n param2 = f32[20,8]{1,0} parameter(2)\n"
       " reshape1 = f32[8,20]{1,0} reshape(param2)\n param3 = f32[20,8]{1,0} parameter(3)\n"
       " reshape2 = f32[8,20]{1,0} reshape(param3)\n param4 = f32[8,20]{1,0} parameter(4)\n"
       " add0 = f32[8,20]{1,0} add(reshape0, broadcast0)\n add1 = f32[8,20]{1,0} add(reshape0, reshape1)\n"
       " add2 = f32[8,20]{1,0} add(reshape1, param4)\n"
       " ROOT tuple = (f32[8,20]{1,0},f32[8,20]{1,0}, f32[8,20]{1,0}) tuple(add0, add1, add2)\n}\n",
       false);
}

TEST(ReshapeMoverXla, ReshapeNoUsersOutsideCandidatesSink1) {
  const ir::Module m = move(
      "ENTRY ReshapeWithMultipleUsers1 {\n param0 = f32[20,8]{1,0} parameter(0)\n"
      " reshape0 = f32[8,20]{1,0} reshape(param0)\n param1 = f32[] parameter(1)\n"
      " broadcast0 = f32[8,20]{1,0} broadcast(param1), dimensions={}\n param2 = f32[20,8]{1,0} parameter(2)\n"
      " reshape1 = f32[8,20]{1,0} reshape(param2)\n param3 = f32[20,8]{1,0} parameter(3)\n"
      " reshape2 = f32[8,20]{1,0} reshape(param3)\n add0 = f32[8,20]{1,0} add(reshape0, broadcast0)\n"
      " add1 = f32[8,20]{1,0} add(reshape0, reshape1)\n add2 = f32[8,20]{1,0} add(reshape1, reshape2)\n"
      " ROOT tuple = (f32[8,20]{1,0},f32[8,20]{1,0}, f32[8,20]{1,0}) tuple(add0, add1, add2)\n}\n",
      true);
  EXPECT_EQ(root_expression(m, 1), "tuple(reshape, reshape, reshape)");
}

TEST(ReshapeMoverXla, ReshapeNoUsersOutsideCandidatesSink2) {
  const ir::Module m = move(
      "ENTRY ReshapeWithMultipleUsers2 {\n param0 = f32[20,8]{1,0} parameter(0)\n"
      " reshape0 = f32[8,20]{1,0} reshape(param0)\n ROOT add0 = f32[8,20]{1,0} add(reshape0, reshape0)\n}\n",
      true);
  EXPECT_EQ(root_expression(m, 1), "reshape(add)");
}

}  // namespace
}  // namespace hlsgym::passes
