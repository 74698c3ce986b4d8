// tree_reduction_rewriter: every case of XLA's CPU tree_reduction_rewriter_test.cc
// (openxla/xla xla/service/cpu/tests/tree_reduction_rewriter_test.cc at
// 001918b7024cf5f020051a9d25d2dd57a5896aaa). XLA's cases FileCheck the CPU pipeline's
// output, where the pad the rewriter makes is already folded into the reduce-window; here
// the pass alone gives that form. HLO in; the reduce-window's window and the final reduce,
// or no change, out; the interpreter agreeing within float tolerance (the sum is
// reordered: the pass says reassociates_floats()).
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {

std::string reduction(const std::string& input_dims, const std::string& dims) {
  return "HloModule SimpleReduction\nadd {\n acc = f32[] parameter(1)\n op = f32[] parameter(0)\n"
         " ROOT out = f32[] add(acc, op)\n}\nENTRY main {\n input = f32[" + input_dims +
         "] parameter(0)\n zero = f32[] constant(0)\n ROOT out = f32[] reduce(input, zero), dimensions={" + dims +
         "}, to_apply=add\n}\n";
}

// "size=32x31 stride=32x31 pad=12_12x0_0" of a reduce-window, as XLA prints it.
std::string window(const ir::Module& m, ir::InstrId rw) {
  std::string size, stride, pad;
  for (const ir::WindowDim& d : *m.attrs(rw).window) {
    const std::string x = size.empty() ? "" : "x";
    size += x + std::to_string(d.size);
    stride += x + std::to_string(d.stride);
    pad += x + std::to_string(d.pad_low) + "_" + std::to_string(d.pad_high);
  }
  return "size=" + size + " stride=" + stride + " pad=" + pad;
}

// Runs the pass (it must change the module), checks values within float tolerance, and
// returns the result.
ir::Module rewrite(const std::string& text) {
  const ir::Module before = testing::parse_module(text);
  ir::Module m = before;
  EXPECT_TRUE(testing::run_pass("tree_reduction_rewriter", m));
  passes::EquivalenceOptions o;
  o.input_sets = 2;
  o.float_tolerance = true;
  const passes::EquivalenceResult r = passes::check_equivalence(before, m, o);
  EXPECT_EQ(r.status, passes::CheckStatus::kPassed) << r.detail;
  return m;
}

// The root is reduce(reduce-window(input, init), init) with one reducer; returns the window.
std::string two_levels(const ir::Module& m, const std::string& partial_shape, const std::string& dims) {
  const ir::InstrId root = m.computation(m.entry()).root, rw = m.operand(root, 0);
  EXPECT_EQ(testing::root_expression(m), "reduce(reduce-window(parameter(0), constant(0)), constant(0))");
  EXPECT_EQ(m.shape(rw).to_string(false), partial_shape);
  EXPECT_EQ(m.operand(rw, 1), m.operand(root, 1));
  EXPECT_EQ(m.called(rw), m.called(root));
  std::string d;
  for (int64_t k : m.attrs(root).dimensions) d += (d.empty() ? "" : ",") + std::to_string(k);
  EXPECT_EQ(d, dims);
  return window(m, rw);
}

TEST(TreeReductionRewriterXla, SimpleRewrite) {
  const ir::Module m = rewrite(reduction("1000", "0"));
  EXPECT_EQ(two_levels(m, "f32[32]", "0"), "size=32 stride=32 pad=12_12");
}

TEST(TreeReductionRewriterXla, RewriteMultipleDimensions) {
  const ir::Module m = rewrite(reduction("1000,1000", "0,1"));
  EXPECT_EQ(two_levels(m, "f32[32,32]", "0,1"), "size=32x32 stride=32x32 pad=12_12x12_12");
}

TEST(TreeReductionRewriterXla, RewriteMultipleDimensionsSingleSmaller) {
  const ir::Module m = rewrite(reduction("1000,31", "0,1"));
  EXPECT_EQ(two_levels(m, "f32[32,1]", "0,1"), "size=32x31 stride=32x31 pad=12_12x0_0");
}

TEST(TreeReductionRewriterXla, NoRewriteRequired) {
  const ir::Module m = testing::run_golden("tree_reduction_rewriter", reduction("31,31", "0,1"), false);
  EXPECT_EQ(testing::root_expression(m), "reduce(parameter(0), constant(0))");
}

// XLA's pipeline turns the empty reduce into a copy of the init value; the rewriter leaves
// it to algsimp, which makes it the init value.
TEST(TreeReductionRewriterXla, NoRewriteRequiredZeroDim) {
  ir::Module m = testing::run_golden("tree_reduction_rewriter", reduction("3000,0", "0,1"), false);
  testing::run_pass("algsimp", m);
  EXPECT_NE(m.opcode(m.computation(m.entry()).root), ir::Opcode::kReduce);
  EXPECT_EQ(testing::count_opcode(m, m.entry(), ir::Opcode::kReduceWindow), 0);
}

}  // namespace
}  // namespace hlsgym::passes
