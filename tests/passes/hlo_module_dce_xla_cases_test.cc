// hlo-module-dce: every case of XLA's hlo_module_dce_test.cc (openxla/xla
// xla/service/hlo_module_dce_test.cc at 16569562fc04a1d1eadcd6a79f2269c1ccf4c421), each
// written as a golden test: HLO in; "changed", which loop bodies pass an element
// through, and how many elements each loop of the entry keeps, out; the interpreter
// agreeing where the module has no side effect.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

enum class Values { kCompare, kSkip };  // kSkip: rng or outfeed in the loop

ir::Module module_dce(const std::string& module, bool expect_change, Values values = Values::kCompare) {
  return testing::run_golden("hlo-module-dce", module, expect_change, values == Values::kCompare);
}

// XLA's WhileBodyHasPassThroughTupleElement: the body of the entry's while named `name`
// returns element k of its parameter as element k (false if there is no such loop).
bool passes_through(const ir::Module& m, const std::string& name, size_t k) {
  for (InstrId w : m.instructions(m.entry())) {
    if (m.opcode(w) != Opcode::kWhile || m.name(w) != name) continue;
    const ir::Computation& body = m.computation(m.called(w)[1]);
    if (m.opcode(body.root) != Opcode::kTuple) return false;
    const InstrId out = m.operand(body.root, k);
    return m.opcode(out) == Opcode::kGetTupleElement && m.attrs(out).tuple_index == static_cast<int64_t>(k) &&
           m.operand(out, 0) == body.params[0];
  }
  return false;
}

// The number of state elements of each while loop of the entry.
std::vector<size_t> loop_sizes(const ir::Module& m) {
  std::vector<size_t> sizes;
  for (InstrId w : m.instructions(m.entry()))
    if (m.opcode(w) == Opcode::kWhile) sizes.push_back(m.shape(w).tuple_elements().size());
  return sizes;
}

// XLA's SimpleLoop.body<suffix> / SimpleLoop.condition<suffix>: counts element 0 up to 5,
// squaring element 1 on the way.
std::string add_multiply_loop(const std::string& suffix) {
  return "SimpleLoop.body" + suffix + " {\n loop_var.1 = (s32[], s32[3]{0}) parameter(0)\n"
         " get-tuple-element.1 = s32[] get-tuple-element(loop_var.1), index=0\n constant.1 = s32[] constant(1)\n"
         " add = s32[] add(get-tuple-element.1, constant.1)\n"
         " get-tuple-element.2 = s32[3]{0} get-tuple-element(loop_var.1), index=1\n"
         " multiply = s32[3]{0} multiply(get-tuple-element.2, get-tuple-element.2)\n"
         " ROOT tuple = (s32[], s32[3]{0}) tuple(add, multiply)\n}\n"
         "SimpleLoop.condition" + suffix + " {\n loop_var.2 = (s32[], s32[3]{0}) parameter(0)\n"
         " get-tuple-element.3 = s32[] get-tuple-element(loop_var.2), index=0\n constant.2 = s32[] constant(5)\n"
         " ROOT less-than = pred[] compare(get-tuple-element.3, constant.2), direction=LT\n}\n";
}
const std::string kBodyAddMultiply = add_multiply_loop("");

const std::string kLoopOverConstants =
    " constant.3 = s32[] constant(0)\n constant.4 = s32[3]{0} constant({0, 1, 2})\n"
    " tuple.1 = (s32[], s32[3]{0}) tuple(constant.3, constant.4)\n"
    " while = (s32[], s32[3]{0}) while(tuple.1), condition=SimpleLoop.condition, body=SimpleLoop.body\n";

TEST(HloModuleDceXla, WhileWithLiveOutputs) {
  const ir::Module m = module_dce("HloModule SimpleLoop\n" + kBodyAddMultiply + "ENTRY SimpleLoop {\n" +
                                      " constant.3 = s32[] constant(0)\n constant.4 = s32[3]{0} constant({0, 1, 2})\n"
                                      " tuple.1 = (s32[], s32[3]{0}) tuple(constant.3, constant.4)\n"
                                      " ROOT while = (s32[], s32[3]{0}) while(tuple.1), condition=SimpleLoop.condition,"
                                      " body=SimpleLoop.body\n}\n",
                                  false);
  EXPECT_FALSE(passes_through(m, "while", 0));
  EXPECT_FALSE(passes_through(m, "while", 1));
}

TEST(HloModuleDceXla, WhileWithUnusedSideEffectingTupleElement) {
  const ir::Module m = module_dce(
      "HloModule SimpleLoop\n"
      "SimpleLoop.body {\n loop_var.1 = (s32[], f32[]) parameter(0)\n"
      " get-tuple-element.1 = s32[] get-tuple-element(loop_var.1), index=0\n constant.1 = s32[] constant(1)\n"
      " add = s32[] add(get-tuple-element.1, constant.1)\n get-tuple-element.2 = f32[] get-tuple-element(loop_var.1), index=1\n"
      " constant.2 = f32[] constant(1.0)\n rng = f32[] rng(constant.2, get-tuple-element.2), distribution=rng_uniform\n"
      " add.1 = f32[] add(get-tuple-element.2, constant.2)\n ROOT tuple = (s32[], f32[]) tuple(add, add.1)\n}\n"
      "SimpleLoop.condition {\n loop_var.2 = (s32[], f32[]) parameter(0)\n"
      " get-tuple-element.3 = s32[] get-tuple-element(loop_var.2), index=0\n constant.3 = s32[] constant(5)\n"
      " ROOT less-than = pred[] compare(get-tuple-element.3, constant.3), direction=LT\n}\n"
      "ENTRY SimpleLoop {\n constant.4 = s32[] constant(0)\n constant.5 = f32[] constant(0.0)\n"
      " tuple.1 = (s32[], f32[]) tuple(constant.4, constant.5)\n"
      " while = (s32[], f32[]) while(tuple.1), condition=SimpleLoop.condition, body=SimpleLoop.body\n"
      " ROOT get-tuple-element.4 = s32[] get-tuple-element(while), index=0\n}\n",
      false, Values::kSkip);
  EXPECT_FALSE(passes_through(m, "while", 0));
  EXPECT_FALSE(passes_through(m, "while", 1));
}

TEST(HloModuleDceXla, OneWhileWithDeadTupleElement) {
  const ir::Module m =
      module_dce("HloModule SimpleLoop\n" + kBodyAddMultiply + "ENTRY SimpleLoop {\n" + kLoopOverConstants +
                     " ROOT get-tuple-element.4 = s32[] get-tuple-element(while), index=0\n}\n",
                 true);
  EXPECT_FALSE(passes_through(m, "while", 0));
  EXPECT_EQ(loop_sizes(m), std::vector<size_t>{1});
}

// Element 1 is dead after the loop and in the body's result, but the condition reads it.
TEST(HloModuleDceXla, OneWhileWithTupleElementUsedByCond) {
  const ir::Module m = module_dce(
      "HloModule SimpleLoop\n"
      "SimpleLoop.body {\n loop_var.1 = (s32[], s32[]) parameter(0)\n"
      " get-tuple-element.1 = s32[] get-tuple-element(loop_var.1), index=0\n constant.1 = s32[] constant(1)\n"
      " add = s32[] add(get-tuple-element.1, constant.1)\n get-tuple-element.2 = s32[] get-tuple-element(loop_var.1), index=1\n"
      " multiply = s32[] multiply(get-tuple-element.2, get-tuple-element.2)\n ROOT tuple = (s32[], s32[]) tuple(add, multiply)\n}\n"
      "SimpleLoop.condition {\n loop_var.2 = (s32[], s32[]) parameter(0)\n"
      " get-tuple-element.3 = s32[] get-tuple-element(loop_var.2), index=1\n constant.2 = s32[] constant(5)\n"
      " ROOT less-than = pred[] compare(get-tuple-element.3, constant.2), direction=LT\n}\n"
      "ENTRY SimpleLoop {\n constant.3 = s32[] constant(0)\n constant.4 = s32[] constant(0)\n"
      " tuple.1 = (s32[], s32[]) tuple(constant.3, constant.4)\n"
      " while = (s32[], s32[]) while(tuple.1), condition=SimpleLoop.condition, body=SimpleLoop.body\n"
      " ROOT get-tuple-element.4 = s32[] get-tuple-element(while), index=0\n}\n",
      false, Values::kSkip);  // 0 * 0 stays below 5: the loop never ends
  EXPECT_FALSE(passes_through(m, "while", 0));
  EXPECT_FALSE(passes_through(m, "while", 1));
}

const std::string kTwoBodies =
    "SimpleLoop.body1 {\n loop_var.3 = (s32[], s32[3]{0}) parameter(0)\n"
    " get-tuple-element.4 = s32[] get-tuple-element(loop_var.3), index=0\n constant.3 = s32[] constant(1)\n"
    " add.1 = s32[] add(get-tuple-element.4, constant.3)\n"
    " get-tuple-element.5 = s32[3]{0} get-tuple-element(loop_var.3), index=1\n"
    " multiply.1 = s32[3]{0} multiply(get-tuple-element.5, get-tuple-element.5)\n"
    " ROOT tuple.1 = (s32[], s32[3]{0}) tuple(add.1, multiply.1)\n}\n"
    "SimpleLoop.condition1 {\n loop_var.4 = (s32[], s32[3]{0}) parameter(0)\n"
    " get-tuple-element.6 = s32[] get-tuple-element(loop_var.4), index=0\n constant.4 = s32[] constant(10)\n"
    " ROOT less-than.1 = pred[] compare(get-tuple-element.6, constant.4), direction=LT\n}\n";

TEST(HloModuleDceXla, TwoWhilesWithDeadTupleElement) {
  const ir::Module m = module_dce(
      "HloModule SimpleLoop\n" + add_multiply_loop("0") + kTwoBodies +
          "ENTRY SimpleLoop {\n constant.5 = s32[] constant(0)\n constant.6 = s32[3]{0} constant({0, 1, 2})\n"
          " tuple.2 = (s32[], s32[3]{0}) tuple(constant.5, constant.6)\n"
          " while.1 = (s32[], s32[3]{0}) while(tuple.2), condition=SimpleLoop.condition0, body=SimpleLoop.body0\n"
          " get-tuple-element.7 = s32[] get-tuple-element(while.1), index=0\n"
          " tuple.3 = (s32[], s32[3]{0}) tuple(get-tuple-element.7, constant.6)\n"
          " while.2 = (s32[], s32[3]{0}) while(tuple.3), condition=SimpleLoop.condition1, body=SimpleLoop.body1\n"
          " ROOT get-tuple-element.8 = s32[] get-tuple-element(while.2), index=0\n}\n",
      true);
  EXPECT_FALSE(passes_through(m, "while.1", 0));
  EXPECT_FALSE(passes_through(m, "while.2", 0));
  EXPECT_EQ(loop_sizes(m), (std::vector<size_t>{1, 1}));
}

TEST(HloModuleDceXla, TwoWhilesWithDeadTupleElementSwizzled) {
  const ir::Module m = module_dce(
      "HloModule SimpleLoop\n"
      "SimpleLoop.body0 {\n loop_var.1 = (s32[3]{0}, s32[]) parameter(0)\n"
      " get-tuple-element.1 = s32[] get-tuple-element(loop_var.1), index=1\n constant.1 = s32[] constant(1)\n"
      " add = s32[] add(get-tuple-element.1, constant.1)\n"
      " get-tuple-element.2 = s32[3]{0} get-tuple-element(loop_var.1), index=0\n"
      " multiply = s32[3]{0} multiply(get-tuple-element.2, get-tuple-element.2)\n"
      " ROOT tuple = (s32[3]{0}, s32[]) tuple(multiply, add)\n}\n"
      "SimpleLoop.condition0 {\n loop_var.2 = (s32[3]{0}, s32[]) parameter(0)\n"
      " get-tuple-element.3 = s32[] get-tuple-element(loop_var.2), index=1\n constant.2 = s32[] constant(5)\n"
      " ROOT less-than = pred[] compare(get-tuple-element.3, constant.2), direction=LT\n}\n" +
          kTwoBodies +
          "ENTRY SimpleLoop {\n constant.5 = s32[] constant(0)\n constant.6 = s32[3]{0} constant({0, 1, 2})\n"
          " tuple.2 = (s32[3]{0}, s32[]) tuple(constant.6, constant.5)\n"
          " while.1 = (s32[3]{0}, s32[]) while(tuple.2), condition=SimpleLoop.condition0, body=SimpleLoop.body0\n"
          " get-tuple-element.7 = s32[] get-tuple-element(while.1), index=1\n"
          " tuple.3 = (s32[], s32[3]{0}) tuple(get-tuple-element.7, constant.6)\n"
          " while.2 = (s32[], s32[3]{0}) while(tuple.3), condition=SimpleLoop.condition1, body=SimpleLoop.body1\n"
          " ROOT get-tuple-element.8 = s32[] get-tuple-element(while.2), index=0\n}\n",
      true);
  EXPECT_FALSE(passes_through(m, "while.1", 1));
  EXPECT_FALSE(passes_through(m, "while.2", 0));
  EXPECT_EQ(loop_sizes(m), (std::vector<size_t>{1, 1}));
}

TEST(HloModuleDceXla, WhileWithOutfeed) {
  const ir::Module m = module_dce(
      "HloModule OutfeedLoop\n"
      "WhileBody {\n body_param = (s32[]) parameter(0)\n token0 = token[] after-all()\n constant.2 = s32[] constant(2)\n"
      " outfeed_tuple = (s32[]) outfeed(constant.2, token0)\n"
      " get-tuple-element.1 = s32[] get-tuple-element(body_param), index=0\n constant.1 = s32[] constant(1)\n"
      " add = s32[] add(get-tuple-element.1, constant.1)\n ROOT tuple = (s32[]) tuple(add)\n}\n"
      "WhileCondition {\n cond_param = (s32[]) parameter(0)\n"
      " get-tuple-element.3 = s32[] get-tuple-element(cond_param), index=0\n constant.2 = s32[] constant(10)\n"
      " ROOT less-than = pred[] compare(get-tuple-element.3, constant.2), direction=LT\n}\n"
      "ENTRY SimpleLoop {\n constant.3 = s32[] constant(0)\n tuple.1 = (s32[]) tuple(constant.3)\n"
      " while = (s32[]) while(tuple.1), condition=WhileCondition, body=WhileBody\n ROOT rtuple = () tuple()\n}\n",
      false, Values::kSkip);
  EXPECT_FALSE(passes_through(m, "while", 0));
}

TEST(HloModuleDceXla, WhileWithOnlyLoopVariableBumping) {
  const ir::Module m = module_dce(
      "HloModule InfiniteLoop\n"
      "WhileBody {\n body_param = (s32[], s32[]) parameter(0)\n"
      " get-tuple-element.1 = s32[] get-tuple-element(body_param), index=0\n"
      " get-tuple-element.2 = s32[] get-tuple-element(body_param), index=1\n constant.1 = s32[] constant(1)\n"
      " add = s32[] add(get-tuple-element.1, constant.1)\n ROOT tuple = (s32[], s32[]) tuple(add, get-tuple-element.2)\n}\n"
      "WhileCondition {\n cond_param = (s32[], s32[]) parameter(0)\n"
      " get-tuple-element.3 = s32[] get-tuple-element(cond_param), index=0\n constant.2 = s32[] constant(10)\n"
      " ROOT less-than = pred[] compare(get-tuple-element.3, constant.2), direction=LT\n}\n"
      "ENTRY SimpleLoop {\n p0 = (s32[]) parameter(0)\n get-tuple-element.5 = s32[] get-tuple-element(p0), index=0\n"
      " constant.3 = s32[] constant(0)\n tuple.1 = (s32[], s32[]) tuple(constant.3, get-tuple-element.5)\n"
      " while = (s32[], s32[]) while(tuple.1), condition=WhileCondition, body=WhileBody\n"
      " ROOT get-tuple-element.4 = s32[] get-tuple-element(while), index=1\n}\n",
      true);
  EXPECT_FALSE(passes_through(m, "while", 0));
}

TEST(HloModuleDceXla, TwoWhilesWithDeadWhileLoop) {
  const ir::Module m = module_dce(
      "HloModule TwoWhilesWithDeadWhileLoop\n"
      "SimpleLoop.body0 {\n loop_var.1 = (s32[], s32[3]{0}) parameter(0)\n"
      " get-tuple-element.1 = s32[] get-tuple-element(loop_var.1), index=0\n constant.1 = s32[] constant(1)\n"
      " add = s32[] add(get-tuple-element.1, constant.1)\n"
      " get-tuple-element.2 = s32[3]{0} get-tuple-element(loop_var.1), index=1\n"
      " ROOT tuple = (s32[], s32[3]{0}) tuple(add, get-tuple-element.2)\n}\n"
      "SimpleLoop.condition0 {\n loop_var.2 = (s32[], s32[3]{0}) parameter(0)\n"
      " get-tuple-element.3 = s32[] get-tuple-element(loop_var.2), index=0\n constant.2 = s32[] constant(5)\n"
      " ROOT less-than = pred[] compare(get-tuple-element.3, constant.2), direction=LT\n}\n"
      "SimpleLoop.body1 {\n loop_var.3 = (s32[], s32[3]{0}) parameter(0)\n"
      " get-tuple-element.4 = s32[] get-tuple-element(loop_var.3), index=0\n constant.3 = s32[] constant(1)\n"
      " add.1 = s32[] add(get-tuple-element.4, constant.3)\n"
      " get-tuple-element.5 = s32[3]{0} get-tuple-element(loop_var.3), index=1\n"
      " ROOT tuple.1 = (s32[], s32[3]{0}) tuple(add.1, get-tuple-element.5)\n}\n"
      "SimpleLoop.condition1 {\n loop_var.4 = (s32[], s32[3]{0}) parameter(0)\n"
      " get-tuple-element.6 = s32[] get-tuple-element(loop_var.4), index=0\n constant.4 = s32[] constant(5)\n"
      " ROOT less-than.1 = pred[] compare(get-tuple-element.6, constant.4), direction=LT\n}\n"
      "ENTRY SimpleLoop {\n constant.5 = s32[] constant(0)\n constant.6 = s32[3]{0} constant({0, 1, 2})\n"
      " tuple.2 = (s32[], s32[3]{0}) tuple(constant.5, constant.6)\n"
      " while.1 = (s32[], s32[3]{0}) while(tuple.2), condition=SimpleLoop.condition0, body=SimpleLoop.body0\n"
      " get-tuple-element.7 = s32[3]{0} get-tuple-element(while.1), index=1\n constant.7 = s32[] constant(0)\n"
      " tuple.3 = (s32[], s32[3]{0}) tuple(constant.7, get-tuple-element.7)\n"
      " while.2 = (s32[], s32[3]{0}) while(tuple.3), condition=SimpleLoop.condition1, body=SimpleLoop.body1\n"
      " ROOT get-tuple-element.8 = s32[] get-tuple-element(while.2), index=0\n}\n",
      true);
  EXPECT_FALSE(passes_through(m, "while.2", 0));
  EXPECT_EQ(loop_sizes(m), std::vector<size_t>{1});
}

}  // namespace
}  // namespace hlsgym::passes
