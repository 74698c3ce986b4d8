// dot-merger: every case of XLA's dot_merger_test.cc (openxla/xla
// xla/service/dot_merger_test.cc at 001918b7024cf5f020051a9d25d2dd57a5896aaa), each
// written as a golden test: HLO in; the root pattern, or no change, out; the interpreter
// agreeing. Shapes are a tenth of XLA's (same structure) so the interpreter is quick; the
// size threshold of NoMergeDueToIsMergeCandidate is scaled with them.
#include <gtest/gtest.h>

#include <limits>

#include "passes/dot_merger.h"
#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using testing::expression;

constexpr int64_t kNoMaxSizeToMerge = std::numeric_limits<int64_t>::max();

// Runs dot-merger once on ENTRY `body` (then algsimp to its fixed point if `cleanup`, as
// XLA's test does to fold slices of slices); checks "changed", the verifier and the
// interpreter; with no change expected, that the module is untouched.
ir::Module merge(const std::string& body, bool expect_change, int64_t max_size = kNoMaxSizeToMerge,
                 bool cleanup = false) {
  const ir::Module before = testing::parse_module("HloModule module\n\n" + body);
  ir::Module m = before;
  const bool changed = make_dot_merger(max_size)->run(m);
  EXPECT_EQ(changed, expect_change) << ir::print_module(m);
  const auto issues = ir::verify_all(m);
  EXPECT_TRUE(issues.empty()) << issues.front().message << "\n" << ir::print_module(m);
  if (!expect_change) {
    EXPECT_EQ(ir::print_module(m), ir::print_module(before));
  }
  if (cleanup) testing::run_to_fixed_point("algsimp", m);
  testing::expect_same_outputs(before, m);
  return m;
}

InstrId root(const ir::Module& m) { return m.computation(m.entry()).root; }
InstrId root_operand(const ir::Module& m, size_t k) { return m.operand(root(m), k); }

// Root operands `ks` are slices of one dot; returns that dot's expression.
std::string one_sliced_dot(const ir::Module& m, std::initializer_list<size_t> ks) {
  InstrId dot = ir::kNoId;
  for (size_t k : ks) {
    const InstrId s = root_operand(m, k);
    EXPECT_EQ(m.opcode(s), ir::Opcode::kSlice) << ir::print_module(m);
    if (m.opcode(s) != ir::Opcode::kSlice) return "";
    if (dot == ir::kNoId) dot = m.operand(s, 0);
    EXPECT_EQ(m.operand(s, 0), dot) << "not one dot:\n" << ir::print_module(m);
  }
  return expression(m, dot);
}

const std::string kLhs3Rhs =
    "ENTRY main {\n lhs0 = f32[10,20] parameter(0)\n lhs1 = f32[30,20] parameter(1)\n lhs2 = f32[50,20] parameter(2)\n"
    " rhs = f32[20,5] parameter(3)\n"
    " dot0 = f32[10,5] dot(lhs0, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
    " dot1 = f32[30,5] dot(lhs1, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
    " dot2 = f32[50,5] dot(lhs2, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
    " ROOT tuple = (f32[10,5], f32[30,5], f32[50,5]) tuple(dot0, dot1, dot2)\n}\n";

// Two dots of 2-d operands [10,10] with the given dimension attributes and types.
std::string two_dots(const std::string& dims0, const std::string& dims1, const std::string& lhs1_type = "f32",
                     const std::string& rhs_type = "f32", const std::string& out1_type = "f32",
                     const std::string& in_type = "f32", const std::string& out0_type = "f32") {
  return "ENTRY main {\n lhs0 = " + in_type + "[10,10] parameter(0)\n lhs1 = " + lhs1_type +
         "[10,10] parameter(1)\n rhs = " + rhs_type + "[10,10] parameter(2)\n dot0 = " + out0_type +
         "[10,10] dot(lhs0, rhs), " + dims0 + "\n dot1 = " + out1_type + "[10,10] dot(lhs1, rhs), " + dims1 +
         "\n ROOT tuple = (" + out0_type + "[10,10], " + out1_type + "[10,10]) tuple(dot0, dot1)\n}\n";
}

TEST(DotMergerXla, MergeRHS) {
  const ir::Module m = merge(
      "ENTRY main {\n lhs = f32[20,10] parameter(0)\n rhs0 = f32[10,1] parameter(1)\n rhs1 = f32[10,5] parameter(2)\n"
      " dot0 = f32[20,1] dot(lhs, rhs0), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " dot1 = f32[20,5] dot(lhs, rhs1), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " ROOT tuple = (f32[20,1], f32[20,5]) tuple(dot0, dot1)\n}\n",
      true);
  EXPECT_EQ(one_sliced_dot(m, {0, 1}), "dot(parameter(0), concatenate(parameter(1), parameter(2)))");
}

TEST(DotMergerXla, MergeLHS) {
  const ir::Module m = merge(
      "ENTRY main {\n lhs0 = f32[10,20] parameter(0)\n lhs1 = f32[30,20] parameter(1)\n rhs = f32[20,5] parameter(2)\n"
      " dot0 = f32[10,5] dot(lhs0, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " dot1 = f32[30,5] dot(lhs1, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " ROOT tuple = (f32[10,5], f32[30,5]) tuple(dot0, dot1)\n}\n",
      true);
  EXPECT_EQ(one_sliced_dot(m, {0, 1}), "dot(concatenate(parameter(0), parameter(1)), parameter(2))");
}

TEST(DotMergerXla, MergeThree) {
  const ir::Module m = merge(kLhs3Rhs, true, kNoMaxSizeToMerge, /*cleanup=*/true);
  EXPECT_EQ(one_sliced_dot(m, {0, 1, 2}),
            "dot(concatenate(parameter(0), parameter(1), parameter(2)), parameter(3))");
}

TEST(DotMergerXla, NoMergeThreeDueToCycle) {
  const ir::Module m = merge(
      "ENTRY main {\n lhs0 = f32[10,20] parameter(0)\n lhs1 = f32[30,20] parameter(1)\n rhs = f32[20,5] parameter(2)\n"
      " dot0 = f32[10,5] dot(lhs0, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " dot1 = f32[30,5] dot(lhs1, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " zero = f32[] constant(0)\n lhs2 = f32[50,20] pad(dot0, zero), padding=40_0x15_0\n"
      " dot2 = f32[50,5] dot(lhs2, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " ROOT tuple = (f32[10,5], f32[30,5], f32[50,5]) tuple(dot0, dot1, dot2)\n}\n",
      true, kNoMaxSizeToMerge, /*cleanup=*/true);
  EXPECT_EQ(one_sliced_dot(m, {0, 1}), "dot(concatenate(parameter(0), parameter(1)), parameter(2))");
  ASSERT_EQ(m.opcode(root_operand(m, 2)), ir::Opcode::kDot);
  EXPECT_EQ(expression(m, m.operand(root_operand(m, 2), 1)), "parameter(2)");
}

TEST(DotMergerXla, NoMergeDataDependency) {
  merge("ENTRY main {\n lhs0 = f32[10,20] parameter(0)\n rhs = f32[20,5] parameter(1)\n"
        " dot0 = f32[10,5] dot(lhs0, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
        " zero = f32[] constant(0)\n lhs1 = f32[30,20] pad(dot0, zero), padding=20_0x15_0\n"
        " dot1 = f32[30,5] dot(lhs1, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
        " ROOT tuple = (f32[10,5], f32[30,5]) tuple(dot0, dot1)\n}\n",
        false);
}

TEST(DotMergerXla, MergeSameContractingDimsOnBothSides) {
  const ir::Module m = merge(
      "ENTRY main {\n lhs0 = f32[10,20] parameter(0)\n lhs1 = f32[30,20] parameter(1)\n rhs = f32[5,20] parameter(2)\n"
      " dot0 = f32[10,5] dot(lhs0, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={1}\n"
      " dot1 = f32[30,5] dot(lhs1, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={1}\n"
      " ROOT tuple = (f32[10,5], f32[30,5]) tuple(dot0, dot1)\n}\n",
      true);
  EXPECT_EQ(one_sliced_dot(m, {0, 1}), "dot(concatenate(parameter(0), parameter(1)), parameter(2))");
}

TEST(DotMergerXla, MergeWithBatchDims) {
  const ir::Module m = merge(
      "ENTRY main {\n lhs0 = f32[2,4,10,20] parameter(0)\n lhs1 = f32[2,4,30,20] parameter(1)\n"
      " rhs = f32[2,4,20,5] parameter(2)\n"
      " dot0 = f32[2,4,10,5] dot(lhs0, rhs), lhs_batch_dims={0,1}, rhs_batch_dims={0,1}, lhs_contracting_dims={3},"
      " rhs_contracting_dims={2}\n"
      " dot1 = f32[2,4,30,5] dot(lhs1, rhs), lhs_batch_dims={0,1}, rhs_batch_dims={0,1}, lhs_contracting_dims={3},"
      " rhs_contracting_dims={2}\n"
      " ROOT tuple = (f32[2,4,10,5], f32[2,4,30,5]) tuple(dot0, dot1)\n}\n",
      true);
  EXPECT_EQ(one_sliced_dot(m, {0, 1}), "dot(concatenate(parameter(0), parameter(1)), parameter(2))");
}

TEST(DotMergerXla, MergeWithUnsortedBatchDims) {
  const ir::Module m = merge(
      "ENTRY main {\n lhs0 = f32[2,4,10,20] parameter(0)\n lhs1 = f32[2,4,30,20] parameter(1)\n"
      " rhs = f32[2,4,20,5] parameter(2)\n"
      " dot0 = f32[4,2,10,5] dot(lhs0, rhs), lhs_batch_dims={1,0}, rhs_batch_dims={1,0}, lhs_contracting_dims={3},"
      " rhs_contracting_dims={2}\n"
      " dot1 = f32[4,2,30,5] dot(lhs1, rhs), lhs_batch_dims={1,0}, rhs_batch_dims={1,0}, lhs_contracting_dims={3},"
      " rhs_contracting_dims={2}\n"
      " ROOT tuple = (f32[4,2,10,5], f32[4,2,30,5]) tuple(dot0, dot1)\n}\n",
      true);
  EXPECT_EQ(one_sliced_dot(m, {0, 1}), "dot(concatenate(parameter(0), parameter(1)), parameter(2))");
}

// dot0 alone is under the threshold: it merges with dot1 (the first partner); the merged
// dot and dot2 are both over it, so dot2 stays.
TEST(DotMergerXla, NoMergeDueToIsMergeCandidate) {
  const ir::Module m = merge(kLhs3Rhs, true, /*max_size=*/(10 * 5 + 10 * 20 + 20 * 5) * 4);
  EXPECT_EQ(one_sliced_dot(m, {0, 1}), "dot(concatenate(parameter(0), parameter(1)), parameter(3))");
  EXPECT_EQ(expression(m, root_operand(m, 2)), "dot(parameter(2), parameter(3))");
}

TEST(DotMergerXla, NoMergeNonCanonicalLhsBatch) {
  merge("ENTRY main {\n lhs0 = f32[4,4,4,4] parameter(0)\n lhs1 = f32[4,4,4,4] parameter(1)\n"
        " rhs = f32[4,4,4,4] parameter(2)\n"
        " dot0 = f32[4,4,4,4] dot(lhs0, rhs), lhs_batch_dims={0,1}, rhs_batch_dims={0,1}, lhs_contracting_dims={2},"
        " rhs_contracting_dims={2}\n"
        " dot1 = f32[4,4,4,4] dot(lhs1, rhs), lhs_batch_dims={0,2}, rhs_batch_dims={0,1}, lhs_contracting_dims={1},"
        " rhs_contracting_dims={2}\n"
        " ROOT tuple = (f32[4,4,4,4], f32[4,4,4,4]) tuple(dot0, dot1)\n}\n",
        false);
}

TEST(DotMergerXla, NoMergeNonCanonicalRhsBatch) {
  merge("ENTRY main {\n lhs0 = f32[4,4,4,4] parameter(0)\n lhs1 = f32[4,4,4,4] parameter(1)\n"
        " rhs = f32[4,4,4,4] parameter(2)\n"
        " dot0 = f32[4,4,4,4] dot(lhs0, rhs), lhs_batch_dims={0,1}, rhs_batch_dims={0,1}, lhs_contracting_dims={2},"
        " rhs_contracting_dims={2}\n"
        " dot1 = f32[4,4,4,4] dot(lhs1, rhs), lhs_batch_dims={0,1}, rhs_batch_dims={0,2}, lhs_contracting_dims={2},"
        " rhs_contracting_dims={1}\n"
        " ROOT tuple = (f32[4,4,4,4], f32[4,4,4,4]) tuple(dot0, dot1)\n}\n",
        false);
}

TEST(DotMergerXla, NoMergeMultipleContractingDims) {
  merge("ENTRY main {\n lhs0 = f32[5,5,5] parameter(0)\n lhs1 = f32[5,5,5] parameter(1)\n rhs = f32[5,5,5] parameter(2)\n"
        " dot0 = f32[5,5] dot(lhs0, rhs), lhs_contracting_dims={0,1}, rhs_contracting_dims={0,1}\n"
        " dot1 = f32[5,5] dot(lhs1, rhs), lhs_contracting_dims={0,1}, rhs_contracting_dims={0,1}\n"
        " ROOT tuple = (f32[5,5], f32[5,5]) tuple(dot0, dot1)\n}\n",
        false);
}

TEST(DotMergerXla, NoMergeMultipleOuterDims) {
  merge("ENTRY main {\n lhs0 = f32[5,5,5] parameter(0)\n lhs1 = f32[5,5,5] parameter(1)\n rhs = f32[5,5,5] parameter(2)\n"
        " dot0 = f32[5,5,5,5] dot(lhs0, rhs), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"
        " dot1 = f32[5,5,5,5] dot(lhs1, rhs), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"
        " ROOT tuple = (f32[5,5,5,5], f32[5,5,5,5]) tuple(dot0, dot1)\n}\n",
        false);
}

TEST(DotMergerXla, NoMergeDifferentLhsContractingDims) {
  merge(two_dots("lhs_contracting_dims={0}, rhs_contracting_dims={0}", "lhs_contracting_dims={1}, rhs_contracting_dims={0}"),
        false);
}

TEST(DotMergerXla, NoMergeDifferentRhsContractingDims) {
  merge(two_dots("lhs_contracting_dims={0}, rhs_contracting_dims={0}", "lhs_contracting_dims={0}, rhs_contracting_dims={1}"),
        false);
}

// dot1 has a control successor, dot2 a control predecessor: only dot0 is left, alone.
TEST(DotMergerXla, NoMergeControlPredecessor) {
  merge("ENTRY main {\n lhs0 = f32[10,10] parameter(0)\n lhs1 = f32[10,10] parameter(1)\n rhs = f32[10,10] parameter(2)\n"
        " dot0 = f32[10,10] dot(lhs0, rhs), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"
        " dot1 = f32[10,10] dot(lhs1, rhs), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"
        " dot2 = f32[10,10] dot(lhs1, rhs), lhs_contracting_dims={0}, rhs_contracting_dims={0},"
        " control-predecessors={dot1}\n"
        " ROOT tuple = (f32[10,10], f32[10,10], f32[10,10]) tuple(dot0, dot1, dot2)\n}\n",
        false);
}

const std::string kContract0 = "lhs_contracting_dims={0}, rhs_contracting_dims={0}";

TEST(DotMergerXla, NoMergeDifferentLhsTypes) { merge(two_dots(kContract0, kContract0, "f16"), false); }

TEST(DotMergerXla, NoMergeDifferentRhsTypes) {
  merge("ENTRY main {\n lhs = f32[10,10] parameter(0)\n rhs0 = f32[10,10] parameter(1)\n rhs1 = f16[10,10] parameter(2)\n"
        " dot0 = f32[10,10] dot(lhs, rhs0), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"
        " dot1 = f32[10,10] dot(lhs, rhs1), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"
        " ROOT tuple = (f32[10,10], f32[10,10]) tuple(dot0, dot1)\n}\n",
        false);
}

TEST(DotMergerXla, NoMergeDifferentReturnTypes) {
  merge(two_dots(kContract0, kContract0, "f16", "f16", "f32", "f16", "f16"), false);
}

TEST(DotMergerXla, MergeWithTypeUpgrade) {
  const ir::Module m = merge(two_dots(kContract0, kContract0, "f16", "f16", "f32", "f16", "f32"), true);
  EXPECT_EQ(one_sliced_dot(m, {0, 1}), "dot(concatenate(parameter(0), parameter(1)), parameter(2))");
  const InstrId dot = m.operand(root_operand(m, 0), 0);
  EXPECT_EQ(m.shape(dot), ir::Shape(ir::ElementType::kF32, {20, 10})) << ir::print_module(m);
}

}  // namespace
}  // namespace hlsgym::passes
