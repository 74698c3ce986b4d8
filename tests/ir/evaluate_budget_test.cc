// EvalOptions::max_steps bounds time: an op is charged for its work (dot products,
// placeholder reads, reduced inputs), not only its output elements, and it is charged
// before it runs, so a budget stops a dot of a few hundred million products before it
// starts instead of after minutes (issue 21, a `run` that fuzzing found hanging).
#include <gtest/gtest.h>

#include <ctime>
#include <string>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"
#include "ir/verifier.h"

namespace hlsgym::ir {
namespace {

Module parse(const std::string& text) {
  Module m = frontend::parse_hlo(text, "t.hlo");
  verify(m);
  return m;
}

// 64 x 64 outputs, each a 4096-term sum: 16.8M products, 4,096 elements.
const char* kDot =
    "HloModule t\n\nENTRY e {\n  a = f32[64,4096] parameter(0)\n  b = f32[4096,64] parameter(1)\n"
    "  ROOT d = f32[64,64] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n";

TEST(EvaluateBudget, DotIsChargedForItsProducts) {
  const Module m = parse(kDot);
  const std::vector<Literal> args = random_inputs(m, 1);
  EvalOptions o;
  o.max_steps = 1e6;  // far above the 266K elements, far below the products
  try {
    evaluate(m, args, o);
    FAIL() << "a dot of 16.8M products ran within a budget of 1e6 steps";
  } catch (const EvalBudgetExceeded& e) {
    EXPECT_NE(std::string(e.what()).find("t.hlo:6:3: the interpretation exceeded its budget of 1e+06 steps"),
              std::string::npos) << e.what();
  }
  o.max_steps = 1e8;
  EXPECT_NO_THROW(evaluate(m, args, o));
}

TEST(EvaluateBudget, AnOpIsChargedBeforeItRuns) {
  // 512 x 512 outputs of 16384-term sums: 4.3e9 products, about 20 s; its 16.8M input
  // elements are well within the budget. Refused before the dot starts.
  const Module m = parse(
      "HloModule t\n\nENTRY e {\n  a = f32[512,16384] parameter(0)\n  b = f32[16384,512] parameter(1)\n"
      "  ROOT d = f32[512,512] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
  std::vector<Literal> args;
  for (InstrId p : m.computation(m.entry()).params) args.emplace_back(m.shape(p));  // zeros, no random fill
  EvalOptions o;
  o.max_steps = 1e8;
  // Process CPU time, not wall time, so that a loaded machine cannot fail the check.
  const std::clock_t t0 = std::clock();
  EXPECT_THROW(evaluate(m, args, o), EvalBudgetExceeded);
  EXPECT_LT(static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC, 2.0);
}

TEST(EvaluateBudget, PlaceholdersAreChargedForTheirReads) {
  // 1M placeholder elements, each three random operand reads through tanh: charged more
  // than its 1M elements.
  const Module m = parse(
      "HloModule t\n\nENTRY e {\n  a = f32[1024,1024] parameter(0)\n"
      "  ROOT c = f32[1024,1024] custom-call(a), custom_call_target=\"opaque\"\n}\n");
  const std::vector<Literal> args = random_inputs(m, 1);
  EvalOptions o;
  o.max_steps = 4e6;
  EXPECT_THROW(evaluate(m, args, o), EvalBudgetExceeded);
  o.max_steps = 3e7;
  EXPECT_NO_THROW(evaluate(m, args, o));
}

TEST(EvaluateBudget, ReduceIsChargedForItsInputs) {
  const Module m = parse(
      "HloModule t\n\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n\n"
      "ENTRY e {\n  a = f32[4,1048576] parameter(0)\n  z = f32[] constant(0)\n"
      "  ROOT r = f32[4] reduce(a, z), dimensions={1}, to_apply=add\n}\n");
  const std::vector<Literal> args = random_inputs(m, 1);
  EvalOptions o;
  o.max_steps = 6e6;  // the 4M-element parameter fits, reading it twice over does not
  EXPECT_THROW(evaluate(m, args, o), EvalBudgetExceeded);
  o.max_steps = 1e7;
  EXPECT_NO_THROW(evaluate(m, args, o));
}

}  // namespace
}  // namespace hlsgym::ir
