// The unroll directive passes: unroll-x2 trades area for cycles on the op with the most
// element work and leaves what the module computes unchanged; unroll-halve undoes it;
// both stop where there is nothing left to do.
#include <gtest/gtest.h>

#include <string>

#include "frontend/hlo_parser.h"
#include "frontend/load.h"
#include "hwmodel/estimate.h"
#include "hwmodel/lowering.h"
#include "hwmodel/target.h"
#include "ir/evaluate.h"
#include "ir/module_hash.h"
#include "ir/printer.h"
#include "passes/registry.h"
#include "tests/support/test_data.h"

namespace hlsgym::hwmodel {
namespace {

ir::Module named_design(const std::string& name) {
  return frontend::load_design((testing::source_dir() / "designs" / (name + ".yaml")).string()).module;
}

const Target& fpga() {
  static const Target t = load_target("fpga", {testing::source_dir() / "designs" / "targets"});
  return t;
}

bool apply(const std::string& pass, ir::Module& m) { return passes::Registry::global().create(pass)->run(m); }

// `m` after `pass` ran `times` times (each changing it), as HLO text.
std::string after(ir::Module m, const std::string& pass, int times) {
  for (int k = 0; k < times; ++k) EXPECT_TRUE(apply(pass, m)) << pass << " run " << k + 1;
  return ir::print_module(m);
}

ir::InstrId root(const ir::Module& m) { return m.computation(m.entry()).root; }

TEST(UnrollDirectives, X2TradesDspsForCyclesAndComputesTheSame) {
  const ir::Module original = named_design("dot_product");
  ir::Module m = original;
  ASSERT_TRUE(apply("unroll-x2", m));
  EXPECT_EQ(lanes_attribute(m, root(m)), 2);
  const Estimate before = estimate(original, fpga()), after = estimate(m, fpga());
  EXPECT_LT(after.cycles, before.cycles);
  EXPECT_GT(after.area.dsp, before.area.dsp);
  EXPECT_NE(ir::structural_hash(m), ir::structural_hash(original));  // another state to cost
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    const auto args = ir::random_inputs(original, seed);
    EXPECT_EQ(ir::evaluate(m, args).value, ir::evaluate(original, args).value);
  }
}

TEST(UnrollDirectives, HalveUndoesX2Exactly) {
  const ir::Module original = named_design("matvec");
  ir::Module m = original;
  EXPECT_FALSE(apply("unroll-halve", m));  // no lanes to halve
  for (int k = 0; k < 3; ++k) ASSERT_TRUE(apply("unroll-x2", m));
  ASSERT_TRUE(apply("unroll-halve", m));
  EXPECT_EQ(ir::print_module(m), after(original, "unroll-x2", 2));
  ASSERT_TRUE(apply("unroll-halve", m));
  ASSERT_TRUE(apply("unroll-halve", m));
  EXPECT_EQ(ir::print_module(m), ir::print_module(original));
  EXPECT_EQ(ir::structural_hash(m), ir::structural_hash(original));
  EXPECT_FALSE(apply("unroll-halve", m));
}

TEST(UnrollDirectives, X2StopsAtTheOpsElementOperations) {
  ir::Module m = named_design("dot_product");  // one dot of 16 terms: 16 lanes have work
  for (int lanes = 2; lanes <= 16; lanes *= 2) {
    ASSERT_TRUE(apply("unroll-x2", m));
    EXPECT_EQ(lanes_attribute(m, root(m)), lanes);
  }
  const std::string capped = ir::print_module(m);
  EXPECT_FALSE(apply("unroll-x2", m));
  EXPECT_EQ(ir::print_module(m), capped);
}

TEST(UnrollDirectives, X2TakesTheOpWithTheMostWorkFirst) {
  ir::Module m = frontend::parse_hlo(
      "HloModule work\nENTRY e {\n a = s32[4] parameter(0)\n b = s32[4,8] parameter(1)\n s = s32[4] add(a, a)\n"
      " ROOT d = s32[8] dot(s, b), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n}\n",
      "work.hlo");
  const ir::InstrId dot = root(m), add = m.operand(dot, 0);
  // The dot: 2 x 8 x 4 flops and 32 element operations, so five doublings; then the add's 4.
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(apply("unroll-x2", m));
  EXPECT_EQ(lanes_attribute(m, dot), 32);
  EXPECT_EQ(lanes_attribute(m, add), std::nullopt);
  ASSERT_TRUE(apply("unroll-x2", m));
  EXPECT_EQ(lanes_attribute(m, add), 2);
  ASSERT_TRUE(apply("unroll-halve", m));  // the least work first: the add
  EXPECT_EQ(lanes_attribute(m, add), std::nullopt);
  EXPECT_EQ(lanes_attribute(m, dot), 32);
}

}  // namespace
}  // namespace hlsgym::hwmodel
