// batchnorm_expander: every case of XLA's batchnorm_expander_test.cc (openxla/xla
// xla/service/batchnorm_expander_test.cc at 16569562fc04a1d1eadcd6a79f2269c1ccf4c421), each
// written as a golden test: HLO in (XLA builds two of its modules with
// HloComputation::Builder; here they are HLO text of the same graph); the root opcode,
// the shardings, or the values out. The expansion rounds at every step where the
// interpreter's batch norm rounds once, so values are compared within the float
// tolerance (XLA's Execution case compares within 1e-4 too).
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {

ir::Module expand(const std::string& module) {
  const ir::Module before = testing::parse_module("HloModule m\n" + module);
  ir::Module m = before;
  EXPECT_TRUE(testing::run_pass("batchnorm_expander", m));
  EquivalenceOptions o;
  o.input_sets = 4;
  o.float_tolerance = true;
  const EquivalenceResult r = check_equivalence(before, m, o);
  EXPECT_EQ(r.status, CheckStatus::kPassed) << r.detail << "\n" << ir::print_module(m);
  return m;
}

ir::Opcode root_opcode(const ir::Module& m) { return m.opcode(m.computation(m.entry()).root); }

int count_everywhere(const ir::Module& m, ir::Opcode op) {
  int n = 0;
  for (ir::CompId c : m.live_computations()) n += testing::count_opcode(m, c, op);
  return n;
}

// XLA divides by N = get-dimension-size products (three of them) that later passes fold;
// hlsgym expands static shapes only and writes N as the constant (listed).
TEST(BatchnormExpanderXla, BatchNormTraining) {
  EXPECT_FALSE(testing::deliberate_difference("batchnorm_expander", "BatchNormTraining").empty());
  const ir::Module m = expand(
      "ENTRY e {\n activation = f32[2,2,2,2] parameter(0)\n scale = f32[2] parameter(1)\n offset = f32[2] parameter(2)\n"
      " ROOT bn = (f32[2,2,2,2], f32[2], f32[2]) batch-norm-training(activation, scale, offset), epsilon=0.001,"
      " feature_index=3\n}\n");
  EXPECT_EQ(root_opcode(m), ir::Opcode::kTuple);
  EXPECT_EQ(count_everywhere(m, ir::Opcode::kGetDimensionSize), 0);
}

TEST(BatchnormExpanderXla, BatchNormGrad) {
  EXPECT_FALSE(testing::deliberate_difference("batchnorm_expander", "BatchNormGrad").empty());
  const ir::Module m = expand(
      "ENTRY e {\n activation = f32[2,2,2,2] parameter(0)\n scale = f32[2] parameter(1)\n mean = f32[2] parameter(2)\n"
      " var = f32[2] parameter(3)\n grad_output = f32[2,2,2,2] parameter(4)\n"
      " ROOT bn = (f32[2,2,2,2], f32[2], f32[2]) batch-norm-grad(activation, scale, mean, var, grad_output),"
      " epsilon=0.001, feature_index=3\n}\n");
  EXPECT_EQ(root_opcode(m), ir::Opcode::kTuple);
  EXPECT_EQ(count_everywhere(m, ir::Opcode::kGetDimensionSize), 0);
}

const std::string kSharded =
    "ENTRY entry {\n param.0 = f32[8,4] parameter(0)\n param.1 = f32[4] parameter(1)\n param.2 = f32[4] parameter(2)\n"
    " ROOT batch-norm-training = (f32[8,4], f32[4], f32[4]) batch-norm-training(f32[8,4] param.0, f32[4] param.1,"
    " f32[4] param.2), epsilon=0.001, feature_index=1,"
    " sharding={{maximal device=1},{maximal device=1},{maximal device=1}}\n}\n";

// Every instruction of the expansion is on the batch norm's one device.
TEST(BatchnormExpanderXla, BatchNormTrainingSharding) {
  const ir::Module m = expand(kSharded);
  for (ir::InstrId i : m.instructions(m.entry())) {
    if (m.opcode(i) == ir::Opcode::kParameter) continue;
    const ir::OpaqueAttribute* s = m.attrs(i).find_opaque("sharding");
    ASSERT_NE(s, nullptr) << m.name(i);
    if (m.shape(i).is_tuple()) EXPECT_EQ(s->value, "{{maximal device=1},{maximal device=1},{maximal device=1}}");
    else EXPECT_EQ(s->value, "{maximal device=1}") << m.name(i);
  }
}

TEST(BatchnormExpanderXla, Execution) { expand(kSharded); }

}  // namespace
}  // namespace hlsgym::passes
