// gather_expander: every case of XLA's gather_expander_test.cc (openxla/xla
// xla/service/gather_expander_test.cc at 16569562fc04a1d1eadcd6a79f2269c1ccf4c421), each
// written as a golden test: HLO in; the opcodes left, or no change, out; the interpreter
// agreeing. hlsgym's pass is XLA's GatherExpander in the mode XLA's CPU pipeline runs it,
// kEliminateSimpleGathers; cases that ask for kEliminateAllGathers on a gather that needs
// a loop are listed.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {
using ir::Opcode;
using testing::count_opcode;

ir::Module expand_gathers(const std::string& module, bool expect_change, bool compare_values = true) {
  return testing::run_golden("gather_expander", module, expect_change, compare_values);
}

// TensorFlow's GatherV2 on axis 1: two index vectors, so a loop in XLA's
// kEliminateAllGathers mode.
const std::string kTensorFlowGatherV2 =
    "HloModule TensorFlowGatherV2\nENTRY main {\n operand = s32[3,3] parameter(0)\n indices = s32[2] parameter(1)\n"
    " ROOT gather = s32[3,2] gather(operand, indices), offset_dims={0}, collapsed_slice_dims={1},"
    " start_index_map={1}, index_vector_dim=1, slice_sizes={3, 1}\n}\n";

// XLA (kEliminateAllGathers) refuses 2^31 - 1 index vectors with an UNIMPLEMENTED error.
// In the CPU pipeline's mode the gather needs a loop and is left alone (listed). The
// module is never interpreted (its indices alone would be 40 GB).
TEST(GatherExpanderXla, ErrorStatusOnTooManyIndices) {
  EXPECT_FALSE(testing::deliberate_difference("gather_expander", "ErrorStatusOnTooManyIndices").empty());
  expand_gathers(
      "HloModule TensorFlowGatherMultipleBatchDims\nENTRY main {\n operand = s32[3,3] parameter(0)\n"
      " indices = s32[2147483647,5] parameter(1)\n"
      " ROOT gather = s32[2147483647,3,5] gather(operand, indices), offset_dims={1}, collapsed_slice_dims={1},"
      " start_index_map={1}, index_vector_dim=2, slice_sizes={3, 1}\n}\n",
      false, /*compare_values=*/false);
}

// XLA (kEliminateAllGathers) builds one loop over (counter, s32[3,3], s32[2], s32[2,3]).
// The CPU pipeline's mode leaves a gather that needs a loop alone (listed).
TEST(GatherExpanderXla, AvoidDegenerateDims) {
  EXPECT_FALSE(testing::deliberate_difference("gather_expander", "AvoidDegenerateDims").empty());
  expand_gathers(kTensorFlowGatherV2, false);
}

// XLA checks that its loop carries the gather's op_name metadata (kEliminateAllGathers);
// no loop in the CPU pipeline's mode (listed).
TEST(GatherExpanderXla, CheckOpMetadata) {
  EXPECT_FALSE(testing::deliberate_difference("gather_expander", "CheckOpMetadata").empty());
  expand_gathers(kTensorFlowGatherV2, false);
}

TEST(GatherExpanderXla, EliminateSimpleGathersSkipsNontrivialGather) {
  expand_gathers(
      "HloModule TensorFlowGatherV1\nENTRY main {\n operand = s32[3,3] parameter(0)\n indices = s32[2] parameter(1)\n"
      " ROOT gather = s32[2,3] gather(operand, indices), offset_dims={1}, collapsed_slice_dims={0},"
      " start_index_map={0}, index_vector_dim=1, slice_sizes={1, 3}\n}\n",
      false);
}

// XLA runs kEliminateAllGathers here, but the gather has one index vector, which the
// CPU pipeline's mode rewrites too: same answer.
TEST(GatherExpanderXla, EliminateSimpleGathersRewritesTrivialGather) {
  const ir::Module m = expand_gathers(
      "HloModule test\nENTRY main {\n operand = s32[100] parameter(0)\n indices = s32[1] parameter(1)\n"
      " ROOT gather = s32[10] gather(operand, indices), offset_dims={0}, collapsed_slice_dims={},"
      " start_index_map={0}, index_vector_dim=0, slice_sizes={10}\n}\n",
      true);
  EXPECT_EQ(count_opcode(m, m.entry(), Opcode::kGather), 0);
}

TEST(GatherExpanderXla, GatherIsBroadcast) {
  const ir::Module m = expand_gathers(
      "HloModule test\nENTRY main {\n operand = s32[1,3] parameter(0)\n indices = s32[7,5] parameter(1)\n"
      " ROOT gather = s32[7,3,5] gather(operand, indices), offset_dims={1}, collapsed_slice_dims={0},"
      " start_index_map={0}, index_vector_dim=2, slice_sizes={1,3}\n}\n",
      true);
  EXPECT_EQ(count_opcode(m, m.entry(), Opcode::kGather), 0);
  EXPECT_GE(count_opcode(m, m.entry(), Opcode::kBroadcast), 1);
}

}  // namespace
}  // namespace hlsgym::passes
