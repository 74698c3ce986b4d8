// XLA's HLO evaluator file (xla/hlo/evaluator/hlo_evaluator_test.cc at openxla/xla
// 001918b7024cf5f020051a9d25d2dd57a5896aaa) ends with PatternMatchParseWhileLoopTest: each
// case states the trip count of a while loop that accumulates a parameter (XLA's loop
// pattern matcher must find it). hlsgym has no such matcher; what it must agree on is the
// loop's value, so each case here evaluates XLA's module, its f32[1024,1024] state shrunk
// to f32[2,2], and expects the parameter times the trip count XLA states. Counted in
// tests/ir/xla_cases/PORTED.md.
#include <gtest/gtest.h>

#include "tests/support/eval_case.h"

namespace hlsgym::testing {
namespace {

const char* const kParam = "f32[2,2] {{1, 2}, {3, 4}}";

// `param` (f32[2,2] {{1,2},{3,4}}) times k.
ir::Literal times(int k) {
  return literal("f32[2,2] {{" + std::to_string(k) + ", " + std::to_string(2 * k) + "}, {" + std::to_string(3 * k) + ", " +
                 std::to_string(4 * k) + "}}");
}

// The two-counter loop (i, bound, x, acc) of most cases: acc += x while i < bound, i += step.
std::string counted_loop(const std::string& condition_computations, const std::string& condition, const std::string& step,
                         const std::string& entry) {
  return "HloModule accumulated_all_reduce\n\n" + condition_computations +
         "%while_condition {\n  %param = (s32[], s32[], f32[2,2], f32[2,2]) parameter(0)\n" + condition +
         "}\n\n"
         "%while_body {\n  %param = (s32[], s32[], f32[2,2], f32[2,2]) parameter(0)\n"
         "  %gte.0 = s32[] get-tuple-element(%param), index=0\n  %gte.1 = s32[] get-tuple-element(%param), index=1\n"
         "  %gte.2 = f32[2,2] get-tuple-element(%param), index=2\n  %gte.3 = f32[2,2] get-tuple-element(%param), index=3\n"
         "  %accumulation = f32[2,2] add(%gte.2, %gte.3)\n  %constant = s32[] constant(" + step + ")\n"
         "  %increment_iteration = s32[] add(%gte.0, %constant)\n"
         "  ROOT %loop_result = (s32[], s32[], f32[2,2], f32[2,2]) tuple(%increment_iteration, %gte.1, %gte.2, %accumulation)\n"
         "}\n\nENTRY accumulated_all_reduce {\n  %param.1 = f32[2,2] parameter(0)\n  %constant.0 = s32[] constant(0)\n"
         "  %accumulation_buffer_init = f32[] constant(0)\n"
         "  %accumulation_buffer = f32[2,2] broadcast(%accumulation_buffer_init), dimensions={}\n" + entry +
         "  %while = (s32[], s32[], f32[2,2], f32[2,2]) while(%while_init), condition=%while_condition, body=%while_body\n"
         "  ROOT %result = f32[2,2] get-tuple-element(%while), index=3\n}\n";
}

const char* const kCompareCounters =
    "  %gte.0 = s32[] get-tuple-element(%param), index=0\n  %gte.1 = s32[] get-tuple-element(%param), index=1\n"
    "  ROOT result = pred[] compare(%gte.0, %gte.1), direction=LT\n";
const char* const kInitWithBound =
    "  %while_init = (s32[], s32[], f32[2,2], f32[2,2]) tuple(%constant.0, %loop_bound, %param.1, %accumulation_buffer)\n";
const char* const kComputePred =
    "%compute_pred {\n  %param = (s32[], s32[], f32[2,2], f32[2,2]) parameter(0)\n"
    "  %gte.0 = s32[] get-tuple-element(%param), index=0\n  %gte.1 = s32[] get-tuple-element(%param), index=1\n"
    "  %compare = pred[] compare(%gte.0, %gte.1), direction=LT\n  ROOT %tuple = (pred[]) tuple(%compare)\n}\n\n";

// The single-counter loop (i, x, acc) with its bound 5 inside the condition; `copy` wraps
// the condition's compare in copies (CopiedLoopCond).
std::string bound_in_condition(bool copy) {
  const std::string condition = copy ? "  %copy.0 = s32[] copy(%gte.0)\n  %result = pred[] compare(%gte.0, %loop_bound), direction=LT\n"
                                       "  ROOT %copy.1 = pred[] copy(%result)\n"
                                     : "  ROOT result = pred[] compare(%gte.0, %loop_bound), direction=LT\n";
  return "HloModule accumulated_all_reduce\n\n%while_condition {\n  %param = (s32[], f32[2,2], f32[2,2]) parameter(0)\n"
         "  %gte.0 = s32[] get-tuple-element(%param), index=0\n  %loop_bound = s32[] constant(5)\n" + condition +
         "}\n\n%while_body {\n  %param = (s32[], f32[2,2], f32[2,2]) parameter(0)\n"
         "  %gte.0 = s32[] get-tuple-element(%param), index=0\n  %gte.1 = f32[2,2] get-tuple-element(%param), index=1\n"
         "  %gte.2 = f32[2,2] get-tuple-element(%param), index=2\n  %accumulation = f32[2,2] add(%gte.1, %gte.2)\n"
         "  %constant = s32[] constant(1)\n  %increment_iteration = s32[] add(%gte.0, %constant)\n"
         "  ROOT %loop_result = (s32[], f32[2,2], f32[2,2]) tuple(%increment_iteration, %gte.1, %accumulation)\n}\n\n"
         "ENTRY accumulated_all_reduce {\n  %param.1 = f32[2,2] parameter(0)\n  %constant.0 = s32[] constant(0)\n"
         "  %accumulation_buffer_init = f32[] constant(0)\n"
         "  %accumulation_buffer = f32[2,2] broadcast(%accumulation_buffer_init), dimensions={}\n"
         "  %while_init = (s32[], f32[2,2], f32[2,2]) tuple(%constant.0, %param.1, %accumulation_buffer)\n"
         "  %while = (s32[], f32[2,2], f32[2,2]) while(%while_init), condition=%while_condition, body=%while_body\n"
         "  ROOT %result = f32[2,2] get-tuple-element(%while), index=2\n}\n";
}

TEST(EvaluateXlaWhile, LoopBoundDefinedInsideOfCond) {
  EXPECT_TRUE(same_literal(times(5), evaluate_text(bound_in_condition(false), {literal(kParam)})));
}

TEST(EvaluateXlaWhile, CopiedLoopCond) {
  EXPECT_TRUE(same_literal(times(5), evaluate_text(bound_in_condition(true), {literal(kParam)})));
}

TEST(EvaluateXlaWhile, LoopBoundDefinedOutsideOfCond) {
  const std::string m = counted_loop("", kCompareCounters, "1", std::string("  %loop_bound = s32[] constant(10)\n") + kInitWithBound);
  EXPECT_TRUE(same_literal(times(10), evaluate_text(m, {literal(kParam)})));
}

TEST(EvaluateXlaWhile, LoopBoundComputedOutsideOfCond) {
  const std::string m = counted_loop("", kCompareCounters, "1",
                                     std::string("  %constant.1 = s32[] constant(10)\n  %constant.2 = s32[] constant(4)\n"
                                                 "  %loop_bound = s32[] multiply(%constant.1, %constant.2)\n") +
                                         kInitWithBound);
  EXPECT_TRUE(same_literal(times(40), evaluate_text(m, {literal(kParam)})));
}

TEST(EvaluateXlaWhile, StepSizeNotOne) {
  const std::string m = counted_loop("", kCompareCounters, "4",
                                     std::string("  %constant.1 = s32[] constant(10)\n  %constant.2 = s32[] constant(4)\n"
                                                 "  %loop_bound = s32[] multiply(%constant.1, %constant.2)\n") +
                                         kInitWithBound);
  EXPECT_TRUE(same_literal(times(10), evaluate_text(m, {literal(kParam)})));
}

TEST(EvaluateXlaWhile, RecursiveCond) {
  const std::string m = counted_loop(kComputePred,
                                     "  %call = (pred[]) call(%param), to_apply=%compute_pred\n"
                                     "  ROOT %gte.4 = pred[] get-tuple-element(%call), index=0\n",
                                     "1", std::string("  %loop_bound = s32[] constant(10)\n") + kInitWithBound);
  EXPECT_TRUE(same_literal(times(10), evaluate_text(m, {literal(kParam)})));
}

TEST(EvaluateXlaWhile, RecursiveCondGetTupleElement) {
  const std::string m = counted_loop(std::string(kComputePred) +
                                         "%get_tuple_element {\n  %param = (s32[], s32[], f32[2,2], f32[2,2]) parameter(0)\n"
                                         "  %call = (pred[]) call(%param), to_apply=%compute_pred\n"
                                         "  %gte.4 = pred[] get-tuple-element(%call), index=0\n"
                                         "  ROOT %tuple.1 = (pred[]) tuple(%gte.4)\n}\n\n",
                                     "  %call = (pred[]) call(%param), to_apply=%get_tuple_element\n"
                                     "  ROOT %gte.4 = pred[] get-tuple-element(%call), index=0\n",
                                     "1", std::string("  %loop_bound = s32[] constant(10)\n") + kInitWithBound);
  EXPECT_TRUE(same_literal(times(10), evaluate_text(m, {literal(kParam)})));
}

// XLA's matcher calls the loop dynamic (its start is a parameter); given the start 7 it
// runs 3 times.
TEST(EvaluateXlaWhile, DynamicLoop) {
  std::string m = counted_loop("", kCompareCounters, "1",
                               "  %param.2 = s32[] parameter(1)\n  %loop_bound = s32[] constant(10)\n"
                               "  %while_init = (s32[], s32[], f32[2,2], f32[2,2]) tuple(%param.2, %loop_bound, %param.1, "
                               "%accumulation_buffer)\n");
  EXPECT_TRUE(same_literal(times(3), evaluate_text(m, {literal(kParam), literal("s32[] 7")})));
}

TEST(EvaluateXlaWhile, BooleanCond) {
  const std::string m =
      "HloModule accumulated_all_reduce\n\n%while_condition {\n  %param = (pred[], f32[2,2], f32[2,2]) parameter(0)\n"
      "  ROOT %gte.0 = pred[] get-tuple-element(%param), index=0\n}\n\n"
      "%while_body {\n  %param = (pred[], f32[2,2], f32[2,2]) parameter(0)\n"
      "  %gte.1 = f32[2,2] get-tuple-element(%param), index=1\n  %gte.2 = f32[2,2] get-tuple-element(%param), index=2\n"
      "  %accumulation = f32[2,2] add(%gte.1, %gte.2)\n  %new_loop_cond = pred[] constant(false)\n"
      "  ROOT %loop_result = (pred[], f32[2,2], f32[2,2]) tuple(%new_loop_cond, %gte.1, %accumulation)\n}\n\n"
      "ENTRY accumulated_all_reduce {\n  %param.1 = f32[2,2] parameter(0)\n  %constant.0 = pred[] constant(true)\n"
      "  %accumulation_buffer_init = f32[] constant(0)\n"
      "  %accumulation_buffer = f32[2,2] broadcast(%accumulation_buffer_init), dimensions={}\n"
      "  %while_init = (pred[], f32[2,2], f32[2,2]) tuple(%constant.0, %param.1, %accumulation_buffer)\n"
      "  %while = (pred[], f32[2,2], f32[2,2]) while(%while_init), condition=%while_condition, body=%while_body\n"
      "  ROOT %result = f32[2,2] get-tuple-element(%while), index=2\n}\n";
  EXPECT_TRUE(same_literal(times(1), evaluate_text(m, {literal(kParam)})));
}

// Two loops in sequence, the second's bound the first's final counter (10): 10 x + 10 y.
TEST(EvaluateXlaWhile, LoopBoundDependsOnAnotherLoop) {
  std::string m = counted_loop(kComputePred,
                               "  %call = (pred[]) call(%param), to_apply=%compute_pred\n"
                               "  ROOT %gte.4 = pred[] get-tuple-element(%call), index=0\n",
                               "1",
                               "  %param.2 = f32[2,2] parameter(1)\n  %loop_bound = s32[] constant(10)\n"
                               "  %while_init.0 = (s32[], s32[], f32[2,2], f32[2,2]) tuple(%constant.0, %loop_bound, %param.1, "
                               "%accumulation_buffer)\n"
                               "  %while.0 = (s32[], s32[], f32[2,2], f32[2,2]) while(%while_init.0), condition=%while_condition, "
                               "body=%while_body\n"
                               "  %result.0 = f32[2,2] get-tuple-element(%while.0), index=3\n"
                               "  %new_loop_bound = s32[] get-tuple-element(%while.0), index=0\n"
                               "  %while_init = (s32[], s32[], f32[2,2], f32[2,2]) tuple(%constant.0, %new_loop_bound, %param.2, "
                               "%result.0)\n");
  EXPECT_TRUE(same_literal(literal("f32[2,2] {{20, 30}, {40, 50}}"),
                           evaluate_text(m, {literal(kParam), literal("f32[2,2] {{1, 1}, {1, 1}}")})));
}

// The outer bound is param.2 * 4 (8 for param.2 = 2), the inner one 5 * 4 = 20; the inner
// loop adds x 20 times per outer iteration: 160 x.
TEST(EvaluateXlaWhile, NestedLoop) {
  const std::string m =
      "HloModule accumulated_all_reduce\n\n"
      "%nested_while_condition {\n  %param = (s32[], s32[], f32[2,2], f32[2,2]) parameter(0)\n" +
      std::string(kCompareCounters) +
      "}\n\n%nested_while_body {\n  %param = (s32[], s32[], f32[2,2], f32[2,2]) parameter(0)\n"
      "  %gte.0 = s32[] get-tuple-element(%param), index=0\n  %gte.1 = s32[] get-tuple-element(%param), index=1\n"
      "  %gte.2 = f32[2,2] get-tuple-element(%param), index=2\n  %gte.3 = f32[2,2] get-tuple-element(%param), index=3\n"
      "  %accumulation = f32[2,2] add(%gte.2, %gte.3)\n  %constant = s32[] constant(1)\n"
      "  %increment_iteration = s32[] add(%gte.0, %constant)\n"
      "  ROOT %loop_result = (s32[], s32[], f32[2,2], f32[2,2]) tuple(%increment_iteration, %gte.1, %gte.2, %accumulation)\n}\n\n"
      "%while_condition {\n  %param = (s32[], s32[], s32[], f32[2,2], f32[2,2]) parameter(0)\n" + kCompareCounters +
      "}\n\n%while_body {\n  %param = (s32[], s32[], s32[], f32[2,2], f32[2,2]) parameter(0)\n"
      "  %gte.0 = s32[] get-tuple-element(%param), index=0\n  %gte.1 = s32[] get-tuple-element(%param), index=1\n"
      "  %gte.2 = s32[] get-tuple-element(%param), index=2\n  %gte.3 = f32[2,2] get-tuple-element(%param), index=3\n"
      "  %gte.4 = f32[2,2] get-tuple-element(%param), index=4\n  %constant.4 = s32[] constant(0)\n"
      "  %nested_while_init = (s32[], s32[], f32[2,2], f32[2,2]) tuple(%constant.4, %gte.2, %gte.3, %gte.4)\n"
      "  %nested_while = (s32[], s32[], f32[2,2], f32[2,2]) while(%nested_while_init), condition=%nested_while_condition, "
      "body=%nested_while_body\n"
      "  %nested_while_result = f32[2,2] get-tuple-element(%nested_while), index=3\n  %constant = s32[] constant(1)\n"
      "  %increment_iteration = s32[] add(%gte.0, %constant)\n"
      "  ROOT %loop_result = (s32[], s32[], s32[], f32[2,2], f32[2,2]) tuple(%increment_iteration, %gte.1, %gte.2, %gte.3, "
      "%nested_while_result)\n}\n\n"
      "ENTRY accumulated_all_reduce {\n  %param.1 = f32[2,2] parameter(0)\n  %param.2 = s32[] parameter(1)\n"
      "  %constant.0 = s32[] constant(0)\n  %constant.2 = s32[] constant(4)\n"
      "  %loop_bound = s32[] multiply(%param.2, %constant.2)\n  %constant.3 = s32[] constant(5)\n"
      "  %nested_loop_bound = s32[] multiply(%constant.3, %constant.2)\n  %accumulation_buffer_init = f32[] constant(0)\n"
      "  %accumulation_buffer = f32[2,2] broadcast(%accumulation_buffer_init), dimensions={}\n"
      "  %while_init = (s32[], s32[], s32[], f32[2,2], f32[2,2]) tuple(%constant.0, %loop_bound, %nested_loop_bound, %param.1, "
      "%accumulation_buffer)\n"
      "  %while = (s32[], s32[], s32[], f32[2,2], f32[2,2]) while(%while_init), condition=%while_condition, body=%while_body\n"
      "  ROOT %result = f32[2,2] get-tuple-element(%while), index=4\n}\n";
  EXPECT_TRUE(same_literal(times(160), evaluate_text(m, {literal(kParam), literal("s32[] 2")})));
}

}  // namespace
}  // namespace hlsgym::testing
