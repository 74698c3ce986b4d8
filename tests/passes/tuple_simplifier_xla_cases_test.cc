// tuple-simplifier: every case of XLA's tuple_simplifier_test.cc (openxla/xla
// xla/service/tuple_simplifier_test.cc at 001918b7024cf5f020051a9d25d2dd57a5896aaa), each
// written as a golden test: HLO in (XLA's C++-built modules written as HLO text); the
// root, or no change, out; the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {
using testing::root_expression;

ir::Module simplify(const std::string& body, bool expect_change) {
  return testing::run_golden("tuple-simplifier", "HloModule m\n\n" + body, expect_change);
}

const std::string kThreeParams =
    " param0 = f32[] parameter(0)\n param1 = f32[] parameter(1)\n param2 = f32[] parameter(2)\n";

TEST(TupleSimplifierXla, TupleOfParameters) {
  simplify("ENTRY e {\n" + kThreeParams + " ROOT t = (f32[], f32[], f32[]) tuple(param0, param1, param2)\n}\n", false);
}

TEST(TupleSimplifierXla, GteOfTupleOfParameter) {
  simplify("ENTRY e {\n param = (f32[], f32[], f32[]) parameter(0)\n ROOT g = f32[] get-tuple-element(param), index=1\n}\n",
           false);
}

TEST(TupleSimplifierXla, GteOfTuple) {
  const ir::Module m = simplify("ENTRY e {\n" + kThreeParams +
                                    " t = (f32[], f32[], f32[]) tuple(param0, param1, param2)\n"
                                    " ROOT g = f32[] get-tuple-element(t), index=1\n}\n",
                                true);
  EXPECT_EQ(root_expression(m), "parameter(1)");
}

TEST(TupleSimplifierXla, GteOfTupleChain) {
  std::string body = "ENTRY e {\n e0 = f32[] parameter(0)\n";
  for (int i = 0; i < 10; ++i) {
    const std::string prev = "e" + std::to_string(i), next = "e" + std::to_string(i + 1);
    body += " t" + std::to_string(i) + " = (f32[], f32[], f32[]) tuple(" + prev + ", " + prev + ", " + prev + ")\n " +
            next + " = f32[] get-tuple-element(t" + std::to_string(i) + "), index=1\n";
  }
  const ir::Module m = simplify(body + " ROOT n = f32[] negate(e10)\n}\n", true);
  EXPECT_EQ(root_expression(m), "negate(parameter(0))");
}

TEST(TupleSimplifierXla, NestedGteOfTuples) {
  std::string body = "ENTRY e {\n t0 = f32[] parameter(0)\n";
  std::string shape = "f32[]";
  std::vector<std::string> shapes{shape};
  for (int i = 0; i < 5; ++i) {
    shape = "(" + shape + ", " + shape + ")";
    shapes.push_back(shape);
    body += " t" + std::to_string(i + 1) + " = " + shape + " tuple(t" + std::to_string(i) + ", t" + std::to_string(i) + ")\n";
  }
  std::string element = "t5";
  for (int i = 0; i < 5; ++i) {
    const std::string next = "g" + std::to_string(i);
    body += (i == 4 ? " ROOT " : " ") + next + " = " + shapes[static_cast<size_t>(4 - i)] + " get-tuple-element(" +
            element + "), index=0\n";
    element = next;
  }
  const ir::Module m = simplify(body + "}\n", true);
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

TEST(TupleSimplifierXla, TupleOfGteInstructions) {
  const ir::Module m = simplify(
      "ENTRY e {\n param = (f32[], f32[], f32[]) parameter(0)\n gte0 = f32[] get-tuple-element(param), index=0\n"
      " gte1 = f32[] get-tuple-element(param), index=1\n gte2 = f32[] get-tuple-element(param), index=2\n"
      " ROOT t = (f32[], f32[], f32[]) tuple(gte0, gte1, gte2)\n}\n",
      true);
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

TEST(TupleSimplifierXla, IncompatibleTuples) {
  simplify("ENTRY e {\n param = (f32[], f32[], f32[]) parameter(0)\n gte0 = f32[] get-tuple-element(param), index=0\n"
           " gte1 = f32[] get-tuple-element(param), index=1\n ROOT t = (f32[], f32[]) tuple(gte0, gte1)\n}\n",
           false);
}

// XLA's exclude_entry option keeps the entry as it is; XLA's CPU pipeline does not use it
// and hlsgym has no such option (listed): the entry is simplified too.
TEST(TupleSimplifierXla, CanExcludeEntryComputation) {
  EXPECT_FALSE(testing::deliberate_difference("tuple-simplifier", "CanExcludeEntryComputation").empty());
  const std::string callee =
      " param = (f32[], f32[], f32[]) parameter(0)\n gte0 = f32[] get-tuple-element(param), index=0\n"
      " gte1 = f32[] get-tuple-element(param), index=1\n gte2 = f32[] get-tuple-element(param), index=2\n"
      " ROOT t = (f32[], f32[], f32[]) tuple(gte0, gte1, gte2)\n}\n";
  const ir::Module m = simplify(
      "c0 {\n" + callee + "c1 {\n" + callee +
          "ENTRY e {\n param = (f32[], f32[], f32[]) parameter(0)\n"
          " call0 = (f32[], f32[], f32[]) call(param), to_apply=c0\n call1 = (f32[], f32[], f32[]) call(param), to_apply=c1\n"
          " gte0 = f32[] get-tuple-element(call0), index=0\n gte1 = f32[] get-tuple-element(call1), index=1\n"
          " tuple0 = (f32[], f32[]) tuple(gte0, gte1)\n gte2 = f32[] get-tuple-element(tuple0), index=0\n"
          " gte3 = f32[] get-tuple-element(tuple0), index=1\n ROOT r = (f32[], f32[]) tuple(gte2, gte3)\n}\n",
      true);
  for (const char* name : {"c0", "c1"}) {
    const ir::Computation& c = m.computation(m.find_computation(name));
    EXPECT_EQ(c.root, c.params[0]) << name;
  }
  EXPECT_EQ(root_expression(m), "tuple(get-tuple-element(call(parameter(0))), get-tuple-element(call(parameter(0))))");
}

TEST(TupleSimplifierXla, ShardingLoss) {
  simplify("ENTRY test {\n p0 = s32[10] parameter(0), sharding={devices=[2]0,1}\n t = (s32[10]) tuple(p0)\n"
           " ROOT gte = s32[10] get-tuple-element(t), index=0, sharding={replicated}\n}\n",
           false);
}

}  // namespace
}  // namespace hlsgym::passes
