// call-inliner: every case of XLA's call_inliner_test.cc (openxla/xla
// xla/service/call_inliner_test.cc at 001918b7024cf5f020051a9d25d2dd57a5896aaa), each
// written as a golden test: HLO in (XLA builds most with the C++ API; its control
// dependencies are written as control-predecessors=); the root out; the interpreter
// agreeing where there are values to compare.
#include <gtest/gtest.h>

#include "passes/rewrite_util.h"
#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using testing::expression;
using testing::root_expression;

ir::Module inline_calls(const std::string& text, bool compare_values = true) {
  return testing::run_golden("call-inliner", text, /*expect_change=*/true, compare_values);
}

// The instruction of the entry that `i`'s control-predecessors= names (exactly one).
InstrId control_predecessor(const ir::Module& m, InstrId i) {
  const ir::OpaqueAttribute* a = m.attrs(i).find_opaque("control-predecessors");
  if (!a) return ir::kNoId;
  const std::vector<std::string> names = control_predecessor_names(a->value);
  EXPECT_EQ(names.size(), 1u) << a->value;
  for (InstrId j : m.instructions(m.entry()))
    if (!names.empty() && m.name(j) == names[0]) return j;
  return ir::kNoId;
}

TEST(CallInlinerXla, ControlDependenciesAreCarriedToCaller) {
  const ir::Module m = inline_calls(
      "HloModule m\ninner {\n zero = f32[] constant(24)\n ROOT one = f32[] constant(42), control-predecessors={zero}\n}\n"
      "ENTRY outer {\n ROOT call = f32[] call(), to_apply=inner\n}\n");
  EXPECT_EQ(root_expression(m), "constant(42)");
  const InstrId prior = control_predecessor(m, m.computation(m.entry()).root);
  ASSERT_NE(prior, ir::kNoId) << ir::print_module(m);
  EXPECT_EQ(expression(m, prior), "constant(24)");
}

TEST(CallInlinerXla, CallsWithinWhileBodiesAreInlined) {
  const ir::Module m = inline_calls(
      "HloModule m\njust_false {\n ROOT false = pred[] constant(false)\n}\n"
      "call_false {\n param = pred[] parameter(0)\n ROOT call = pred[] call(), to_apply=just_false\n}\n"
      "ENTRY outer {\n init_value = pred[] constant(false)\n"
      " ROOT while = pred[] while(init_value), condition=call_false, body=call_false\n}\n");
  const InstrId w = m.computation(m.entry()).root;
  for (ir::CompId c : m.called(w)) EXPECT_EQ(expression(m, m.computation(c).root), "constant(false)");
}

// XLA calls CallInliner::Inline on the one call; the pass inlines exactly that call.
TEST(CallInlinerXla, InlineWithoutRunningPass) {
  const ir::Module m = inline_calls(
      "HloModule m\njust_false {\n false_constant = pred[] constant(false)\n"
      " true_constant = pred[1] constant({true}), control-predecessors={false_constant}\n ROOT r = pred[] copy(false_constant)\n}\n"
      "ENTRY call_false {\n ROOT call = pred[] call(), to_apply=just_false\n}\n");
  EXPECT_EQ(root_expression(m), "copy(constant(false))");
  const InstrId root_constant = m.operand(m.computation(m.entry()).root, 0);
  int successors = 0;
  for (InstrId j : m.instructions(m.entry())) successors += control_predecessor(m, j) == root_constant;
  EXPECT_EQ(successors, 1) << ir::print_module(m);
}

TEST(CallInlinerXla, InlineWithEmptyComputation) {
  const ir::Module m = inline_calls(
      "HloModule m\nempty {\n A = s32[] parameter(0)\n ROOT zero = s32[] constant(0)\n}\n"
      "empty2 {\n A = s32[] parameter(0)\n ROOT zero = s32[] constant(0)\n}\n"
      "ENTRY entry {\n zero = s32[] constant(0)\n call0 = s32[] call(zero), to_apply=empty\n"
      " call1 = s32[] call(zero), to_apply=empty2\n ROOT call2 = s32[] call(call1), to_apply=empty\n}\n");
  EXPECT_EQ(root_expression(m), "constant(0)");
}

TEST(CallInlinerXla, CallToOutfeedComputationIsInlined) {
  inline_calls("HloModule m\noutfeeder {\n value = f32[] constant(42)\n token = token[] after-all()\n"
               " ROOT outfeed = token[] outfeed(value, token), outfeed_config=\"\"\n}\n"
               "ENTRY outer {\n ROOT call = token[] call(), to_apply=outfeeder\n}\n",
               /*compare_values=*/false);
}

// XLA's single_call_site=true keeps calls of a computation called twice; hlsgym's
// call-inliner inlines every call, as XLA's default CallInliner() (listed).
TEST(CallInlinerXla, InlineSingleUseCalleesOnly) {
  EXPECT_FALSE(testing::deliberate_difference("call-inliner", "InlineSingleUseCalleesOnly").empty());
  const ir::Module m = inline_calls(
      "HloModule inline_module\na {\n ROOT tuple = () tuple()\n}\nb {\n ROOT tuple.1 = () tuple()\n}\n"
      "ENTRY inline {\n a = () call(), to_apply=a\n b = () call(), to_apply=a\n c = () call(), to_apply=b\n"
      " ROOT tuple = ((), (), ()) tuple(a, b, c)\n}\n",
      /*compare_values=*/false);  // empty tuples: no element to compare
  for (InstrId i : m.instructions(m.entry())) EXPECT_NE(m.opcode(i), ir::Opcode::kCall);
}

}  // namespace
}  // namespace hlsgym::passes
