// dynamic-index-splitter: every case of XLA's dynamic_index_splitter_test.cc (openxla/xla
// xla/service/dynamic_index_splitter_test.cc at 16569562fc04a1d1eadcd6a79f2269c1ccf4c421),
// each written as a golden test: HLO in (the old form with one index vector); the root
// pattern, with each scalar index sliced out of the vector at its own position, or no
// change, out; the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;

ir::Module split(const std::string& module, bool expect_change) {
  return testing::run_golden("dynamic-index-splitter", module, expect_change);
}

// Operands first..first+2 of the root are reshape(slice(parameter(1))) of elements 0, 1, 2.
void expect_split_indices(const ir::Module& m, size_t first) {
  const InstrId root = m.computation(m.entry()).root;
  for (size_t k = 0; k < 3; ++k) {
    const InstrId index = m.operand(root, first + k);
    ASSERT_EQ(testing::expression(m, index), "reshape(slice(parameter(1)))");
    const ir::Attributes& a = m.attrs(m.operand(index, 0));
    ASSERT_EQ(a.slice.size(), 1u);
    EXPECT_EQ(a.slice[0].start, static_cast<int64_t>(k));
    EXPECT_EQ(a.slice[0].limit, static_cast<int64_t>(k + 1));
  }
}

TEST(DynamicIndexSplitterXla, DynamicSlice) {
  const ir::Module m = split(
      "HloModule DynamicSlice_module\n"
      "ENTRY entry (operand: s32[4,5,6], indices: s32[3]) -> s32[1,1,1] {\n operand = s32[4,5,6] parameter(0)\n"
      " indices = s32[3] parameter(1)\n"
      " ROOT dynamic-slice = s32[1,1,1] dynamic-slice(operand, indices), dynamic_slice_sizes={1,1,1}\n}\n",
      true);
  EXPECT_EQ(testing::root_expression(m, 1), "dynamic-slice(parameter(0), reshape, reshape, reshape)");
  expect_split_indices(m, 1);
}

TEST(DynamicIndexSplitterXla, DynamicUpdateSlice) {
  const ir::Module m = split(
      "HloModule DynamicUpdatedSlice_module\n"
      "ENTRY entry (operand: s32[4,5,6], indices: s32[3], update: s32[1,1,1]) -> s32[4,5,6] {\n"
      " operand = s32[4,5,6] parameter(0)\n indices = s32[3] parameter(1)\n update = s32[1,1,1] parameter(2)\n"
      " ROOT dynamic-update-slice = s32[4,5,6] dynamic-update-slice(operand, update, indices)\n}\n",
      true);
  EXPECT_EQ(testing::root_expression(m, 1),
            "dynamic-update-slice(parameter(0), parameter(2), reshape, reshape, reshape)");
  expect_split_indices(m, 2);
}

TEST(DynamicIndexSplitterXla, AlreadyScalar) {
  const ir::Module m = split(
      "HloModule DynamicSlice_module\n"
      "ENTRY entry (operand: s32[4,5,6], index.0: s32[], index.1: s32[], index.2: s32[]) -> s32[1,1,1] {\n"
      " operand = s32[4,5,6] parameter(0)\n index.0 = s32[] parameter(1)\n index.1 = s32[] parameter(2)\n"
      " index.2 = s32[] parameter(3)\n"
      " ROOT dynamic-slice = s32[1,1,1] dynamic-slice(operand, index.0, index.1, index.2), dynamic_slice_sizes={1,1,1}\n"
      "}\n",
      false);
  EXPECT_EQ(testing::root_expression(m), "dynamic-slice(parameter(0), parameter(1), parameter(2), parameter(3))");
}

}  // namespace
}  // namespace hlsgym::passes
