// simplify-while-loops: every case of XLA's while_loop_simplifier_test.cc (openxla/xla
// xla/service/while_loop_simplifier_test.cc at 001918b7024cf5f020051a9d25d2dd57a5896aaa),
// each written as a golden test: HLO in (XLA's C++-built variants written as HLO text);
// the root pattern, the new loop's state shape, or no change out; the interpreter
// agreeing where the module terminates and has no side effects.
#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using testing::expression;
using testing::root_expression;

enum class Values { kCompare, kSkip };  // kSkip: the module loops forever or has side effects

// simplify-while-loops once on `module` (testing::run_golden's checks).
ir::Module simplify(const std::string& module, bool expect_change, Values values = Values::kCompare) {
  return testing::run_golden("simplify-while-loops", module, expect_change, values == Values::kCompare);
}

// Runs tuple-simplifier and dce once each (XLA's tests do, to tidy the result).
void tidy(ir::Module& m) {
  testing::run_pass("tuple-simplifier", m);
  testing::run_pass("dce", m);
}

InstrId first_while(const ir::Module& m) {
  for (InstrId i : m.instructions(m.entry()))
    if (m.opcode(i) == ir::Opcode::kWhile) return i;
  throw std::runtime_error("no while:\n" + ir::print_module(m));
}

std::string shape_of(const ir::Module& m, InstrId i) { return m.shape(i).to_string(false); }

// The state shape of the loop, checked to be the same on its body's root and parameter
// and its condition's parameter.
std::string state_shape(const ir::Module& m, InstrId w) {
  const ir::Computation& body = m.computation(m.called(w)[1]);
  const ir::Computation& cond = m.computation(m.called(w)[0]);
  EXPECT_EQ(shape_of(m, body.root), shape_of(m, w));
  EXPECT_EQ(shape_of(m, body.params[0]), shape_of(m, w));
  EXPECT_EQ(shape_of(m, cond.params[0]), shape_of(m, w));
  return shape_of(m, w);
}

std::string body_root(const ir::Module& m, InstrId w, int depth = 8) {
  return expression(m, m.computation(m.called(w)[1]).root, depth);
}
std::string cond_root(const ir::Module& m, InstrId w, int depth = 8) {
  return expression(m, m.computation(m.called(w)[0]).root, depth);
}

// XLA's MakeModuleWithSimpleLoop: counts 42 up to 42 + iterations, squaring a vector.
// `body_extra` / `cond_extra` add instructions to the body / condition.
std::string simple_loop(int iterations, const std::string& body_extra = "", const std::string& cond_extra = "",
                        const std::string& root_attrs = "") {
  return "HloModule SimpleLoop\n"
         "SimpleLoop.body {\n loop_var.1 = (s32[], s32[3]) parameter(0)\n"
         " get-tuple-element.1 = s32[] get-tuple-element(loop_var.1), index=0\n constant.1 = s32[] constant(1)\n"
         " add = s32[] add(get-tuple-element.1, constant.1)\n"
         " get-tuple-element.2 = s32[3] get-tuple-element(loop_var.1), index=1\n"
         " multiply = s32[3] multiply(get-tuple-element.2, get-tuple-element.2)\n" +
         body_extra + " ROOT tuple = (s32[], s32[3]) tuple(add, multiply)" + root_attrs +
         "\n}\n"
         "SimpleLoop.condition {\n loop_var.2 = (s32[], s32[3]) parameter(0)\n"
         " get-tuple-element.3 = s32[] get-tuple-element(loop_var.2), index=0\n"
         " constant.2 = s32[] constant(" +
         std::to_string(42 + iterations) + ")\n" + cond_extra +
         " ROOT less-than = pred[] compare(get-tuple-element.3, constant.2), direction=LT\n}\n"
         "ENTRY SimpleLoop {\n constant.3 = s32[] constant(42)\n constant.4 = s32[3] constant({0, 1, 2})\n"
         " tuple.1 = (s32[], s32[3]) tuple(constant.3, constant.4)\n"
         " ROOT while = (s32[], s32[3]) while(tuple.1), condition=SimpleLoop.condition, body=SimpleLoop.body\n}\n";
}

// XLA's MakeModuleWithSimpleLoopTupleElementLoopBound: the bound is state element 2.
std::string simple_loop_with_bound_in_state(int iterations) {
  return "HloModule SimpleLoopWithIndirectLoopBound\n"
         "SimpleLoopWithIndirectLoopBound.body {\n loop_var.1 = (s32[], s32[3], s32[]) parameter(0)\n"
         " get-tuple-element.1 = s32[] get-tuple-element(loop_var.1), index=0\n constant.1 = s32[] constant(1)\n"
         " add = s32[] add(get-tuple-element.1, constant.1)\n"
         " get-tuple-element.2 = s32[3] get-tuple-element(loop_var.1), index=1\n"
         " multiply = s32[3] multiply(get-tuple-element.2, get-tuple-element.2)\n"
         " limit = s32[] get-tuple-element(loop_var.1), index=2\n"
         " ROOT tuple = (s32[], s32[3], s32[]) tuple(add, multiply, limit)\n}\n"
         "SimpleLoopWithIndirectLoopBound.condition {\n loop_var.2 = (s32[], s32[3], s32[]) parameter(0)\n"
         " get-tuple-element.3 = s32[] get-tuple-element(loop_var.2), index=0\n"
         " get-tuple-element.4 = s32[] get-tuple-element(loop_var.2), index=2\n"
         " ROOT less-than = pred[] compare(get-tuple-element.3, get-tuple-element.4), direction=LT\n}\n"
         "ENTRY SimpleLoopWithIndirectLoopBound {\n constant.3 = s32[] constant(42)\n"
         " constant.4 = s32[3] constant({0, 1, 2})\n constant.2 = s32[] constant(" +
         std::to_string(42 + iterations) +
         ")\n tuple.1 = (s32[], s32[3], s32[]) tuple(constant.3, constant.4, constant.2)\n"
         " ROOT while = (s32[], s32[3], s32[]) while(tuple.1), condition=SimpleLoopWithIndirectLoopBound.condition,"
         " body=SimpleLoopWithIndirectLoopBound.body\n}\n";
}

TEST(WhileLoopSimplifierXla, LoopWithZeroIterationSimplified) {
  const ir::Module m = simplify(simple_loop(0), true);
  EXPECT_EQ(root_expression(m), "tuple(constant(42), constant)");
}

TEST(WhileLoopSimplifierXla, LoopWithZeroIterationTupleElementLoopBoundSimplified) {
  const ir::Module m = simplify(simple_loop_with_bound_in_state(0), true);
  EXPECT_EQ(root_expression(m), "tuple(constant(42), constant, constant(42))");
}

TEST(WhileLoopSimplifierXla, LoopWithOneIterationSimplified) {
  const ir::Module m = simplify(simple_loop(1), true);
  EXPECT_EQ(root_expression(m, 1), "tuple(add, multiply)");
}

TEST(WhileLoopSimplifierXla, LoopWithOneIterationTupleELementLoopBoundSimplified) {
  const ir::Module m = simplify(simple_loop_with_bound_in_state(1), true);
  EXPECT_EQ(root_expression(m, 1), "tuple(add, multiply, constant(43))");
}

TEST(WhileLoopSimplifierXla, LoopWithTwoIterationsNotSimplified) { simplify(simple_loop(2), false); }

// XLA adds the control edge with the C++ API; here it is written in the body.
TEST(WhileLoopSimplifierXla, LoopWithControlDependencySimplifiedDependencyPreserved) {
  const ir::Module m =
      simplify(simple_loop(1, " true_op = pred[] constant(true)\n", "", ", control-predecessors={true_op}"), true);
  const InstrId root = m.computation(m.entry()).root;
  const ir::OpaqueAttribute* edge = m.attrs(root).find_opaque("control-predecessors");
  ASSERT_NE(edge, nullptr) << ir::print_module(m);
  InstrId predecessor = ir::kNoId;
  for (InstrId i : m.instructions(m.entry()))
    if (edge->value == "{" + m.name(i) + "}") predecessor = i;
  ASSERT_NE(predecessor, ir::kNoId) << edge->value << " names no instruction of the entry\n" << ir::print_module(m);
  EXPECT_EQ(m.opcode(predecessor), ir::Opcode::kConstant);
}

// Loops with send/recv keep their structure (the other side matches on it).
TEST(WhileLoopSimplifierXla, LoopWithSendNotSimplified) {
  simplify(simple_loop(1,
                       " token = token[] after-all()\n true_op = pred[] constant(true)\n"
                       " send = (pred[], u32[], token[]) send(true_op, token), channel_id=1\n"
                       " send-done = token[] send-done(send), channel_id=1\n"),
           false, Values::kSkip);
}

TEST(WhileLoopSimplifierXla, LoopWithRecvNotSimplified) {
  simplify(simple_loop(1,
                       " token = token[] after-all()\n recv = (f32[1], u32[], token[]) recv(token), channel_id=1\n"
                       " recv-done = (f32[1], token[]) recv-done(recv), channel_id=1\n"),
           false, Values::kSkip);
}

// (XLA's name says "Simplified"; its expectation is no change.)
TEST(WhileLoopSimplifierXla, LoopWithInfeedSimplified) {
  simplify(simple_loop(1, " token = token[] after-all()\n infeed = (f32[1], token[]) infeed(token), infeed_config=\"config\"\n"),
           false, Values::kSkip);
}

TEST(WhileLoopSimplifierXla, LoopWithInfeedInCondNotSimplified) {
  simplify(simple_loop(1, "", " token = token[] after-all()\n infeed = (f32[1], token[]) infeed(token), infeed_config=\"config\"\n"),
           false, Values::kSkip);
}

TEST(WhileLoopSimplifierXla, NonTupleShapedLoopNotSimplified) {
  simplify("HloModule NonTupleShapedLoop\n"
           "NonTupleShapedLoop.body {\n loop_var.1 = s32[] parameter(0)\n constant.1 = s32[] constant(-1)\n"
           " ROOT add = s32[] add(loop_var.1, constant.1)\n}\n"
           "NonTupleShapedLoop.condition {\n loop_var = s32[] parameter(0)\n constant = s32[] constant(100)\n"
           " ROOT less-than = pred[] compare(loop_var, constant), direction=LT\n}\n"
           "ENTRY INonTupleShapedLoop {\n constant.2 = s32[] constant(42)\n"
           " ROOT while = s32[] while(constant.2), condition=NonTupleShapedLoop.condition, body=NonTupleShapedLoop.body\n}\n",
           false, Values::kSkip);  // counts down from 42 while below 100: forever
}

const std::string kAlwaysTrue2 = "always_true {\n param = (s32[], s32[]) parameter(0)\n ROOT constant = pred[] constant(true)\n}\n";

TEST(WhileLoopSimplifierXla, LoopSwappingTupleElementsNotSimplified) {
  simplify("HloModule SwappingTupleElements\n"
           "body {\n loop_var = (s32[], s32[]) parameter(0)\n"
           " get-tuple-element = s32[] get-tuple-element(loop_var), index=1\n"
           " get-tuple-element.1 = s32[] get-tuple-element(loop_var), index=0\n"
           " ROOT tuple = (s32[], s32[]) tuple(get-tuple-element, get-tuple-element.1)\n}\n" +
               kAlwaysTrue2 +
               "ENTRY SwappingTupleElements {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n"
               " tuple.1 = (s32[], s32[]) tuple(x, y)\n"
               " ROOT while = (s32[], s32[]) while(tuple.1), condition=always_true, body=body\n}\n",
           false, Values::kSkip);
}

TEST(WhileLoopSimplifierXla, LoopWithUnusedButModifiedTupleElementNotSimplified) {
  simplify("HloModule UnusedButModifiedTupleElement\n"
           "body {\n loop_var = (s32[]) parameter(0)\n constant.1 = s32[] constant(1)\n"
           " ROOT tuple = (s32[]) tuple(constant.1)\n}\n"
           "always_true {\n param = (s32[]) parameter(0)\n ROOT constant = pred[] constant(true)\n}\n"
           "ENTRY UnusedButModifiedTupleElement {\n constant.2 = s32[] constant(0)\n tuple.1 = (s32[]) tuple(constant.2)\n"
           " ROOT while = (s32[]) while(tuple.1), condition=always_true, body=body\n}\n",
           false, Values::kSkip);
}

// XLA's module: the condition stops once element 0 is 1, and the body sets it to 1.
std::string unused_but_modified(const std::string& start) {
  return "HloModule UnusedButModifiedTupleElement\n"
         "body {\n loop_var = (s32[], s32[]) parameter(0)\n constant.1 = s32[] constant(1)\n"
         " ROOT tuple = (s32[], s32[]) tuple(constant.1, constant.1)\n}\n"
         "cond {\n param = (s32[], s32[]) parameter(0)\n gte.cond = s32[] get-tuple-element(param), index=0\n"
         " constant.3 = s32[] constant(1)\n ROOT lt = pred[] compare(gte.cond, constant.3), direction=LT\n}\n"
         "ENTRY UnusedButModifiedTupleElement {\n" +
         start +
         " tuple.1 = (s32[], s32[]) tuple(constant.2, constant.2)\n"
         " while = (s32[], s32[]) while(tuple.1), condition=cond, body=body\n"
         " ROOT gte = s32[] get-tuple-element(while), index=0\n}\n";
}

// hlsgym's trip count (listed) is 1 here: the loop is inlined, not only stripped.
TEST(WhileLoopSimplifierXla, LoopWithUnusedOutsideLoopButModifiedTupleElementSimplified) {
  EXPECT_FALSE(testing::deliberate_difference("simplify-while-loops",
                                              "LoopWithUnusedOutsideLoopButModifiedTupleElementSimplified")
                   .empty());
  ir::Module m = simplify(unused_but_modified(" constant.2 = s32[] constant(0)\n"), true);
  tidy(m);
  EXPECT_EQ(root_expression(m), "constant(1)");
}

// Not an XLA case: XLA's answer where the trip count is unknown to both (the start is a
// parameter).
TEST(WhileLoopSimplifierXla, LoopWithUnusedOutsideLoopButModifiedTupleElementUnknownStart) {
  ir::Module m = simplify(unused_but_modified(" constant.2 = s32[] parameter(0)\n"), true);
  tidy(m);
  EXPECT_EQ(root_expression(m, 1), "get-tuple-element(while)");
  EXPECT_EQ(shape_of(m, first_while(m)), "(s32[])");
}

TEST(WhileLoopSimplifierXla, LoopWithEmptyTupleNotSimplified) {
  simplify("HloModule EmptyTuple\n"
           "body {\n loop_var = () parameter(0)\n ROOT tuple = () tuple()\n}\n"
           "always_true {\n param = () parameter(0)\n ROOT constant = pred[] constant(true)\n}\n"
           "ENTRY EmptyTuple {\n tuple.1 = () tuple()\n ROOT while = () while(tuple.1), condition=always_true, body=body\n}\n",
           false, Values::kSkip);
}

TEST(WhileLoopSimplifierXla, LoopWithElemUsedTwiceNotSimplified) {
  simplify("HloModule ElemUsedTwice\n"
           "body {\n param0 = (s32[], s32[]) parameter(0)\n"
           " get-tuple-element = s32[] get-tuple-element(param0), index=0\n"
           " ROOT tuple = (s32[], s32[]) tuple(get-tuple-element, get-tuple-element)\n}\n" +
               kAlwaysTrue2 +
               "ENTRY ElemUsedTwice {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n"
               " tuple.1 = (s32[], s32[]) tuple(x, y)\n"
               " ROOT while = (s32[], s32[]) while(tuple.1), condition=always_true, body=body\n}\n",
           false, Values::kSkip);
}

TEST(WhileLoopSimplifierXla, RemoveUnusedLoopOperands) {
  const ir::Module m = simplify(
      "HloModule RemoveUnusedOperands\n"
      "body {\n loop_var = (s32[], s32[], s32[]) parameter(0)\n"
      " get-tuple-element.1 = s32[] get-tuple-element(loop_var), index=0\n"
      " get-tuple-element.2 = s32[] get-tuple-element(loop_var), index=1\n constant.1 = s32[] constant(1)\n"
      " add = s32[] add(get-tuple-element.2, constant.1)\n"
      " get-tuple-element.3 = s32[] get-tuple-element(loop_var), index=2\n"
      " ROOT tuple = (s32[], s32[], s32[]) tuple(get-tuple-element.1, add, get-tuple-element.3)\n}\n"
      "loop_condition {\n constant.2 = s32[] constant(0)\n param0 = (s32[], s32[], s32[]) parameter(0)\n"
      " get-tuple-element = s32[] get-tuple-element(param0), index=2\n"
      " ROOT equal-to = pred[] compare(constant.2, get-tuple-element), direction=EQ\n}\n"
      "ENTRY RemoveUnusedOperands {\n x = s32[] parameter(0)\n constant.3 = s32[] constant(0)\n y = s32[] parameter(1)\n"
      " tuple.1 = (s32[], s32[], s32[]) tuple(x, constant.3, y)\n"
      " ROOT while = (s32[], s32[], s32[]) while(tuple.1), condition=loop_condition, body=body\n}\n",
      true, Values::kSkip);  // y = 0 loops forever
  const InstrId w = first_while(m);
  EXPECT_EQ(state_shape(m, w), "(s32[], s32[])");
  EXPECT_EQ(body_root(m, w), "tuple(add(get-tuple-element(parameter(0)), constant(1)), get-tuple-element(parameter(0)))");
  const ir::Computation& body = m.computation(m.called(w)[1]);
  EXPECT_EQ(m.attrs(m.operand(m.operand(body.root, 0), 0)).tuple_index, 0);
  EXPECT_EQ(m.attrs(m.operand(body.root, 1)).tuple_index, 1);
  EXPECT_EQ(cond_root(m, w), "compare(constant(0), get-tuple-element(parameter(0)))");
  EXPECT_EQ(m.attrs(m.operand(m.computation(m.called(w)[0]).root, 1)).tuple_index, 1);
}

TEST(WhileLoopSimplifierXla, RemoveUnusedLoopOperandsDespiteSideEffectingOps) {
  const ir::Module m = simplify(
      "HloModule RemoveUnusedOperands\n"
      "body {\n loop_var = (s32[]) parameter(0)\n gte0 = s32[] get-tuple-element(loop_var), index=0\n"
      " token0 = token[] after-all()\n unused = ((s32[], pred[]), token[]) infeed(token0)\n"
      " ROOT tuple = (s32[]) tuple(gte0)\n}\n"
      "cond {\n loop_var = (s32[]) parameter(0)\n ROOT constant = pred[] constant(true)\n}\n"
      "ENTRY RemoveUnusedOperands {\n x = s32[] parameter(0)\n tuple.1 = (s32[]) tuple(x)\n"
      " ROOT while = (s32[]) while(tuple.1), condition=cond, body=body\n}\n",
      true, Values::kSkip);
  EXPECT_EQ(shape_of(m, first_while(m)), "()");
}

TEST(WhileLoopSimplifierXla, LoopWithNonTupleBodyShapeNotSimplified) {
  simplify("HloModule BodyHasNonTupleRoot\n"
           "passthrough {\n ROOT param = (s32[], s32[]) parameter(0)\n}\n" + kAlwaysTrue2 +
               "ENTRY BodyHasNonTupleRoot {\n init_value = (s32[], s32[]) parameter(0)\n"
               " ROOT while = (s32[], s32[]) while(init_value), condition=always_true, body=passthrough\n}\n",
           false, Values::kSkip);
}

TEST(WhileLoopSimplifierXla, LoopWithNonTupleBodyRootInstructionNotSimplified) {
  std::string module = simple_loop(2);
  module.replace(module.find(" ROOT tuple = (s32[], s32[3]) tuple(add, multiply)"), 51,
                 " ROOT custom-call = (s32[], s32[3]) custom-call(add, multiply), custom_call_target=\"x\"");
  simplify(module, false);
}

TEST(WhileLoopSimplifierXla, LoopWithArrayConstantNotSimplified) {
  simplify("HloModule SimpleLoop\n"
           "body {\n loop_var.1 = (s32[], s32[3], s32[3]) parameter(0)\n"
           " get-tuple-element.1 = s32[] get-tuple-element(loop_var.1), index=0\n constant.1 = s32[] constant(1)\n"
           " add = s32[] add(get-tuple-element.1, constant.1)\n"
           " get-tuple-element.2 = s32[3] get-tuple-element(loop_var.1), index=1\n"
           " get-tuple-element.3 = s32[3] get-tuple-element(loop_var.1), index=2\n"
           " add.2 = s32[3] add(get-tuple-element.2, get-tuple-element.3)\n"
           " ROOT tuple = (s32[], s32[3], s32[3]) tuple(add, add.2, get-tuple-element.3)\n}\n"
           "condition {\n loop_var.2 = (s32[], s32[3], s32[3]) parameter(0)\n"
           " get-tuple-element.4 = s32[] get-tuple-element(loop_var.2), index=0\n constant.2 = s32[] constant(47)\n"
           " ROOT less-than = pred[] compare(get-tuple-element.4, constant.2), direction=LT\n}\n"
           "ENTRY SimpleLoop {\n constant.3 = s32[] constant(42)\n constant.4 = s32[3] constant({0, 1, 2})\n"
           " tuple.1 = (s32[], s32[3], s32[3]) tuple(constant.3, constant.4, constant.4)\n"
           " ROOT while = (s32[], s32[3], s32[3]) while(tuple.1), condition=condition, body=body\n}\n",
           false);
}

TEST(WhileLoopSimplifierXla, FlattenNestedTuple) {
  ir::Module m = simplify(
      "HloModule Test\n"
      "Body {\n param = ((s32[1]), (s32[2], s32[3], (s32[4]))) parameter(0)\n"
      " ta = (s32[1]) get-tuple-element(param), index=0\n a = s32[1] get-tuple-element(ta), index=0\n"
      " a.1 = s32[1] add(a, a)\n tbcd = (s32[2], s32[3], (s32[4])) get-tuple-element(param), index=1\n"
      " ROOT tuple = ((s32[1]), (s32[2], s32[3], (s32[4]))) tuple(ta, tbcd)\n}\n"
      "Cond {\n param = ((s32[1]), (s32[2], s32[3], (s32[4]))) parameter(0)\n ROOT cond = pred[] constant(true)\n}\n"
      "ENTRY Loop {\n a = s32[1] constant({0})\n b = s32[2] constant({0,1})\n c = s32[3] constant({0,1,2})\n"
      " d = s32[4] constant({0,1,2,3})\n ta = (s32[1]) tuple(a)\n td = (s32[4]) tuple(d)\n"
      " tbcd = (s32[2], s32[3], (s32[4])) tuple(b, c, td)\n init = ((s32[1]), (s32[2], s32[3], (s32[4]))) tuple(ta, tbcd)\n"
      " ROOT while = ((s32[1]), (s32[2], s32[3], (s32[4]))) while(init), condition=Cond, body=Body\n}\n",
      true, Values::kSkip);  // loops forever
  testing::run_pass("dce", m);
  EXPECT_EQ(state_shape(m, first_while(m)), "(s32[1], s32[2], s32[3], s32[4])");
  EXPECT_EQ(shape_of(m, m.computation(m.entry()).root), "((s32[1]), (s32[2], s32[3], (s32[4])))");
}

// Every element is a constant the body writes back unchanged: the loop (which never
// ends) is its init value.
TEST(WhileLoopSimplifierXla, OnlyConstantsInLoopCarry) {
  ir::Module m = simplify(
      "HloModule Test\n"
      "Body {\n param = (s32[1]) parameter(0)\n a = s32[1] constant({0})\n ROOT tuple = (s32[1]) tuple(a)\n}\n"
      "Cond {\n param = (s32[1]) parameter(0)\n ROOT cond = pred[] constant(true)\n}\n"
      "ENTRY Loop {\n a = s32[1] constant({0})\n init = (s32[1]) tuple(a)\n"
      " ROOT while = (s32[1]) while(init), condition=Cond, body=Body\n}\n",
      true, Values::kSkip);
  testing::run_pass("dce", m);
  testing::run_pass("tuple-simplifier", m);
  EXPECT_EQ(root_expression(m), "tuple(constant)");
}

TEST(WhileLoopSimplifierXla, RemoveConstantFromLoopCarry) {
  ir::Module m = simplify(
      "HloModule Test\n"
      "Body {\n param = (s32[1], s32[2], s32[3]) parameter(0)\n a = s32[1] get-tuple-element(param), index=0\n"
      " a.1 = s32[1] add(a, a)\n b = s32[2] constant({1,1})\n c = s32[3] constant({10,10,10})\n"
      " ROOT tuple = (s32[1], s32[2], s32[3]) tuple(a.1, b, c)\n}\n"
      "Cond {\n param = (s32[1], s32[2], s32[3]) parameter(0)\n a = s32[1] get-tuple-element(param), index=0\n"
      " b = s32[2] get-tuple-element(param), index=1\n c = s32[3] get-tuple-element(param), index=2\n"
      " ROOT cond = pred[] constant(true)\n}\n"
      "ENTRY Loop {\n a = s32[1] constant({0})\n b = s32[2] constant({1,1})\n c = s32[3] constant({2,2,2})\n"
      " init = (s32[1], s32[2], s32[3]) tuple(a,b,c)\n"
      " ROOT while = (s32[1], s32[2], s32[3]) while(init), condition=Cond, body=Body\n}\n",
      true, Values::kSkip);  // loops forever
  testing::run_pass("dce", m);
  testing::run_pass("tuple-simplifier", m);
  EXPECT_EQ(state_shape(m, first_while(m)), "(s32[1], s32[3])");
  EXPECT_EQ(shape_of(m, m.computation(m.entry()).root), "(s32[1], s32[2], s32[3])");
  EXPECT_EQ(expression(m, m.operand(m.computation(m.entry()).root, 1)), "constant");
}

// XLA's kSimpleMergeInductionVariablesModule with element type `type`; `cond_op` is the
// condition's combination of a and b (XLA's: power).
std::string induction_variables(const std::string& type, const std::string& cond_op = "power") {
  std::string text =
      "HloModule Test\n"
      "Body {\n param = (T[], T[], T[]) parameter(0)\n a = T[] get-tuple-element(param), index=0\n"
      " one = T[] constant(1)\n a1 = T[] add(a, one)\n b = T[] get-tuple-element(param), index=1\n"
      " negone = T[] constant(-1)\n b1 = T[] add(b, negone)\n c = T[] add(a, b)\n"
      " ROOT tuple = (T[], T[], T[]) tuple(a1,b1,c)\n}\n"
      "Cond {\n param = (T[], T[], T[]) parameter(0)\n a = T[] get-tuple-element(param), index=0\n"
      " b = T[] get-tuple-element(param), index=1\n sum = T[] " +
      cond_op +
      "(a, b)\n ten = T[] constant(10)\n ROOT cond = pred[] compare(sum, ten), direction=LT\n}\n"
      "ENTRY Loop {\n a = T[] constant(10)\n b = T[] constant(100)\n c = T[] constant(0)\n"
      " init = (T[], T[], T[]) tuple(a,b,c)\n while = (T[], T[], T[]) while(init), condition=Cond, body=Body\n"
      " a1 = T[] get-tuple-element(while), index=0\n b1 = T[] get-tuple-element(while), index=1\n"
      " c1 = T[] get-tuple-element(while), index=2\n sum = T[] add(a1, b1)\n ROOT sum.1 = T[] add(sum, c1)\n}\n";
  for (size_t at; (at = text.find("T[]")) != std::string::npos;) text.replace(at, 1, type);
  return text;
}

// hlsgym's trip count (listed) is 1: 10^100 wraps to 0 in s32, below 10, and 11^99 does
// not; the loop is inlined.
TEST(WhileLoopSimplifierXla, MergeInductionVariables_Simple) {
  EXPECT_FALSE(testing::deliberate_difference("simplify-while-loops", "MergeInductionVariables_Simple").empty());
  const ir::Module m = simplify(induction_variables("s32"), true);
  EXPECT_EQ(expression(m, m.computation(m.entry()).root, 0), "add");
  for (InstrId i : m.instructions(m.entry())) EXPECT_NE(m.opcode(i), ir::Opcode::kWhile) << ir::print_module(m);
}

// Not an XLA case: XLA's answer where the trip count is unknown to both (a starts as a
// parameter).
TEST(WhileLoopSimplifierXla, MergeInductionVariablesUnknownStart) {
  std::string module = induction_variables("s32");
  module.replace(module.find("a = s32[] constant(10)"), 22, "a = s32[] parameter(0)");
  ir::Module m = simplify(module, true, Values::kSkip);  // may loop for ever
  testing::run_pass("dce", m);
  testing::run_pass("tuple-simplifier", m);
  const InstrId w = first_while(m);
  EXPECT_EQ(state_shape(m, w), "(s32[], s32[], s32[], s32[])");
  const ir::Computation& body = m.computation(m.called(w)[1]);
  EXPECT_EQ(body_root(m, w, 1), "tuple(get-tuple-element, get-tuple-element, add, add)");
  EXPECT_EQ(expression(m, m.operand(body.root, 0)), "get-tuple-element(parameter(0))");
  EXPECT_EQ(expression(m, m.operand(body.root, 1)), "get-tuple-element(parameter(0))");
  EXPECT_EQ(expression(m, m.operand(body.root, 3)), "add(get-tuple-element(parameter(0)), constant(1))");
  EXPECT_EQ(m.attrs(m.operand(body.root, 0)).tuple_index, 0);
  EXPECT_EQ(m.attrs(m.operand(body.root, 1)).tuple_index, 1);
  EXPECT_EQ(m.attrs(m.operand(m.operand(body.root, 3), 0)).tuple_index, 3);
  EXPECT_EQ(cond_root(m, w, 2), "compare(power(add, add), constant(10))");
}

// Not an XLA case: the same rewrite on a loop that ends (a - b climbs from -90 by 2 while
// below -5: 43 iterations), for the interpreter's check.
TEST(WhileLoopSimplifierXla, MergeInductionVariablesKeepsValues) {
  std::string module = induction_variables("s32", "subtract");
  module.replace(module.find("ten = s32[] constant(10)"), 24, "ten = s32[] constant(-5)");
  const ir::Module m = simplify(module, true);
  EXPECT_EQ(state_shape(m, first_while(m)), "(s32[], s32[], s32[], s32[])");
}

// XLA leaves S16 alone (no S16 literals there); hlsgym does as XLA.
TEST(WhileLoopSimplifierXla, MergeInductionVariables_SkipS16) {
  simplify(induction_variables("s16"), false, Values::kSkip);
}

TEST(WhileLoopSimplifierXla, RemoveRepeatedParams) {
  const ir::Module m = simplify(
      "HloModule SwappingTupleElements\n"
      "body {\n loop_var = (s32[], s32[], s32[]) parameter(0)\n"
      " get-tuple-element = s32[] get-tuple-element(loop_var), index=0\n"
      " get-tuple-element.1 = s32[] get-tuple-element(loop_var), index=1\n"
      " get-tuple-element.2 = s32[] get-tuple-element(loop_var), index=2\n"
      " y = s32[] add(get-tuple-element.1, get-tuple-element.2)\n"
      " ROOT tuple = (s32[], s32[], s32[]) tuple(get-tuple-element, y, get-tuple-element.2)\n}\n"
      "always_true {\n param = (s32[], s32[], s32[]) parameter(0)\n"
      " get-tuple-element = s32[] get-tuple-element(param), index=0\n"
      " get-tuple-element.1 = s32[] get-tuple-element(param), index=1\n"
      " ROOT less-than = pred[] compare(get-tuple-element, get-tuple-element.1), direction=LT\n}\n"
      "ENTRY SwappingTupleElements {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n"
      " tuple.1 = (s32[], s32[], s32[]) tuple(x, y, x)\n"
      " ROOT while = (s32[], s32[], s32[]) while(tuple.1), condition=always_true, body=body\n}\n",
      true, Values::kSkip);  // x <= 0 loops for ever
  EXPECT_EQ(state_shape(m, first_while(m)), "(s32[], s32[])");
}

// Not an XLA case: repeated elements on a loop that ends (y climbs by (x & 3) + 1 to 20).
TEST(WhileLoopSimplifierXla, RemoveRepeatedParamsKeepsValues) {
  const ir::Module m = simplify(
      "HloModule Repeated\n"
      "body {\n loop_var = (s32[], s32[], s32[]) parameter(0)\n"
      " x0 = s32[] get-tuple-element(loop_var), index=0\n y = s32[] get-tuple-element(loop_var), index=1\n"
      " x2 = s32[] get-tuple-element(loop_var), index=2\n three = s32[] constant(3)\n one = s32[] constant(1)\n"
      " low = s32[] and(x2, three)\n step = s32[] add(low, one)\n next = s32[] add(y, step)\n"
      " ROOT tuple = (s32[], s32[], s32[]) tuple(x0, next, x2)\n}\n"
      "cond {\n param = (s32[], s32[], s32[]) parameter(0)\n y = s32[] get-tuple-element(param), index=1\n"
      " twenty = s32[] constant(20)\n ROOT lt = pred[] compare(y, twenty), direction=LT\n}\n"
      "ENTRY e {\n x = s32[] parameter(0)\n zero = s32[] constant(0)\n"
      " tuple.1 = (s32[], s32[], s32[]) tuple(x, zero, x)\n"
      " ROOT while = (s32[], s32[], s32[]) while(tuple.1), condition=cond, body=body\n}\n",
      true);
  EXPECT_EQ(state_shape(m, first_while(m)), "(s32[], s32[])");
}

// XLA's LoopWithUnusedGroupSimplified module: element 0 stops the loop after one
// iteration; elements 1 and 2 feed only each other.
std::string unused_group(const std::string& start) {
  return "HloModule LoopWithUnusedGroupSimplified\n"
         "body {\n loop_var = (s32[], s32[], s32[]) parameter(0)\n constant.1 = s32[] constant(1)\n"
         " gte0 = s32[] get-tuple-element(loop_var), index=1\n gte1 = s32[] get-tuple-element(loop_var), index=2\n"
         " add = s32[] add(gte0, gte1)\n ROOT tuple = (s32[], s32[], s32[]) tuple(constant.1, add, add)\n}\n"
         "cond {\n param = (s32[], s32[], s32[]) parameter(0)\n gte.cond = s32[] get-tuple-element(param), index=0\n"
         " constant.3 = s32[] constant(1)\n ROOT lt = pred[] compare(gte.cond, constant.3), direction=LT\n}\n"
         "ENTRY LoopWithUnusedGroupSimplified {\n" +
         start +
         " tuple.1 = (s32[], s32[], s32[]) tuple(constant.2, constant.2, constant.2)\n"
         " while = (s32[], s32[], s32[]) while(tuple.1), condition=cond, body=body\n"
         " ROOT gte = s32[] get-tuple-element(while), index=0\n}\n";
}

// hlsgym's trip count (listed) is 1: the loop is inlined.
TEST(WhileLoopSimplifierXla, LoopWithUnusedGroupSimplified) {
  EXPECT_FALSE(testing::deliberate_difference("simplify-while-loops", "LoopWithUnusedGroupSimplified").empty());
  ir::Module m = simplify(unused_group(" constant.2 = s32[] constant(0)\n"), true);
  tidy(m);
  EXPECT_EQ(root_expression(m), "constant(1)");
}

// Not an XLA case: XLA's answer where the start is a parameter.
TEST(WhileLoopSimplifierXla, LoopWithUnusedGroupUnknownStart) {
  ir::Module m = simplify(unused_group(" constant.2 = s32[] parameter(0)\n"), true);
  tidy(m);
  EXPECT_EQ(root_expression(m, 1), "get-tuple-element(while)");
  EXPECT_EQ(shape_of(m, first_while(m)), "(s32[])");
}

std::string unused_non_passthrough(const std::string& start) {
  return "HloModule LoopWithUnusedNonPassthroughElementSimplified\n"
         "body {\n loop_var = (s32[], s32[], s32[]) parameter(0)\n constant.1 = s32[] constant(1)\n"
         " gte0 = s32[] get-tuple-element(loop_var), index=1\n gte1 = s32[] get-tuple-element(loop_var), index=2\n"
         " add = s32[] add(gte0, gte1)\n add2 = s32[] add(gte0, gte0)\n"
         " ROOT tuple = (s32[], s32[], s32[]) tuple(constant.1, add2, add)\n}\n"
         "cond {\n param = (s32[], s32[], s32[]) parameter(0)\n gte.cond = s32[] get-tuple-element(param), index=0\n"
         " constant.3 = s32[] constant(1)\n ROOT lt = pred[] compare(gte.cond, constant.3), direction=LT\n}\n"
         "ENTRY LoopWithUnusedNonPassthroughElementSimplified {\n" +
         start +
         " tuple.1 = (s32[], s32[], s32[]) tuple(constant.2, constant.2, constant.2)\n"
         " while = (s32[], s32[], s32[]) while(tuple.1), condition=cond, body=body\n"
         " gte2 = s32[] get-tuple-element(while), index=0\n gte3 = s32[] get-tuple-element(while), index=1\n"
         " ROOT tuple.2 = (s32[], s32[]) tuple(gte2, gte3)\n}\n";
}

// hlsgym's trip count (listed) is 1: the loop is inlined.
TEST(WhileLoopSimplifierXla, LoopWithUnusedNonPassthroughElementSimplified) {
  EXPECT_FALSE(testing::deliberate_difference("simplify-while-loops", "LoopWithUnusedNonPassthroughElementSimplified")
                   .empty());
  ir::Module m = simplify(unused_non_passthrough(" constant.2 = s32[] constant(0)\n"), true);
  tidy(m);
  EXPECT_EQ(root_expression(m), "tuple(constant(1), add(constant(0), constant(0)))");
}

// Not an XLA case: XLA's answer where the start is a parameter.
TEST(WhileLoopSimplifierXla, LoopWithUnusedNonPassthroughElementUnknownStart) {
  ir::Module m = simplify(unused_non_passthrough(" constant.2 = s32[] parameter(0)\n"), true);
  tidy(m);
  EXPECT_EQ(expression(m, m.computation(m.entry()).root, 0), "while");
  EXPECT_EQ(shape_of(m, m.computation(m.entry()).root), "(s32[], s32[])");
}

}  // namespace
}  // namespace hlsgym::passes
