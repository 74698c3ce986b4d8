// flatten-call-graph: every case of XLA's flatten_call_graph_test.cc (openxla/xla
// xla/service/flatten_call_graph_test.cc at 16569562fc04a1d1eadcd6a79f2269c1ccf4c421),
// each written as a golden test: HLO in (XLA builds them with the C++ API); the number of
// computations and of call sites per computation out; the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"

namespace hlsgym::passes {
namespace {

ir::Module flatten(const std::string& module) {
  return testing::run_golden("flatten-call-graph", module, /*expect_change=*/true);
}

// Instructions calling computation `name` (a while calling it as body and condition
// counts twice, as XLA's call sites do).
int call_sites(const ir::Module& m, const std::string& name) {
  const ir::CompId c = m.find_computation(name);
  EXPECT_NE(c, ir::kNoId) << name;
  int n = 0;
  for (ir::CompId caller : m.live_computations())
    for (ir::InstrId i : m.instructions(caller))
      for (ir::CompId callee : m.called(i)) n += callee == c;
  return n;
}

const std::string kScalar = "{\n param0 = f32[] parameter(0)\n ROOT negate = f32[] negate(param0)\n}\n";

TEST(FlattenCallGraphXla, ComplexGraph) {
  const ir::Module m = flatten(
      "HloModule ComplexGraph\n"
      "cond {\n param0 = f32[] parameter(0)\n zero = f32[] constant(0)\n"
      " ROOT gt = pred[] compare(param0, zero), direction=GT\n}\n"
      "c " + kScalar +
      "b {\n param0 = f32[] parameter(0)\n ROOT map = f32[] map(param0), dimensions={}, to_apply=c\n}\n"
      "a {\n param0 = f32[] parameter(0)\n call = f32[] call(param0), to_apply=c\n"
      " ROOT while = f32[] while(call), condition=cond, body=b\n}\n"
      "ENTRY entry {\n param0 = f32[] parameter(0)\n ROOT while = f32[] while(param0), condition=cond, body=a\n}\n");
  EXPECT_EQ(call_sites(m, "c"), 1);
}

TEST(FlattenCallGraphXla, SharedWhileConditionAndBody) {
  const ir::Module m = flatten(
      "HloModule SharedWhileConditionAndBody\n"
      "cond {\n param0 = pred[] parameter(0)\n false_constant = pred[] constant(false)\n"
      " ROOT eq = pred[] compare(param0, false_constant), direction=EQ\n}\n"
      "ENTRY entry {\n false_constant = pred[] constant(false)\n"
      " ROOT while = pred[] while(false_constant), condition=cond, body=cond\n}\n");
  EXPECT_EQ(call_sites(m, "cond"), 1);
}

TEST(FlattenCallGraphXla, FlattenCalls) {
  const ir::Module m = flatten(
      "HloModule FlattenCalls\n"
      "C " + kScalar +
      "B {\n param0 = f32[] parameter(0)\n call.0 = f32[] call(param0), to_apply=C\n"
      " ROOT call.1 = f32[] call(call.0), to_apply=C\n}\n"
      "ENTRY Entry {\n param0 = f32[] parameter(0)\n call.0 = f32[] call(param0), to_apply=B\n"
      " ROOT call.1 = f32[] call(call.0), to_apply=B\n}\n");
  EXPECT_EQ(m.live_computations().size(), 7u);
  EXPECT_EQ(call_sites(m, "C"), 1);
  EXPECT_EQ(call_sites(m, "B"), 1);
}

TEST(FlattenCallGraphXla, FlattenCallsInConditional) {
  const ir::Module m = flatten(
      "HloModule FlattenCallsInConditional\n"
      "sub " + kScalar +
      "ENTRY entry {\n pred = pred[] constant(true)\n constant1 = f32[] constant(56)\n constant2 = f32[] constant(12)\n"
      " ROOT conditional = f32[] conditional(pred, constant1, constant2), true_computation=sub, false_computation=sub\n}\n");
  EXPECT_EQ(m.live_computations().size(), 3u);
  EXPECT_EQ(call_sites(m, "sub"), 1);
}

// hlsgym reads async-start/-done as a call of the wrapped computation (XLA's async pair
// then shares its computation by construction): two calls of async_wrapped, each
// calling called_computation, become two copies of each.
TEST(FlattenCallGraphXla, AsyncCall) {
  const ir::Module m = flatten(
      "HloModule AsyncCall\n"
      "%called_computation (param_0: f32[4096], param_1: f32[4096]) -> f32[4096] {\n"
      "  %param_0 = f32[4096]{0} parameter(0)\n  %param_1 = f32[4096]{0} parameter(1)\n"
      "  ROOT %result.1 = f32[4096]{0} add(f32[4096]{0} %param_0, f32[4096]{0} %param_1)\n}\n"
      "%async_wrapped (async_param: f32[4096], async_param.1: f32[4096]) -> f32[4096] {\n"
      "  %async_param = f32[4096]{0} parameter(0)\n  %async_param.1 = f32[4096]{0} parameter(1)\n"
      "  ROOT %call = f32[4096]{0} call(f32[4096]{0} %async_param, f32[4096]{0} %async_param.1), to_apply=%called_computation\n}\n"
      "ENTRY %main (a: f32[4096], b: f32[4096]) -> f32[4096] {\n  %a = f32[4096]{0} parameter(0)\n  %b = f32[4096]{0} parameter(1)\n"
      "  %async-start.0 = ((f32[4096]{0}, f32[4096]{0}), f32[4096]{0}, u32[]) async-start(f32[4096]{0} %a, f32[4096]{0} %b),"
      " async_group_id=0, calls=%async_wrapped\n"
      "  %async-done.0 = f32[4096]{0} async-done(((f32[4096]{0}, f32[4096]{0}), f32[4096]{0}, u32[]) %async-start.0),"
      " async_group_id=0, calls=%async_wrapped\n"
      "  %async-start.1 = ((f32[4096]{0}, f32[4096]{0}), f32[4096]{0}, u32[]) async-start(f32[4096]{0} %async-done.0,"
      " f32[4096]{0} %b), async_group_id=1, calls=%async_wrapped\n"
      "  %async-done.1 = f32[4096]{0} async-done(((f32[4096]{0}, f32[4096]{0}), f32[4096]{0}, u32[]) %async-start.1),"
      " async_group_id=1, calls=%async_wrapped\n"
      "  ROOT %add_1 = f32[4096]{0} add(f32[4096]{0} %a, f32[4096]{0} %async-done.1)\n}\n");
  EXPECT_EQ(m.live_computations().size(), 5u);
  EXPECT_EQ(call_sites(m, "async_wrapped"), 1);
  EXPECT_EQ(call_sites(m, "called_computation"), 1);
}

}  // namespace
}  // namespace hlsgym::passes
