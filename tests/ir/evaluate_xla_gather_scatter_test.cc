// XLA's HLO evaluator cases (xla/hlo/evaluator/hlo_evaluator_test.cc at openxla/xla
// 001918b7024cf5f020051a9d25d2dd57a5896aaa): gather and scatter, XLA's HLO text with its
// arguments. Counted in tests/ir/xla_cases/PORTED.md.
#include <gtest/gtest.h>

#include "tests/support/eval_case.h"

namespace hlsgym::testing {
namespace {

// A scatter module whose combiner `combine` is `update` (the update replaces the operand)
// or the s32 binary op named.
std::string scatter_module(const std::string& op, const std::string& body) {
  const std::string root = op == "update" ? "  ROOT r = s32[] parameter(1)\n"
                                          : "  r = s32[] parameter(1)\n  ROOT c = s32[] " + op + "(l, r)\n";
  return "HloModule m\n\ncombine {\n  l = s32[] parameter(0)\n" + root + "}\n\nENTRY e {\n" + body + "}\n";
}

TEST(EvaluateXlaGatherScatter, EvaluateGather_TensorFlowGatherV1) {
  const ir::Literal got = evaluate_text(entry_module("  operand = s32[3,3] parameter(0)\n  indices = s32[2] parameter(1)\n"
                                              "  ROOT g = s32[2,3] gather(operand, indices), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}\n"),
                                        {literal("s32[3,3] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}"), literal("s32[2] {0, 2}")});
  EXPECT_TRUE(same_literal(literal("s32[2,3] {{1, 2, 3}, {7, 8, 9}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateGather_TensorFlowGatherV2) {
  const ir::Literal got = evaluate_text(entry_module("  operand = s32[3,3] parameter(0)\n  indices = s32[2] parameter(1)\n"
                                              "  ROOT g = s32[3,2] gather(operand, indices), offset_dims={0}, collapsed_slice_dims={1}, start_index_map={1}, index_vector_dim=1, slice_sizes={3,1}\n"),
                                        {literal("s32[3,3] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}"), literal("s32[2] {0, 2}")});
  EXPECT_TRUE(same_literal(literal("s32[3,2] {{1, 3}, {4, 6}, {7, 9}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateGather_TensorFlowGatherMultipleBatchDims) {
  const ir::Literal got = evaluate_text(entry_module("  operand = s32[3,3] parameter(0)\n  indices = s32[2,2] parameter(1)\n"
                                              "  ROOT g = s32[2,3,2] gather(operand, indices), offset_dims={1}, collapsed_slice_dims={1}, start_index_map={1}, index_vector_dim=2, slice_sizes={3,1}\n"),
                                        {literal("s32[3,3] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}"), literal("s32[2,2] {{0, 2}, {2, 1}}")});
  EXPECT_TRUE(same_literal(literal("s32[2,3,2] {{{1, 3}, {4, 6}, {7, 9}}, {{3, 2}, {6, 5}, {9, 8}}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateGather_TensorFlowGatherNd) {
  const ir::Literal got = evaluate_text(entry_module("  operand = s32[3,3,2] parameter(0)\n  indices = s32[2,2] parameter(1)\n"
                                              "  ROOT g = s32[2,2] gather(operand, indices), offset_dims={1}, collapsed_slice_dims={0,1}, start_index_map={0,1}, index_vector_dim=1, slice_sizes={1,1,2}\n"),
                                        {literal("s32[3,3,2] {{{-1, 1}, {-2, 2}, {-3, 3}}, {{-4, 4}, {-5, 5}, {-6, 6}}, {{-7, 7}, {-8, 8}, {-9, 9}}}"), literal("s32[2,2] {{0, 0}, {1, 0}}")});
  EXPECT_TRUE(same_literal(literal("s32[2,2] {{-1, 1}, {-4, 4}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateGather_TensorFlowGatherNdNonDefaultIndexVectorDim) {
  const ir::Literal got = evaluate_text(entry_module("  operand = s32[3,3,2] parameter(0)\n  indices = s32[2,2] parameter(1)\n"
                                              "  ROOT g = s32[2,2] gather(operand, indices), offset_dims={1}, collapsed_slice_dims={0,1}, start_index_map={0,1}, index_vector_dim=0, slice_sizes={1,1,2}\n"),
                                        {literal("s32[3,3,2] {{{-1, 1}, {-2, 2}, {-3, 3}}, {{-4, 4}, {-5, 5}, {-6, 6}}, {{-7, 7}, {-8, 8}, {-9, 9}}}"), literal("s32[2,2] {{0, 0}, {1, 0}}")});
  EXPECT_TRUE(same_literal(literal("s32[2,2] {{-2, 2}, {-1, 1}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateGather_DynamicSlice) {
  const ir::Literal got = evaluate_text(entry_module("  operand = s32[3,3] parameter(0)\n  indices = s32[2] parameter(1)\n"
                                              "  ROOT g = s32[1,1] gather(operand, indices), offset_dims={0,1}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=0, slice_sizes={1,1}\n"),
                                        {literal("s32[3,3] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}"), literal("s32[2] {1, 1}")});
  EXPECT_TRUE(same_literal(literal("s32[1,1] {{5}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateGather_BatchDynamicSlice) {
  const ir::Literal got = evaluate_text(entry_module("  operand = s32[3,3] parameter(0)\n  indices = s32[2,2] parameter(1)\n"
                                              "  ROOT g = s32[2,1,1] gather(operand, indices), offset_dims={1,2}, collapsed_slice_dims={}, start_index_map={0,1}, index_vector_dim=0, slice_sizes={1,1}\n"),
                                        {literal("s32[3,3] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}"), literal("s32[2,2] {{2, 1}, {1, 1}}")});
  EXPECT_TRUE(same_literal(literal("s32[2,1,1] {{{8}}, {{5}}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateGather_ZeroDimBounds) {
  const ir::Literal got = evaluate_text(entry_module("  operand = s32[3,0] parameter(0)\n  indices = s32[2] parameter(1)\n"
                                              "  ROOT g = s32[2,0] gather(operand, indices), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,0}\n"),
                                        {literal("s32[3,0] {{}, {}, {}}"), literal("s32[2] {0, 2}")});
  EXPECT_TRUE(same_literal(literal("s32[2,0] {{}, {}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateGather_NoOutputWindowDims) {
  const ir::Literal got = evaluate_text(entry_module("  operand = s32[3] parameter(0)\n  indices = s32[2,2,1] parameter(1)\n"
                                              "  ROOT g = s32[2,2] gather(operand, indices), offset_dims={}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=2, slice_sizes={1}\n"),
                                        {literal("s32[3] {0, 1, 2}"), literal("s32[2,2,1] {{{0}, {1}}, {{2}, {1}}}")});
  EXPECT_TRUE(same_literal(literal("s32[2,2] {{0, 1}, {2, 1}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateScatter_TensorFlowScatterV1_Update) {
  const ir::Literal got = evaluate_text(
      scatter_module("update", "  operand = s32[3,3] parameter(0)\n  indices = s32[2] parameter(1)\n  updates = s32[2,3] parameter(2)\n"
                     "  ROOT s = s32[3,3] scatter(operand, indices, updates), to_apply=combine, update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1\n"),
      {literal("s32[3,3] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}"), literal("s32[2] {0, 2}"), literal("s32[2,3] {{10, 20, 30}, {70, 80, 90}}")});
  EXPECT_TRUE(same_literal(literal("s32[3,3] {{10, 20, 30}, {4, 5, 6}, {70, 80, 90}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateScatter_TensorFlowScatterV2_Update) {
  const ir::Literal got = evaluate_text(
      scatter_module("update", "  operand = s32[3,3] parameter(0)\n  indices = s32[2] parameter(1)\n  updates = s32[3,2] parameter(2)\n"
                     "  ROOT s = s32[3,3] scatter(operand, indices, updates), to_apply=combine, update_window_dims={0}, inserted_window_dims={1}, scatter_dims_to_operand_dims={1}, index_vector_dim=1\n"),
      {literal("s32[3,3] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}"), literal("s32[2] {0, 2}"), literal("s32[3,2] {{10, 30}, {40, 60}, {70, 90}}")});
  EXPECT_TRUE(same_literal(literal("s32[3,3] {{10, 2, 30}, {40, 5, 60}, {70, 8, 90}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateScatter_TensorFlowScatter_Add) {
  const ir::Literal got = evaluate_text(
      scatter_module("add", "  operand = s32[3,3] parameter(0)\n  indices = s32[2] parameter(1)\n  updates = s32[2,3] parameter(2)\n"
                     "  ROOT s = s32[3,3] scatter(operand, indices, updates), to_apply=combine, update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1\n"),
      {literal("s32[3,3] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}"), literal("s32[2] {0, 2}"), literal("s32[2,3] {{10, 20, 30}, {70, 80, 90}}")});
  EXPECT_TRUE(same_literal(literal("s32[3,3] {{11, 22, 33}, {4, 5, 6}, {77, 88, 99}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateScatter_TensorFlowScatter_Mul) {
  const ir::Literal got = evaluate_text(
      scatter_module("multiply", "  operand = s32[3,3] parameter(0)\n  indices = s32[2] parameter(1)\n  updates = s32[2,3] parameter(2)\n"
                     "  ROOT s = s32[3,3] scatter(operand, indices, updates), to_apply=combine, update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1\n"),
      {literal("s32[3,3] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}"), literal("s32[2] {0, 2}"), literal("s32[2,3] {{10, 20, 30}, {70, 80, 90}}")});
  EXPECT_TRUE(same_literal(literal("s32[3,3] {{10, 40, 90}, {4, 5, 6}, {490, 640, 810}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateScatter_TensorFlowScatter_RepeatedIndices) {
  const ir::Literal got = evaluate_text(
      scatter_module("add", "  operand = s32[3,3] parameter(0)\n  indices = s32[2] parameter(1)\n  updates = s32[2,3] parameter(2)\n"
                     "  ROOT s = s32[3,3] scatter(operand, indices, updates), to_apply=combine, update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1\n"),
      {literal("s32[3,3] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}"), literal("s32[2] {1, 1}"), literal("s32[2,3] {{10, 20, 30}, {70, 80, 90}}")});
  EXPECT_TRUE(same_literal(literal("s32[3,3] {{1, 2, 3}, {84, 105, 126}, {7, 8, 9}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateScatter_TensorFlowScatter_MultipleBatchDims) {
  const ir::Literal got = evaluate_text(
      scatter_module("add", "  operand = s32[3,3] parameter(0)\n  indices = s32[2,2] parameter(1)\n  updates = s32[2,3,2] parameter(2)\n"
                     "  ROOT s = s32[3,3] scatter(operand, indices, updates), to_apply=combine, update_window_dims={1}, inserted_window_dims={1}, scatter_dims_to_operand_dims={1}, index_vector_dim=2\n"),
      {literal("s32[3,3] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}"), literal("s32[2,2] {{0, 2}, {2, 1}}"), literal("s32[2,3,2] {{{10, 30}, {40, 60}, {70, 90}}, {{5, 5}, {5, 5}, {5, 5}}}")});
  EXPECT_TRUE(same_literal(literal("s32[3,3] {{11, 7, 38}, {44, 10, 71}, {77, 13, 104}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateScatter_TensorFlowScatterNd) {
  const ir::Literal got = evaluate_text(
      scatter_module("update", "  operand = s32[3,3,2] parameter(0)\n  indices = s32[2,2] parameter(1)\n  updates = s32[2,2] parameter(2)\n"
                     "  ROOT s = s32[3,3,2] scatter(operand, indices, updates), to_apply=combine, update_window_dims={1}, inserted_window_dims={0,1}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=1\n"),
      {literal("s32[3,3,2] {{{-1, 1}, {-2, 2}, {-3, 3}}, {{-4, 4}, {-5, 5}, {-6, 6}}, {{-7, 7}, {-8, 8}, {-9, 9}}}"), literal("s32[2,2] {{0, 0}, {1, 0}}"), literal("s32[2,2] {{-10, 10}, {-40, 40}}")});
  EXPECT_TRUE(same_literal(literal("s32[3,3,2] {{{-10, 10}, {-2, 2}, {-3, 3}}, {{-40, 40}, {-5, 5}, {-6, 6}}, {{-7, 7}, {-8, 8}, {-9, 9}}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateScatter_TensorFlowScatterNd_NonDefaultIndexVectorDim) {
  const ir::Literal got = evaluate_text(
      scatter_module("update", "  operand = s32[3,3,2] parameter(0)\n  indices = s32[2,2] parameter(1)\n  updates = s32[2,2] parameter(2)\n"
                     "  ROOT s = s32[3,3,2] scatter(operand, indices, updates), to_apply=combine, update_window_dims={1}, inserted_window_dims={0,1}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=0\n"),
      {literal("s32[3,3,2] {{{-1, 1}, {-2, 2}, {-3, 3}}, {{-4, 4}, {-5, 5}, {-6, 6}}, {{-7, 7}, {-8, 8}, {-9, 9}}}"), literal("s32[2,2] {{0, 0}, {1, 0}}"), literal("s32[2,2] {{-10, 10}, {-20, 20}}")});
  EXPECT_TRUE(same_literal(literal("s32[3,3,2] {{{-20, 20}, {-10, 10}, {-3, 3}}, {{-4, 4}, {-5, 5}, {-6, 6}}, {{-7, 7}, {-8, 8}, {-9, 9}}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateScatter_DynamicUpdateSlice) {
  const ir::Literal got = evaluate_text(
      scatter_module("update", "  operand = s32[3,3] parameter(0)\n  indices = s32[2] parameter(1)\n  updates = s32[1,1] parameter(2)\n"
                     "  ROOT s = s32[3,3] scatter(operand, indices, updates), to_apply=combine, update_window_dims={0,1}, inserted_window_dims={}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=0\n"),
      {literal("s32[3,3] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}"), literal("s32[2] {1, 1}"), literal("s32[1,1] {{10}}")});
  EXPECT_TRUE(same_literal(literal("s32[3,3] {{1, 2, 3}, {4, 10, 6}, {7, 8, 9}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateScatter_BatchDynamicUpdateSlice) {
  const ir::Literal got = evaluate_text(
      scatter_module("update", "  operand = s32[3,3] parameter(0)\n  indices = s32[2,2] parameter(1)\n  updates = s32[2,1,1] parameter(2)\n"
                     "  ROOT s = s32[3,3] scatter(operand, indices, updates), to_apply=combine, update_window_dims={1,2}, inserted_window_dims={}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=0\n"),
      {literal("s32[3,3] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}"), literal("s32[2,2] {{2, 1}, {1, 1}}"), literal("s32[2,1,1] {{{10}}, {{20}}}")});
  EXPECT_TRUE(same_literal(literal("s32[3,3] {{1, 2, 3}, {4, 20, 6}, {7, 10, 9}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateScatter_ZeroDimBounds) {
  const ir::Literal got = evaluate_text(
      scatter_module("update", "  operand = s32[3,0] parameter(0)\n  indices = s32[2] parameter(1)\n  updates = s32[2,0] parameter(2)\n"
                     "  ROOT s = s32[3,0] scatter(operand, indices, updates), to_apply=combine, update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1\n"),
      {literal("s32[3,0] {{}, {}, {}}"), literal("s32[2] {0, 2}"), literal("s32[2,0] {{}, {}}")});
  EXPECT_TRUE(same_literal(literal("s32[3,0] {{}, {}, {}}"), got));
}

TEST(EvaluateXlaGatherScatter, EvaluateScatter_NoUpdateWindowDims) {
  const ir::Literal got = evaluate_text(
      scatter_module("add", "  operand = s32[3] parameter(0)\n  indices = s32[2,2,1] parameter(1)\n  updates = s32[2,2] parameter(2)\n"
                     "  ROOT s = s32[3] scatter(operand, indices, updates), to_apply=combine, update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=2\n"),
      {literal("s32[3] {0, 1, 2}"), literal("s32[2,2,1] {{{0}, {1}}, {{2}, {1}}}"), literal("s32[2,2] {{10, 20}, {30, 40}}")});
  EXPECT_TRUE(same_literal(literal("s32[3] {10, 61, 32}"), got));
}

// No update where an index is negative.
TEST(EvaluateXlaGatherScatter, EvaluateScatter_NegativeIndices) {
  const ir::Literal got = evaluate_text(
      scatter_module("add", "  operand = s32[3,3] parameter(0)\n  indices = s32[2] parameter(1)\n  updates = s32[2,3] parameter(2)\n"
                     "  ROOT s = s32[3,3] scatter(operand, indices, updates), to_apply=combine, update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1\n"),
      {literal("s32[3,3] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}"), literal("s32[2] {-1, 2}"), literal("s32[2,3] {{10, 20, 30}, {70, 80, 90}}")});
  EXPECT_TRUE(same_literal(literal("s32[3,3] {{1, 2, 3}, {4, 5, 6}, {77, 88, 99}}"), got));
}

// No update where an index is out of bounds.
TEST(EvaluateXlaGatherScatter, EvaluateScatter_OobIndices) {
  const ir::Literal got = evaluate_text(
      scatter_module("update", "  operand = s32[3,3]{1,0} parameter(0)\n  indices = s32[6,2]{1,0} parameter(1)\n  updates = s32[6,1,1]{2,1,0} parameter(2)\n"
                     "  ROOT s = s32[3,3]{1,0} scatter(operand, indices, updates), to_apply=combine, update_window_dims={1,2}, inserted_window_dims={}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=1\n"),
      {literal("s32[3,3]{1,0} {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}"), literal("s32[6,2]{1,0} {{2, 7}, {2, 1}, {1, 1}, {5, 1}, {2147483647, 1}, {1, 2}}"), literal("s32[6,1,1]{2,1,0} {{{10}}, {{20}}, {{30}}, {{40}}, {{50}}, {{60}}}")});
  EXPECT_TRUE(same_literal(literal("s32[3,3]{1,0} {{1, 2, 3}, {4, 30, 60}, {7, 20, 9}}"), got));
}

// The 2x2 window at (0, 2) does not fit: nothing is updated.
TEST(EvaluateXlaGatherScatter, EvaluateScatter_OobUpdateWindow) {
  const ir::Literal got = evaluate_text(
      scatter_module("update", "  operand = s32[3,3,2] parameter(0)\n  indices = s32[1,2] parameter(1)\n  updates = s32[1,2,2] parameter(2)\n"
                     "  ROOT s = s32[3,3,2] scatter(operand, indices, updates), to_apply=combine, update_window_dims={1,2}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=1\n"),
      {literal("s32[3,3,2] {{{-1, 1}, {-2, 2}, {-3, 3}}, {{-4, 4}, {-5, 5}, {-6, 6}}, {{-7, 7}, {-8, 8}, {-9, 9}}}"), literal("s32[1,2] {{0, 2}}"), literal("s32[1,2,2] {{{-10, 10}, {-40, 40}}}")});
  EXPECT_TRUE(same_literal(literal("s32[3,3,2] {{{-1, 1}, {-2, 2}, {-3, 3}}, {{-4, 4}, {-5, 5}, {-6, 6}}, {{-7, 7}, {-8, 8}, {-9, 9}}}"), got));
}

// XLA compares with ErrorSpec{0.1, 0.01}: its expected values are written to one decimal.
TEST(EvaluateXlaGatherScatter, EvaluateScatter_TensorFlowScatter_F32) {
  const ir::Literal got = evaluate_text(
      "HloModule m\n\nadd_f32 {\n  l = f32[] parameter(0)\n  r = f32[] parameter(1)\n  ROOT a = f32[] add(l, r)\n}\n\n"
      "ENTRY e {\n  operand = f32[3,3] parameter(0)\n  indices = s32[2] parameter(1)\n  updates = f32[2,3] parameter(2)\n"
      "  ROOT s = f32[3,3] scatter(operand, indices, updates), to_apply=add_f32, update_window_dims={1}, "
      "inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1\n}\n",
      {literal("f32[3,3] {{1.1, 2.2, 3.3}, {4.4, 5.5, 6.6}, {7.7, 8.8, 9.9}}"), literal("s32[2] {2, 1}"),
       literal("f32[2,3] {{0.4, 1.1, 0.7}, {2.3, 3.1, 1.6}}")});
  EXPECT_TRUE(near_literal(literal("f32[3,3] {{1.1, 2.2, 3.3}, {6.7, 8.6, 8.2}, {8.1, 9.9, 10.6}}"), got, 0.1, 0.01));
}

TEST(EvaluateXlaGatherScatter, EvaluateScatter_Multioutput) {
  const ir::Literal got = evaluate_text(
      "HloModule m\n\nupdate {\n  lhs0 = s32[] parameter(0)\n  lhs1 = f32[] parameter(1)\n  rhs0 = s32[] parameter(2)\n"
      "  rhs1 = f32[] parameter(3)\n  ROOT tuple = (s32[], f32[]) tuple(rhs0, rhs1)\n}\n\n"
      "ENTRY e {\n  operand0 = s32[3,3,2] parameter(0)\n  operand1 = f32[3,3,2] parameter(1)\n  indices = s32[2,2] parameter(2)\n"
      "  updates0 = s32[2,2] parameter(3)\n  updates1 = f32[2,2] parameter(4)\n"
      "  ROOT scatter = (s32[3,3,2], f32[3,3,2]) scatter(operand0, operand1, indices, updates0, updates1), to_apply=update, "
      "update_window_dims={1}, inserted_window_dims={0,1}, scatter_dims_to_operand_dims={0,1}, index_vector_dim=1\n}\n",
      {literal("s32[3,3,2] {{{-1, 1}, {-2, 2}, {-3, 3}}, {{-4, 4}, {-5, 5}, {-6, 6}}, {{-7, 7}, {-8, 8}, {-9, 9}}}"),
       literal("f32[3,3,2] {{{-2, 2}, {-3, 3}, {-4, 4}}, {{-5, 5}, {-6, 6}, {-7, 7}}, {{-8, 8}, {-9, 9}, {-10, 10}}}"),
       literal("s32[2,2] {{0, 0}, {1, 0}}"), literal("s32[2,2] {{-10, 10}, {-40, 40}}"), literal("f32[2,2] {{-11, 11}, {-41, 41}}")});
  EXPECT_TRUE(same_literal(
      tuple_literal({literal("s32[3,3,2] {{{-10, 10}, {-2, 2}, {-3, 3}}, {{-40, 40}, {-5, 5}, {-6, 6}}, {{-7, 7}, {-8, 8}, {-9, 9}}}"),
                     literal("f32[3,3,2] {{{-11, 11}, {-3, 3}, {-4, 4}}, {{-41, 41}, {-6, 6}, {-7, 7}}, {{-8, 8}, {-9, 9}, {-10, 10}}}")}),
      got));
}

}  // namespace
}  // namespace hlsgym::testing
