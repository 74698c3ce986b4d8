// simplify-conditional: every case of XLA's conditional_simplifier_test.cc (openxla/xla
// xla/service/conditional_simplifier_test.cc at 001918b7024cf5f020051a9d25d2dd57a5896aaa),
// each written as a golden test: HLO in (XLA's C++-built modules written as HLO text);
// the root pattern, the conditional's shapes, or no change out; the interpreter agreeing
// where the module has no side effects.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using testing::root_expression;

enum class Values { kCompare, kSkip };  // kSkip: the module has side effects

ir::Module simplify(const std::string& module, bool expect_change, Values values = Values::kCompare) {
  return testing::run_golden("simplify-conditional", module, expect_change, values == Values::kCompare);
}

InstrId named(const ir::Module& m, const std::string& name) {
  for (ir::CompId c : m.live_computations())
    for (InstrId i : m.instructions(c))
      if (m.name(i) == name) return i;
  ADD_FAILURE() << "no " << name << ":\n" << ir::print_module(m);
  return ir::kNoId;
}

size_t elements(const ir::Module& m, InstrId i) { return m.shape(i).tuple_elements().size(); }

// XLA's MakeConditional: param + 1 if the predicate holds, param + 42 otherwise, the
// predicate a constant false or parameter 1. `true_extra` / `false_extra` add
// instructions to the branches, `root_attrs` attributes to the conditional.
std::string make_conditional(bool constant_predicate, const std::string& true_extra = "",
                             const std::string& false_extra = "", const std::string& entry_extra = "",
                             const std::string& root_attrs = "") {
  return "HloModule m\n"
         "true_computation {\n param = s32[] parameter(0)\n one = s32[] constant(1)\n" +
         true_extra + " ROOT add = s32[] add(param, one)\n}\n" +
         "false_computation {\n param = s32[] parameter(0)\n forty_two = s32[] constant(42)\n" + false_extra +
         " ROOT add = s32[] add(param, forty_two)\n}\n" + "ENTRY e {\n" +
         (constant_predicate ? " pred = pred[] constant(false)\n" : " pred = pred[] parameter(1)\n") +
         " false_param = s32[] parameter(0)\n one = s32[] constant(1)\n" + entry_extra +
         " ROOT conditional = s32[] conditional(pred, one, false_param), true_computation=true_computation,"
         " false_computation=false_computation" +
         root_attrs + "\n}\n";
}

TEST(ConditionalSimplifierXla, ConditionalGetsInlined) {
  const ir::Module m = simplify(make_conditional(true), true);
  EXPECT_EQ(root_expression(m), "add(parameter(0), constant(42))");
}

TEST(ConditionalSimplifierXla, BranchGetsInlined) {
  const ir::Module m = simplify(make_conditional(false), true);
  EXPECT_EQ(root_expression(m),
            "select(parameter(1), add(constant(1), constant(1)), add(parameter(0), constant(42)))");
}

TEST(ConditionalSimplifierXla, ConditionalWithControlDependency) {
  simplify(make_conditional(true, "", "", " true_op = pred[] constant(true)\n", ", control-predecessors={true_op}"),
           false);
}

const std::string kSend =
    " token = token[] after-all()\n true_op = pred[] constant(true)\n"
    " send = (pred[], u32[], token[]) send(true_op, token), channel_id=1\n"
    " send-done = token[] send-done(send), channel_id=1\n";

TEST(ConditionalSimplifierXla, NotRemovedIfContainsSend) {
  simplify(make_conditional(true, kSend), false, Values::kSkip);
}

TEST(ConditionalSimplifierXla, NotRemovedIfContainsRecv) {
  simplify(make_conditional(true,
                            " token = token[] after-all()\n recv = (f32[1], u32[], token[]) recv(token), channel_id=1\n"
                            " recv-done = (f32[1], token[]) recv-done(recv), channel_id=1\n"),
           false, Values::kSkip);
}

TEST(ConditionalSimplifierXla, NotRemovedIfContainsNonRemovableInstruction) {
  simplify(make_conditional(true, "",
                            " token = token[] after-all()\n infeed = (f32[1], token[]) infeed(token),"
                            " infeed_config=\"config\"\n"),
           false, Values::kSkip);
}

// Each branch reads two of the four operand elements; on_true is also called by `call`,
// which keeps its four (the conditional gets its own copy of on_true).
TEST(ConditionalSimplifierXla, TrivalOperandsRemoved) {
  const ir::Module m = simplify(
      "HloModule UnusedTupleOperands\n"
      "on_false {\n t = (f32[4,8], f32[8,8], f32[4,8], f32[8,8]) parameter(0)\n lhs = f32[4,8] get-tuple-element(t), index=0\n"
      " rhs = f32[8,8] get-tuple-element(t), index=1\n"
      " dot = f32[4,8] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " ROOT result = (f32[4,8]) tuple(dot)\n}\n"
      "on_true {\n t = (f32[4,8], f32[8,8], f32[4,8], f32[8,8]) parameter(0)\n lhs = f32[4,8] get-tuple-element(t), index=2\n"
      " rhs = f32[8,8] get-tuple-element(t), index=3\n"
      " dot = f32[4,8] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " ROOT result = (f32[4,8]) tuple(dot)\n}\n"
      "ENTRY main {\n c0_0 = f32[4,8] parameter(0)\n c0_1 = f32[8,8] parameter(1)\n c1_0 = f32[4,8] parameter(2)\n"
      " c1_1 = f32[8,8] parameter(3)\n p = pred[] parameter(4)\n"
      " t = (f32[4,8], f32[8,8], f32[4,8], f32[8,8]) tuple(c0_0, c0_1, c1_0, c1_1)\n"
      " call = (f32[4,8]) call(t), to_apply=on_true\n"
      " ROOT result = (f32[4,8]) conditional(p, t, t), false_computation=on_false, true_computation=on_true\n}\n",
      true);
  const InstrId conditional = m.computation(m.entry()).root;
  ASSERT_EQ(m.opcode(conditional), ir::Opcode::kConditional) << ir::print_module(m);
  EXPECT_EQ(elements(m, m.operand(conditional, 1)), 2u);
  EXPECT_EQ(elements(m, m.operand(conditional, 2)), 2u);
  const InstrId call = named(m, "call");
  EXPECT_EQ(elements(m, m.computation(m.called(call)[0]).params[0]), 4u);
}

// XLA re-creates conditional_1 after conditional_2 (its user) to check that the pass
// visits conditionals in dependency order, not in definition order; HLO text defines an
// operand first, and hlsgym's pass walks the call graph, not the definition order.
TEST(ConditionalSimplifierXla, TwoConditionalsCreatedInReversedLexicalOrder) {
  simplify("HloModule DeadConditional\n"
           "computation.1 {\n param.1 = s64[] parameter(0)\n constant.1 = s64[] constant(1)\n"
           " ROOT add.1 = s64[] add(param.1, constant.1)\n}\n"
           "computation.2 {\n param.2 = s64[] parameter(0)\n constant.2 = s64[] constant(2)\n"
           " ROOT add.2 = s64[] add(param.2, constant.2)\n}\n"
           "computation.3 {\n param.3 = s64[] parameter(0)\n constant.3 = s64[] constant(3)\n"
           " ROOT add.3 = s64[] add(param.3, constant.3)\n}\n"
           "computation.4 {\n param.4 = s64[] parameter(0)\n constant.4 = s64[] constant(4)\n"
           " ROOT add.4 = s64[] add(param.4, constant.4)\n}\n"
           "ENTRY KernelEntry {\n param.1 = s64[] parameter(0)\n param.2 = s64[] parameter(1)\n"
           " param.3 = s64[] parameter(2)\n param.4 = pred[] parameter(3)\n"
           " conditional_1 = s64[] conditional(param.4, param.3, param.2), true_computation=computation.3,"
           " false_computation=computation.4\n constant.1 = pred[] constant(false)\n"
           " ROOT conditional_2 = s64[] conditional(constant.1, conditional_1, param.1), true_computation=computation.1,"
           " false_computation=computation.2\n}\n",
           true);
}

TEST(ConditionalSimplifierXla, RemoveDeadRoots) {
  const ir::Module m = simplify(
      "HloModule RemoveDeadRoots\n"
      "on_false {\n t = (f32[4,8], f32[8,8]) parameter(0)\n lhs = f32[4,8] get-tuple-element(t), index=0\n"
      " rhs = f32[8,8] get-tuple-element(t), index=1\n"
      " dot = f32[4,8] dot(lhs, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " after-all = token[] after-all()\n outfeed = token[] outfeed(dot, after-all)\n"
      " ROOT result = (f32[4,8]) tuple(dot)\n}\n"
      "on_true {\n t = (f32[4,8], f32[8,8]) parameter(0)\n lhs = f32[4,8] get-tuple-element(t), index=0\n"
      " add = f32[4,8] add(lhs, lhs)\n ROOT result = (f32[4,8]) tuple(add)\n}\n"
      "ENTRY main {\n c0_0 = f32[4,8] parameter(0)\n c0_1 = f32[8,8] parameter(1)\n p = pred[] parameter(2)\n"
      " t = (f32[4,8], f32[8,8]) tuple(c0_0, c0_1)\n"
      " conditional = (f32[4,8]) conditional(p, t, t), false_computation=on_false, true_computation=on_true\n"
      " ROOT result = () tuple()\n}\n",
      true, Values::kSkip);
  EXPECT_EQ(elements(m, named(m, "conditional")), 0u);
}

// on_false draws random numbers (a side effect): the conditional stays, its outputs shrink.
std::string one_output_read(int index) {
  return "HloModule TupleElementUnusedAndRemoved\n"
         "on_true {\n arg_tuple.7 = (f32[10,10]) parameter(0)\n"
         " get-tuple-element.9 = f32[10,10] get-tuple-element(arg_tuple.7), index=0\n"
         " copy = f32[10,10] copy(get-tuple-element.9)\n"
         " ROOT tuple.6 = (f32[10,10], f32[10,10]) tuple(copy, get-tuple-element.9)\n}\n"
         "on_false {\n constant.17 = f32[] constant(0)\n constant.18 = f32[] constant(1)\n"
         " rng.19 = f32[10,10] rng(constant.17, constant.18), distribution=rng_uniform\n"
         " arg_tuple.14 = (f32[10,10]) parameter(0)\n"
         " get-tuple-element.16 = f32[10,10] get-tuple-element(arg_tuple.14), index=0\n"
         " ROOT tuple.7 = (f32[10,10], f32[10,10]) tuple(rng.19, get-tuple-element.16)\n}\n"
         "ENTRY main {\n constant.38 = pred[] constant(true)\n arg_tuple.30 = (s32[], f32[10,10]) parameter(0)\n"
         " get-tuple-element.21 = f32[10,10] get-tuple-element(arg_tuple.30), index=1\n"
         " tuple.1 = (f32[10,10]) tuple(get-tuple-element.21)\n"
         " conditional = (f32[10,10], f32[10,10]) conditional(constant.38, tuple.1, tuple.1),"
         " true_computation=on_true, false_computation=on_false\n"
         " get-index = f32[10,10] get-tuple-element(conditional), index=" +
         std::to_string(index) + "\n ROOT result = (f32[10,10]) tuple(get-index)\n}\n";
}

TEST(ConditionalSimplifierXla, SecondTupleElementUnusedAndRemoved) {
  const ir::Module m = simplify(one_output_read(0), true, Values::kSkip);
  EXPECT_EQ(elements(m, named(m, "conditional")), 1u);
}

TEST(ConditionalSimplifierXla, FirstTupleElementUnusedAndRemoved) {
  const ir::Module m = simplify(one_output_read(1), true, Values::kSkip);
  EXPECT_EQ(elements(m, named(m, "conditional")), 1u);
}

TEST(ConditionalSimplifierXla, MergeDuplicateTupleElements) {
  const ir::Module m = simplify(
      "HloModule MergeDuplicateTupleElements\n"
      "on_true {\n param-true = (f32[]) parameter(0)\n gte-true = f32[] get-tuple-element(param-true), index=0\n"
      " ROOT tuple-true = (f32[], f32[]) tuple(gte-true, gte-true)\n}\n"
      "on_false {\n param-false = (f32[]) parameter(0)\n constant.0 = f32[] constant(0)\n constant.1 = f32[] constant(1)\n"
      " rng = f32[] rng(constant.0, constant.1), distribution=rng_uniform\n"
      " ROOT tuple-false = (f32[], f32[]) tuple(rng, rng)\n}\n"
      "ENTRY main {\n comp = pred[] parameter(0)\n arg = (f32[]) parameter(1)\n"
      " conditional = (f32[], f32[]) conditional(comp, arg, arg), true_computation=on_true, false_computation=on_false\n"
      " gte.0 = f32[] get-tuple-element(conditional), index=0\n gte.1 = f32[] get-tuple-element(conditional), index=1\n"
      " ROOT add = f32[] add(gte.0, gte.1)\n}\n",
      true, Values::kSkip);
  EXPECT_EQ(elements(m, named(m, "conditional")), 1u);
  EXPECT_EQ(m.attrs(named(m, "gte.0")).tuple_index, 0);
  EXPECT_EQ(m.attrs(named(m, "gte.1")).tuple_index, 0);
}

// Tokens cannot be selected: after-all joins them. XLA reads each token through a
// get-tuple-element of the inlined tuple; hlsgym reads the tuple's operand at once (listed).
TEST(ConditionalSimplifierXla, SimplifyConditionalWithTokens) {
  EXPECT_FALSE(testing::deliberate_difference("simplify-conditional", "SimplifyConditionalWithTokens").empty());
  const ir::Module m = simplify(
      "HloModule SimplifyConditionalWithTokens\n"
      "true_comp {\n ROOT parameter.13 = (token[]) parameter(0)\n}\n"
      "false_comp {\n ROOT parameter.21 = (token[]) parameter(0)\n}\n"
      "ENTRY entry {\n parameter.29 = pred[] parameter(0)\n token.1 = token[] after-all()\n token.2 = token[] after-all()\n"
      " tuple.3 = (token[]) tuple(token.1)\n tuple.4 = (token[]) tuple(token.2)\n"
      " ROOT conditional.5 = (token[]) conditional(parameter.29, tuple.3, tuple.4), true_computation=true_comp,"
      " false_computation=false_comp\n}\n",
      true, Values::kSkip);  // nothing but tokens to compare
  EXPECT_EQ(root_expression(m), "tuple(after-all(after-all, after-all))");
}

}  // namespace
}  // namespace hlsgym::passes
