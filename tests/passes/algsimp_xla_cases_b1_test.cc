// algsimp: XLA's algebraic_simplifier_test.cc (openxla/xla at
// 001918b7024cf5f020051a9d25d2dd57a5896aaa), the cases from character 185000 on, in the
// file's order: part 1 (ConvTestBase .. DynamicSliceOfTrivialReshape). Each is a golden
// test: HLO in; the root pattern, or no change, out; the interpreter agreeing. C++-builder
// cases are written as HLO text; a TEST_P is one case, run over its parameters. A case
// hlsgym answers differently on purpose names its line in xla_cases/deliberate_differences.txt.
#include <gtest/gtest.h>

#include "tests/passes/algsimp_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {
using testing::root_expression;
using testing::root_attrs;
using testing::simplify;

// ---- ConvTestBase: a depthwise 1x1 convolution (feature_group_count = features) ----

// XLA's ConvTestOptions as HLO: input bf01 [1,10,4,2], kernel io01 [1,10,1,1], 10 groups.
std::string depthwise_conv(const std::string& in_type, const std::string& in_dims, const std::string& k_type,
                           const std::string& k_dims, const std::string& out_type, const std::string& out_dims,
                           const std::string& labels, const std::string& window = "size=1x1",
                           int groups = 10) {
  return "ENTRY e {\n in = " + in_type + "[" + in_dims + "] parameter(0)\n k = " + k_type + "[" + k_dims +
         "] parameter(1)\n ROOT c = " + out_type + "[" + out_dims + "] convolution(in, k), window={" + window +
         "}, dim_labels=" + labels + ", feature_group_count=" + std::to_string(groups) + "\n}\n";
}

// The dims of a shape written in `order` (XLA's create_shape): '0' width, '1' height,
// 'f'/'o' features, 'b'/'i' 1.
std::string dims_in_order(const std::string& order, int width = 4, int height = 2) {
  std::string out;
  for (char ch : order) {
    if (!out.empty()) out += ",";
    out += ch == '0' ? std::to_string(width) : ch == '1' ? std::to_string(height) : (ch == 'f' || ch == 'o') ? "10" : "1";
  }
  return out;
}

const char* const kConvTransposeOrders[] = {"10fb", "10bf", "1fb0", "1f0b", "1bf0", "1b0f", "01fb", "01bf",
                                            "0fb1", "0f1b", "0bf1", "0b1f", "fb01", "fb10", "f01b", "f0b1",
                                            "f10b", "f1b0", "b01f", "b0f1", "b10f", "b1f0", "bf10"};

// A float convolution adds its products to +0.0 (ir/evaluate_contraction.cc), so an exact
// -0 product becomes +0 where the multiply XLA rewrites it to keeps -0 (listed).
TEST(AlgsimpXlaB, DefaultOptions) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "DefaultOptions").empty());
  simplify(depthwise_conv("f32", "1,10,4,2", "f32", "1,10,1,1", "f32", "1,10,4,2", "bf01_io01->bf01"),
                          false);
}

TEST(AlgsimpXlaB, FeatureDimension) {
  simplify(
      depthwise_conv("f32", "1,10,4,2", "f32", "2,10,1,1", "f32", "1,10,4,2", "bf01_io01->bf01", "size=1x1", 5), false);
}

TEST(AlgsimpXlaB, ContractedDimension) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "ContractedDimension").empty());
  simplify(
      depthwise_conv("f32", "1,10,4,2", "f32", "1,10,1,2", "f32", "1,10,4,1", "bf01_io01->bf01", "size=1x2"), false);
}

TEST(AlgsimpXlaB, InputConvert) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "InputConvert").empty());
  simplify(depthwise_conv("f16", "1,10,4,2", "f32", "1,10,1,1", "f32", "1,10,4,2", "bf01_io01->bf01"),
                          false);
}

TEST(AlgsimpXlaB, KernelConvert) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "KernelConvert").empty());
  simplify(depthwise_conv("f32", "1,10,4,2", "f16", "1,10,1,1", "f32", "1,10,4,2", "bf01_io01->bf01"),
                          false);
}

TEST(AlgsimpXlaB, OutputConvert) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "OutputConvert").empty());
  simplify(depthwise_conv("f32", "1,10,4,2", "f32", "1,10,1,1", "f16", "1,10,4,2", "bf01_io01->bf01"),
                          false);
}

TEST(AlgsimpXlaB, InputLayout) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "InputLayout").empty());
  for (const std::string order : kConvTransposeOrders) {
    SCOPED_TRACE(order);
    simplify(depthwise_conv("f32", dims_in_order(order), "f32", "1,10,1,1", "f32", "1,10,4,2",
                                           order + "_io01->bf01"),
                            false);
  }
}

TEST(AlgsimpXlaB, KernelLayout) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "KernelLayout").empty());
  for (std::string order : kConvTransposeOrders) {
    for (char& ch : order) ch = ch == 'b' ? 'i' : ch == 'f' ? 'o' : ch;
    SCOPED_TRACE(order);
    simplify(depthwise_conv("f32", "1,10,4,2", "f32", dims_in_order(order, 1, 1), "f32", "1,10,4,2",
                                           "bf01_" + order + "->bf01"),
                            false);
  }
}

TEST(AlgsimpXlaB, OutputLayout) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "OutputLayout").empty());
  for (const std::string order : kConvTransposeOrders) {
    SCOPED_TRACE(order);
    simplify(depthwise_conv("f32", "1,10,4,2", "f32", "1,10,1,1", "f32", dims_in_order(order),
                                           "bf01_io01->" + order),
                            false);
  }
}

// ConvTestWindow: windows that are not 1x1 with stride 1, no padding and no dilation.
TEST(AlgsimpXlaB, NoMatch) {
  struct Case { const char* k_dims; const char* out_dims; const char* window; };
  const Case cases[] = {
      {"1,10,3,1", "1,10,2,2", "size=3x1"},
      {"1,10,1,3", "1,10,4,0", "size=1x3"},
      {"1,10,1,1", "1,10,2,2", "size=1x1 stride=2x1"},
      {"1,10,1,1", "1,10,6,2", "size=1x1 pad=1_1x0_0"},
      {"1,10,1,1", "1,10,7,2", "size=1x1 lhs_dilate=2x1 rhs_dilate=2x1"},
      {"1,10,1,1", "1,10,4,1", "size=1x1 stride=1x2"},
      {"1,10,1,1", "1,10,4,4", "size=1x1 pad=0_0x1_1"},
      {"1,10,1,1", "1,10,4,3", "size=1x1 lhs_dilate=1x2 rhs_dilate=1x2"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.window);
    const std::string hlo =
        depthwise_conv("f32", "1,10,4,2", "f32", c.k_dims, "f32", c.out_dims, "bf01_io01->bf01", c.window);
    // A window wider than the input leaves nothing to compare.
    simplify(hlo, false, std::string(c.out_dims).find(",0") == std::string::npos);
  }
}

// ---- slices and reshapes of broadcast scalars ----

TEST(AlgsimpXlaB, ScalarBroadcastToSlice) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = f32[] parameter(0)\n b = f32[4,5,6,7] broadcast(p), dimensions={}\n"
      " ROOT s = f32[2,2,3,3] slice(b), slice={[0:2], [1:3], [2:5], [3:6]}\n}\n");
  EXPECT_EQ(root_expression(m), "broadcast(parameter(0))");
  EXPECT_EQ(m.shape(m.computation(m.entry()).root).dims(), (std::vector<int64_t>{2, 2, 3, 3}));
}

TEST(AlgsimpXlaB, ScalarBroadcastToTransposeReshape) {
  const ir::Module m = simplify(
      "ENTRY e {\n c = f32[] constant(42)\n b = f32[4,5,6] broadcast(c), dimensions={}\n"
      " t = f32[6,5,4] transpose(b), dimensions={2,1,0}\n ROOT r = f32[30,1,4] reshape(t)\n}\n");
  EXPECT_EQ(root_expression(m), "broadcast(constant(42))");
  EXPECT_EQ(m.shape(m.computation(m.entry()).root).dims(), (std::vector<int64_t>{30, 1, 4}));
}

// ---- depth-to-space: reshape(transpose(reshape(x))) ----
// XLA's shapes scaled down (f32[8,14,14,128] -> f32[2,3,3,8]): the rule looks at the
// split of the last dimension only.

TEST(AlgsimpXlaB, TransposeReshapeToConcatSlice) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = f32[2,3,3,8] parameter(0)\n r1 = f32[2,3,3,2,4] reshape(p)\n"
      " t = f32[2,3,2,3,4] transpose(r1), dimensions={0,1,3,2,4}\n ROOT r2 = f32[2,6,3,4] reshape(t)\n}\n");
  EXPECT_EQ(root_expression(m), "reshape(concatenate(slice(parameter(0)), slice(parameter(0))))");
  EXPECT_EQ(m.shape(m.computation(m.entry()).root).dims(), (std::vector<int64_t>{2, 6, 3, 4}));
}

TEST(AlgsimpXlaB, TransposeReshapeTooLarge) {
  simplify(
      "ENTRY e {\n p = f32[2,3,3,16] parameter(0)\n r1 = f32[2,3,3,8,2] reshape(p)\n"
      " t = f32[2,3,8,3,2] transpose(r1), dimensions={0,1,3,2,4}\n ROOT r2 = f32[2,24,3,2] reshape(t)\n}\n",
      false);
}

TEST(AlgsimpXlaB, TransposeReshapeNotDepthToSpace) {
  simplify(
      "ENTRY e {\n p = f32[2,3,3,8] parameter(0)\n r1 = f32[2,3,3,2,4] reshape(p)\n"
      " t = f32[2,2,3,3,4] transpose(r1), dimensions={0,3,1,2,4}\n ROOT r2 = f32[2,6,3,4] reshape(t)\n}\n",
      false);
}

// ---- pad folded into reduce-window ----

// The interpreter skips a reduce-window's padding (as XLA's evaluator does) but combines
// a pad's elements, so folding pad(x, 5) into the window changes an add with init 5
// (listed); the fold is exact only when the pad value is the reducer's identity.
TEST(AlgsimpXlaB, FoldPadIntoReduceWindow) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "FoldPadIntoReduceWindow").empty());
  simplify(
      "fn {\n p0 = f32[] parameter(0)\n p1 = f32[] parameter(1)\n ROOT add = f32[] add(p0, p1)\n}\n"
      "ENTRY e {\n p = f32[1,2,3,4] parameter(0)\n c = f32[] constant(5)\n"
      " pad = f32[1,3,3,6] pad(p, c), padding=0_0x1_0x0_0x0_2\n"
      " ROOT r = f32[3,5,5,18] reduce-window(pad, c), to_apply=fn,"
      " window={size=2x2x2x2 lhs_dilate=1x1x1x3 pad=1_2x1_2x1_2x1_2}\n}\n",
      false);
}

TEST(AlgsimpXlaB, FoldConvertedPadIntoReduceWindow) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "FoldConvertedPadIntoReduceWindow").empty());
  simplify(
      "fn {\n p0 = f32[] parameter(0)\n p1 = f32[] parameter(1)\n ROOT add = f32[] add(p0, p1)\n}\n"
      "ENTRY e {\n p = bf16[1,2,3,4] parameter(0)\n c = bf16[] constant(5)\n"
      " pad = bf16[1,3,3,6] pad(p, c), padding=0_0x1_0x0_0x0_2\n cv = f32[1,3,3,6] convert(pad)\n"
      " c32 = f32[] constant(5)\n"
      " ROOT r = f32[2,5,3,7] reduce-window(cv, c32), to_apply=fn, window={size=2x2x2x2 pad=1_1x1_2x1_0x1_1}\n}\n",
      false);
}

TEST(AlgsimpXlaB, ReversalOfTrivialDimensionsToBitcast) {
  const ir::Module m = simplify(
      "ENTRY e {\n a = f32[448,20,1,1] parameter(0)\n ROOT r = f32[448,20,1,1] reverse(a), dimensions={2,3}\n}\n");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

// The called computation's f32 batch dot has one product per output; the interpreter adds
// it to +0.0, so a -0 product becomes +0 where XLA's multiply keeps -0 (listed).
TEST(AlgsimpXlaB, IteratorInvalidation) {
  EXPECT_FALSE(testing::deliberate_difference("algsimp", "IteratorInvalidation").empty());
  simplify(
      "dot_comp {\n x = f32[1] parameter(0)\n y = f32[1] parameter(1)\n"
      " ROOT d = f32[1] dot(x, y), lhs_batch_dims={0}, rhs_batch_dims={0}\n}\n"
      "ENTRY e {\n z = f32[1] constant({0})\n o = f32[1] constant({1})\n"
      " ROOT c = f32[1] call(z, o), to_apply=dot_comp\n}\n",
      false);
}

TEST(AlgsimpXlaB, ConstantTupleBecomesTupleOfConstants) {
  const ir::Module m = simplify(
      "ENTRY e {\n ROOT c = (f32[], f32[3]) constant((7.3, {1.1, 2, 3.3}))\n}\n");
  EXPECT_EQ(root_expression(m), "tuple(constant(7.3), constant)");
}

// ---- dynamic-slice and dynamic-update-slice with trivial or constant indices ----
// XLA's f32[10,100,1000] scaled down.

TEST(AlgsimpXlaB, TrivialDynamicSlice) {
  const ir::Module m = simplify(
      "ENTRY e {\n x = f32[10,10,100] parameter(0)\n i = u32[] parameter(1)\n j = u32[] parameter(2)\n"
      " k = u32[] parameter(3)\n"
      " ROOT d = f32[10,10,100] dynamic-slice(x, i, j, k), dynamic_slice_sizes={10,10,100}\n}\n");
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

TEST(AlgsimpXlaB, ConstantDynamicSlice) {
  const ir::Module m = simplify(
      "ENTRY e {\n x = f32[10,20,40] parameter(0)\n i = s32[] constant(4)\n j = s32[] constant(8)\n"
      " k = s32[] constant(16)\n"
      " ROOT d = f32[2,4,20] dynamic-slice(x, i, j, k), dynamic_slice_sizes={2,4,20}\n}\n");
  EXPECT_EQ(root_expression(m), "slice(parameter(0))");
}

TEST(AlgsimpXlaB, TrivialDynamicUpdateSlice) {
  const ir::Module m = simplify(
      "ENTRY e {\n x = f32[10,10,100] parameter(0)\n i1 = u32[] parameter(1)\n i2 = u32[] parameter(2)\n"
      " i3 = u32[] parameter(3)\n u = f32[10,1,100] parameter(4)\n j1 = u32[] parameter(5)\n"
      " j2 = u32[] parameter(6)\n j3 = u32[] parameter(7)\n"
      " s = f32[10,1,100] dynamic-slice(x, i1, i2, i3), dynamic_slice_sizes={10,1,100}\n"
      " ROOT d = f32[10,1,100] dynamic-update-slice(u, s, j1, j2, j3)\n}\n");
  EXPECT_EQ(root_expression(m), "dynamic-slice(parameter(0), constant(0), parameter(2), constant(0))");
}

// ---- broadcast of broadcast or iota ----

TEST(AlgsimpXlaB, MergeBroadcasts) {
  const ir::Module m = simplify(
      "ENTRY e {\n c = f32[2] constant({3, 4})\n b1 = f32[2,2] broadcast(c), dimensions={1}\n"
      " ROOT b2 = f32[2,2,2] broadcast(b1), dimensions={0,2}\n}\n");
  EXPECT_EQ(root_expression(m), "broadcast(constant)");
  EXPECT_EQ(root_attrs(m).dimensions, (std::vector<int64_t>{2}));
}

TEST(AlgsimpXlaB, MergeBroadcasts2) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = f32[2,3] parameter(0)\n b1 = f32[2,5,3] broadcast(p), dimensions={0,2}\n"
      " ROOT b2 = f32[4,2,5,3] broadcast(b1), dimensions={1,2,3}\n}\n");
  EXPECT_EQ(root_expression(m), "broadcast(parameter(0))");
  EXPECT_EQ(root_attrs(m).dimensions, (std::vector<int64_t>{1, 3}));
}

TEST(AlgsimpXlaB, MergeBroadcastAndIota) {
  const ir::Module m = simplify(
      "ENTRY e {\n i = f32[2,2] iota(), iota_dimension=1\n"
      " ROOT b = f32[2,2,2] broadcast(i), dimensions={0,2}\n}\n");
  EXPECT_EQ(root_expression(m), "iota");
  EXPECT_EQ(root_attrs(m).iota_dimension, 2);
}

TEST(AlgsimpXlaB, MergeBroadcastAndIota2) {
  const ir::Module m = simplify(
      "ENTRY e {\n i = f32[2,5,3] iota(), iota_dimension=1\n"
      " ROOT b = f32[4,2,5,3] broadcast(i), dimensions={1,2,3}\n}\n");
  EXPECT_EQ(root_expression(m), "iota");
  EXPECT_EQ(root_attrs(m).iota_dimension, 2);
}

// ---- transpose of dot ----

TEST(AlgsimpXlaB, TransposeOfDot) {
  const ir::Module m = simplify(
      "ENTRY e {\n lhs = f32[3,4,5] parameter(0)\n rhs = f32[6,3,4] parameter(1)\n"
      " d = f32[5,6] dot(lhs, rhs), lhs_contracting_dims={0,1}, rhs_contracting_dims={1,2}\n"
      " ROOT t = f32[6,5] transpose(d), dimensions={1,0}\n}\n");
  EXPECT_EQ(root_expression(m), "dot(parameter(1), parameter(0))");
}

TEST(AlgsimpXlaB, TransposeOfBatchDot) {
  const ir::Module m = simplify(
      "ENTRY e {\n lhs = f32[2,3,4,5] parameter(0)\n rhs = f32[2,3,6,4] parameter(1)\n"
      " d = f32[2,3,5,6] dot(lhs, rhs), lhs_batch_dims={0,1}, rhs_batch_dims={0,1},"
      " lhs_contracting_dims={2}, rhs_contracting_dims={3}\n"
      " ROOT t = f32[2,3,6,5] transpose(d), dimensions={0,1,3,2}\n}\n");
  EXPECT_EQ(root_expression(m), "dot(parameter(1), parameter(0))");
  const ir::DotDims d = root_attrs(m).dot_dims.value();
  EXPECT_EQ(d.lhs_batch, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(d.rhs_batch, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(d.lhs_contracting, (std::vector<int64_t>{3}));
  EXPECT_EQ(d.rhs_contracting, (std::vector<int64_t>{2}));
}

TEST(AlgsimpXlaB, TransposeOfBatchDimsInBatchDotCantSimplify) {
  simplify(
      "ENTRY e {\n lhs = f32[2,3,4,5] parameter(0)\n rhs = f32[2,3,6,4] parameter(1)\n"
      " d = f32[2,3,5,6] dot(lhs, rhs), lhs_batch_dims={0,1}, rhs_batch_dims={0,1},"
      " lhs_contracting_dims={2}, rhs_contracting_dims={3}\n"
      " ROOT t = f32[3,2,6,5] transpose(d), dimensions={1,0,3,2}\n}\n",
      false);
}

TEST(AlgsimpXlaB, TransposeOfNonCanonicalBatchDotCantSimplify) {
  simplify(
      "ENTRY e {\n p0 = f32[13,11,2,3] parameter(0)\n p1 = f32[13,11,3,7,5] parameter(1)\n"
      " d1 = f32[13,11,2,7,5] dot(p0, p1), lhs_batch_dims={0,1}, lhs_contracting_dims={3},"
      " rhs_batch_dims={0,1}, rhs_contracting_dims={2}\n"
      " d2 = f32[13,11,7,5,2] dot(p1, p0), rhs_batch_dims={0,1}, rhs_contracting_dims={3},"
      " lhs_batch_dims={0,1}, lhs_contracting_dims={2}\n"
      " t1 = f32[13,11,2,5,7] transpose(d1), dimensions={0,1,2,4,3}\n"
      " t2 = f32[13,11,7,2,5] transpose(d2), dimensions={0,1,2,4,3}\n"
      " ROOT root = (f32[13,11,2,5,7], f32[13,11,7,2,5]) tuple(t1, t2)\n}\n",
      false);
}

TEST(AlgsimpXlaB, DynamicSliceOfTranspose) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = f32[12,10,8] parameter(0)\n i0 = s32[] parameter(1)\n i1 = s32[] parameter(2)\n"
      " i2 = s32[] parameter(3)\n t = f32[12,8,10] transpose(p), dimensions={0,2,1}\n"
      " ROOT s = f32[2,3,5] dynamic-slice(t, i0, i1, i2), dynamic_slice_sizes={2,3,5}\n}\n");
  EXPECT_EQ(root_expression(m), "transpose(dynamic-slice(parameter(0), parameter(1), parameter(3), parameter(2)))");
}

TEST(AlgsimpXlaB, DynamicSliceOfTrivialReshape) {
  const ir::Module m = simplify(
      "ENTRY e {\n p = f32[12,10,1,8] parameter(0)\n i0 = s32[] parameter(1)\n i1 = s32[] parameter(2)\n"
      " i2 = s32[] parameter(3)\n z = s32[] constant(0)\n r = f32[1,12,10,8] reshape(p)\n"
      " ROOT s = f32[1,2,3,5] dynamic-slice(r, z, i0, i1, i2), dynamic_slice_sizes={1,2,3,5}\n}\n");
  EXPECT_EQ(root_expression(m),
            "reshape(dynamic-slice(parameter(0), parameter(1), parameter(2), constant(0), parameter(3)))");
}

}  // namespace
}  // namespace hlsgym::passes
