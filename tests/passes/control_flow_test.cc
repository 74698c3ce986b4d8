// The control-flow pass family: constant folding, the while-loop passes (simplifier,
// constant sinking, invariant code motion, module DCE, unroller), the conditional passes
// (simplifier, canonicalizer, to-select), map inlining, the dynamic-index and
// dynamic-dimension simplifiers and computation deduplication. Each pass has a golden
// rewrite (checked on the structure and on interpreter outputs) and a no-change case;
// then every pass runs on every design, the small real modules, random graphs (with
// counted loops and calls) and, verifier only, on every real module.
#include <gtest/gtest.h>

#include <algorithm>

#include "frontend/hlo_parser.h"
#include "frontend/load.h"
#include "frontend/source_text.h"
#include "ir/evaluate.h"
#include "ir/features.h"
#include "ir/printer.h"
#include "ir/random_module.h"
#include "ir/verifier.h"
#include "passes/equivalence.h"
#include "passes/registry.h"
#include "tests/support/test_data.h"

namespace hlsgym::passes {
namespace {
using ir::Opcode;

const std::vector<std::string> kFamily = {
    "computation-deduplicator", "conditional-canonicalizer", "conditional-to-select", "constant_folding",
    "dynamic-dimension-simplifier", "dynamic-index-splitter", "hlo-module-dce", "map-inline",
    "simplify-conditional", "simplify-while-loops", "while-loop-constant-sinking",
    "while-loop-invariant-code-motion", "while_loop_unroller"};

ir::Module parse(const std::string& body) {
  ir::Module m = frontend::parse_hlo("HloModule t\n\n" + body, "cf.hlo");
  ir::verify(m);
  return m;
}

// Runs `pass`; the verifier must be clean, and `false` must leave the module untouched.
bool apply(const std::string& pass, ir::Module& m) {
  const std::string before = ir::print_module(m);
  const bool changed = Registry::global().create(pass)->run(m);
  auto issues = ir::verify_all(m);
  EXPECT_TRUE(issues.empty()) << pass << ": " << issues.front().message << "\n" << ir::print_module(m);
  if (!changed) {
    EXPECT_EQ(ir::print_module(m), before) << pass << " said unchanged";
  }
  return changed;
}

void expect_same_outputs(const ir::Module& before, const ir::Module& after) {
  for (uint64_t seed : {1, 2, 3}) {
    const auto args = ir::random_inputs(before, seed);
    EXPECT_EQ(ir::evaluate(after, args).value, ir::evaluate(before, args).value) << "seed " << seed;
  }
}

int count(const ir::Module& m, Opcode op) {
  int n = 0;
  for (ir::CompId c : m.live_computations())
    for (ir::InstrId i : m.instructions(c)) n += m.opcode(i) == op;
  return n;
}

void expect_no_change(const std::string& pass, const std::string& text) {
  ir::Module m = parse(text);
  const std::string before = ir::print_module(m);
  EXPECT_FALSE(apply(pass, m)) << pass;
  EXPECT_EQ(ir::print_module(m), before);
}

// Applies `pass` to `text`, expects a change, the same outputs, and a fixed point after.
ir::Module rewrite(const std::string& pass, const std::string& text) {
  const ir::Module original = parse(text);
  ir::Module m = original;
  EXPECT_TRUE(apply(pass, m)) << pass;
  expect_same_outputs(original, m);
  ir::Module again = m;
  EXPECT_FALSE(apply(pass, again)) << pass << " did not reach a fixed point:\n" << ir::print_module(m);
  return m;
}

ir::InstrId root(const ir::Module& m) { return m.computation(m.entry()).root; }

// ---------------------------------------------------------------- constant_folding

TEST(ConstantFolding, FoldsConstantExpressionsExactly) {
  ir::Module m = rewrite("constant_folding", R"(
add {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT s = s32[] add(x, y)
}
ENTRY e {
  a = s32[4] parameter(0)
  f = f32[] parameter(1)
  c1 = s32[4] constant({1, 2, 3, 4})
  c2 = s32[] constant(3)
  b = s32[4] broadcast(c2), dimensions={}
  s = s32[4] multiply(c1, b)
  n = s32[4] negate(s)
  z = s32[] constant(0)
  sum = s32[] reduce(c1, z), dimensions={0}, to_apply=add
  sb = s32[4] broadcast(sum), dimensions={}
  r1 = s32[4] add(a, n)
  r2 = s32[4] add(r1, sb)
  one = f32[] constant(1)
  three = f32[] constant(3)
  third = f32[] divide(one, three)
  ft = f32[] multiply(f, third)
  ROOT r = (s32[4], f32[]) tuple(r2, ft)
})");
  EXPECT_EQ(count(m, Opcode::kMultiply), 1);  // only f * third
  EXPECT_EQ(count(m, Opcode::kNegate), 0);
  EXPECT_EQ(count(m, Opcode::kReduce), 0);
  EXPECT_EQ(count(m, Opcode::kDivide), 0);
  EXPECT_EQ(count(m, Opcode::kBroadcast), 1);  // broadcast(10) is not folded on its own
  const ir::InstrId r1 = m.operand(m.operand(root(m), 0), 0);
  const ir::InstrId folded = m.operand(r1, 1);
  ASSERT_EQ(m.opcode(folded), Opcode::kConstant);
  for (int64_t k = 0; k < 4; ++k) EXPECT_EQ(m.literal(folded).get_int(k), -3 * (k + 1));
  const ir::InstrId ten = m.operand(m.operand(m.operand(root(m), 0), 1), 0);
  ASSERT_EQ(m.opcode(ten), Opcode::kConstant);
  EXPECT_EQ(m.literal(ten).get_int(0), 10);
  const ir::InstrId third = m.operand(m.operand(root(m), 1), 1);
  ASSERT_EQ(m.opcode(third), Opcode::kConstant);
  EXPECT_EQ(m.literal(third).data<float>()[0], 1.0f / 3.0f);
}

TEST(ConstantFolding, LeavesBroadcastsIotasElidedAndParameterOperandsAlone) {
  expect_no_change("constant_folding", R"(
ENTRY e {
  a = f32[4] parameter(0)
  c = f32[] constant(2)
  b = f32[4] broadcast(c), dimensions={}
  i = f32[4] iota(), iota_dimension=0
  bi = f32[4] add(b, i)
  big = f32[4] constant({...})
  n = f32[4] negate(big)
  ab = f32[4] add(a, bi)
  ROOT r = f32[4] add(ab, n)
})");
}

// ---------------------------------------------------------------- while loops

// A counted loop: for (i = 0; i < N; ++i) acc += x. `extra` adds a fourth element that
// only feeds itself; `used` is what the entry reads after the loop.
std::string counted_loop(int n, const std::string& x_init = "b", bool extra = false, int used = 1) {
  const std::string state = extra ? "(s32[], s32[4], s32[4], s32[4])" : "(s32[], s32[4], s32[4])";
  std::string s = "cond {\n p = " + state + " parameter(0)\n i = s32[] get-tuple-element(p), index=0\n"
                  " n = s32[] constant(" + std::to_string(n) + ")\n ROOT lt = pred[] compare(i, n), direction=LT\n}\n";
  s += "body {\n p = " + state + " parameter(0)\n i = s32[] get-tuple-element(p), index=0\n"
       " one = s32[] constant(1)\n i1 = s32[] add(i, one)\n acc = s32[4] get-tuple-element(p), index=1\n"
       " x = s32[4] get-tuple-element(p), index=2\n two = s32[] constant(2)\n"
       " twos = s32[4] broadcast(two), dimensions={}\n x2 = s32[4] multiply(x, twos)\n"
       " acc1 = s32[4] add(acc, x2)\n";
  if (extra)
    s += " e = s32[4] get-tuple-element(p), index=3\n e1 = s32[4] add(e, x)\n"
         " ROOT t = " + state + " tuple(i1, acc1, x, e1)\n}\n";
  else
    s += " ROOT t = " + state + " tuple(i1, acc1, x)\n}\n";
  s += "ENTRY e {\n a = s32[4] parameter(0)\n b = s32[4] parameter(1)\n zero = s32[] constant(0)\n";
  if (x_init == "c") s += " c = s32[4] constant({1, -2, 3, 7})\n";
  s += " t = " + state + " tuple(zero, a, " + x_init + (extra ? ", a" : "") + ")\n";
  s += " w = " + state + " while(t), condition=cond, body=body\n";
  s += " ROOT g = s32[4] get-tuple-element(w), index=" + std::to_string(used) + "\n}\n";
  return s;
}

TEST(SimplifyWhileLoops, TripCountZeroBecomesTheInitValue) {
  ir::Module m = rewrite("simplify-while-loops", counted_loop(0));
  EXPECT_EQ(count(m, Opcode::kWhile), 0);
  EXPECT_EQ(m.live_computations().size(), 1u);  // body and condition are gone
}

TEST(SimplifyWhileLoops, TripCountOneIsInlined) {
  ir::Module m = rewrite("simplify-while-loops", counted_loop(1));
  EXPECT_EQ(count(m, Opcode::kWhile), 0);
  EXPECT_EQ(m.live_computations().size(), 1u);
  EXPECT_EQ(count(m, Opcode::kMultiply), 1);  // the body, once
}

TEST(SimplifyWhileLoops, DeadStateElementsAreRemoved) {
  ir::Module m = rewrite("simplify-while-loops", counted_loop(5, "b", /*extra=*/true));
  ir::InstrId w = m.operand(root(m), 0);
  ASSERT_EQ(m.opcode(w), Opcode::kWhile);
  EXPECT_EQ(m.shape(w).tuple_elements().size(), 3u);  // `extra` only fed itself
  EXPECT_EQ(count(m, Opcode::kAdd), 2);                // i + 1 and acc + 2x remain
}

TEST(SimplifyWhileLoops, PassedThroughElementsReadAfterTheLoopReadTheInit) {
  // Only x (passed through) is read after the loop; acc is not, so acc goes, and then
  // nothing in the loop reads x: x goes too and its use reads the init value b.
  ir::Module m = rewrite("simplify-while-loops", counted_loop(5, "b", /*extra=*/false, /*used=*/2));
  EXPECT_EQ(m.opcode(root(m)), Opcode::kParameter);
  EXPECT_EQ(m.name(root(m)), "b");
  EXPECT_EQ(count(m, Opcode::kWhile), 0);  // the loop has no reader left: dead code
}

TEST(SimplifyWhileLoops, LeavesLoopsItCannotProveAlone) {
  // Trip count 5, every element live.
  std::string text = counted_loop(5);
  ir::Module m = parse(text);
  EXPECT_FALSE(apply("simplify-while-loops", m));
  // A condition with a side effect is never removed, even with trip count 0.
  expect_no_change("simplify-while-loops", R"(
cond {
  p = (s32[], token[]) parameter(0)
  tok = token[] get-tuple-element(p), index=1
  o = token[] outfeed(p, tok)
  ROOT f = pred[] constant(false)
}
body {
  p = (s32[], token[]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  t = token[] get-tuple-element(p), index=1
  ROOT q = (s32[], token[]) tuple(i, t)
}
ENTRY e {
  a = s32[] parameter(0)
  tok = token[] after-all()
  t = (s32[], token[]) tuple(a, tok)
  w = (s32[], token[]) while(t), condition=cond, body=body
  ROOT g = s32[] get-tuple-element(w), index=0
})");
}

TEST(WhileLoopConstantSinking, InvariantConstantsSinkIntoBodyAndCondition) {
  const std::string state = "(s32[], s32[4], s32[4], s32[])";
  ir::Module m = rewrite("while-loop-constant-sinking",
                         "cond {\n p = " + state + " parameter(0)\n i = s32[] get-tuple-element(p), index=0\n"
                         " n = s32[] get-tuple-element(p), index=3\n ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
                         "body {\n p = " + state + " parameter(0)\n i = s32[] get-tuple-element(p), index=0\n"
                         " one = s32[] constant(1)\n i1 = s32[] add(i, one)\n acc = s32[4] get-tuple-element(p), index=1\n"
                         " x = s32[4] get-tuple-element(p), index=2\n acc1 = s32[4] add(acc, x)\n"
                         " n = s32[] get-tuple-element(p), index=3\n ROOT t = " + state + " tuple(i1, acc1, x, n)\n}\n"
                         "ENTRY e {\n a = s32[4] parameter(0)\n c = s32[4] constant({1, -2, 3, 7})\n"
                         " zero = s32[] constant(0)\n four = s32[] constant(4)\n t = " + state +
                         " tuple(zero, a, c, four)\n w = " + state + " while(t), condition=cond, body=body\n"
                         " ROOT g = s32[4] get-tuple-element(w), index=1\n}\n");
  const ir::CompId cond = m.find_computation("cond"), body = m.find_computation("body");
  const ir::InstrId lt = m.computation(cond).root;
  EXPECT_EQ(m.opcode(m.operand(lt, 1)), Opcode::kConstant);
  const ir::InstrId acc1 = m.operand(m.computation(body).root, 1);
  EXPECT_EQ(m.opcode(m.operand(acc1, 1)), Opcode::kConstant);
  // The body still passes the elements through.
  EXPECT_EQ(m.opcode(m.operand(m.computation(body).root, 2)), Opcode::kGetTupleElement);
  expect_no_change("while-loop-constant-sinking", counted_loop(5));  // x starts as a parameter
}

TEST(WhileLoopInvariantCodeMotion, HoistsInvariantArithmetic) {
  ir::Module m = rewrite("while-loop-invariant-code-motion", counted_loop(5));
  const ir::CompId body = m.find_computation("body");
  int body_multiplies = 0;
  for (ir::InstrId i : m.instructions(body)) body_multiplies += m.opcode(i) == Opcode::kMultiply;
  EXPECT_EQ(body_multiplies, 0);
  EXPECT_EQ(count(m, Opcode::kMultiply), 1);  // now in the entry, computed once
  EXPECT_EQ(m.shape(m.operand(root(m), 0)).tuple_elements().size(), 4u);
}

TEST(WhileLoopInvariantCodeMotion, SkipsShortLoopsAndVariantCode) {
  expect_no_change("while-loop-invariant-code-motion", counted_loop(1));
  // x is updated every iteration: nothing is invariant.
  std::string text = counted_loop(5);
  text.replace(text.find(" ROOT t = (s32[], s32[4], s32[4]) tuple(i1, acc1, x)"),
               std::string(" ROOT t = (s32[], s32[4], s32[4]) tuple(i1, acc1, x)").size(),
               " ROOT t = (s32[], s32[4], s32[4]) tuple(i1, acc1, acc1)");
  expect_no_change("while-loop-invariant-code-motion", text);
}

TEST(HloModuleDce, RemovesDeadLoopStateAndDeadCode) {
  std::string text = counted_loop(5, "b", /*extra=*/true);
  text.insert(text.find(" ROOT g ="), " dead = s32[4] negate(a)\n");
  ir::Module m = rewrite("hlo-module-dce", text);
  EXPECT_EQ(m.shape(m.operand(root(m), 0)).tuple_elements().size(), 3u);
  EXPECT_EQ(count(m, Opcode::kNegate), 0);
  expect_no_change("hlo-module-dce", counted_loop(5));
}

TEST(WhileLoopUnroller, UnrollsSmallCountedLoops) {
  ir::Module m = rewrite("while_loop_unroller", counted_loop(3));
  EXPECT_EQ(count(m, Opcode::kWhile), 0);
  EXPECT_EQ(count(m, Opcode::kMultiply), 3);
  EXPECT_EQ(m.live_computations().size(), 1u);
  expect_no_change("while_loop_unroller", counted_loop(100));  // over 64 iterations
}

// A loop nest inside a called computation: the inner loop adds 2*y (y = -x, invariant in
// the inner loop) to acc three times per outer iteration; the outer loop runs 4 times.
// A side-effecting custom-call in the inner body reads acc.
const char* kLoopNest = R"(
inner_cond {
  p = (s32[], s32[4], s32[4]) parameter(0)
  j = s32[] get-tuple-element(p), index=0
  k = s32[] constant(3)
  ROOT lt = pred[] compare(j, k), direction=LT
}
inner_body {
  p = (s32[], s32[4], s32[4]) parameter(0)
  j = s32[] get-tuple-element(p), index=0
  one = s32[] constant(1)
  j1 = s32[] add(j, one)
  acc = s32[4] get-tuple-element(p), index=1
  y = s32[4] get-tuple-element(p), index=2
  two = s32[] constant(2)
  twos = s32[4] broadcast(two), dimensions={}
  y2 = s32[4] multiply(y, twos)
  acc1 = s32[4] add(acc, y2)
  log = s32[4] custom-call(acc), custom_call_target="log", custom_call_has_side_effect=true
  ROOT t = (s32[], s32[4], s32[4]) tuple(j1, acc1, y)
}
outer_cond {
  p = (s32[], s32[4], s32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(4)
  ROOT lt = pred[] compare(i, n), direction=LT
}
outer_body {
  p = (s32[], s32[4], s32[4]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  acc = s32[4] get-tuple-element(p), index=1
  x = s32[4] get-tuple-element(p), index=2
  y = s32[4] negate(x)
  zero = s32[] constant(0)
  it = (s32[], s32[4], s32[4]) tuple(zero, acc, y)
  w = (s32[], s32[4], s32[4]) while(it), condition=inner_cond, body=inner_body
  acc1 = s32[4] get-tuple-element(w), index=1
  ROOT t = (s32[], s32[4], s32[4]) tuple(i1, acc1, x)
}
callee {
  a = s32[4] parameter(0)
  b = s32[4] parameter(1)
  zero = s32[] constant(0)
  t = (s32[], s32[4], s32[4]) tuple(zero, a, b)
  w = (s32[], s32[4], s32[4]) while(t), condition=outer_cond, body=outer_body
  ROOT g = s32[4] get-tuple-element(w), index=1
}
ENTRY e {
  a = s32[4] parameter(0)
  b = s32[4] parameter(1)
  ROOT c = s32[4] call(a, b), to_apply=callee
}
)";

int count_in(const ir::Module& m, const std::string& comp, Opcode op) {
  int n = 0;
  for (ir::InstrId i : m.instructions(m.find_computation(comp))) n += m.opcode(i) == op;
  return n;
}

TEST(LoopNest, InvariantCodeLeavesBothLoopsInOneRun) {
  ir::Module m = rewrite("while-loop-invariant-code-motion", kLoopNest);
  EXPECT_EQ(count_in(m, "inner_body", Opcode::kMultiply), 0);
  EXPECT_EQ(count_in(m, "outer_body", Opcode::kMultiply), 0);
  EXPECT_EQ(count_in(m, "outer_body", Opcode::kNegate), 0);
  EXPECT_EQ(count_in(m, "callee", Opcode::kMultiply), 1);
  EXPECT_EQ(count_in(m, "callee", Opcode::kNegate), 1);
  EXPECT_EQ(count_in(m, "inner_body", Opcode::kCustomCall), 1);  // side effects stay
}

TEST(LoopNest, SideEffectsKeepLoopsAndTheStateTheyRead) {
  // Trip count 1 would inline the inner loop, but its body has a side effect.
  std::string text = kLoopNest;
  text.replace(text.find("k = s32[] constant(3)"), 21, "k = s32[] constant(1)");
  ir::Module m = parse(text);
  apply("simplify-while-loops", m);
  EXPECT_EQ(count(m, Opcode::kWhile), 2);
  // The unroller does not copy side effects either.
  ir::Module u = parse(text);
  apply("while_loop_unroller", u);
  EXPECT_EQ(count_in(u, "outer_body", Opcode::kWhile), 1);
}

TEST(LoopNest, EveryPassKeepsTheNestCorrect) {
  const ir::Module original = parse(kLoopNest);
  for (const auto& pass : kFamily) {
    SCOPED_TRACE(pass);
    ir::Module m = original;
    for (int run = 0; run < 4 && apply(pass, m); ++run) {
    }
    expect_same_outputs(original, m);
  }
  // And a few orders of them.
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    ir::Module m = original;
    uint64_t state = seed;
    std::string order;
    for (int k = 0; k < 12; ++k) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      const std::string& pass = kFamily[(state >> 33) % kFamily.size()];
      order += pass + " ";
      apply(pass, m);
    }
    SCOPED_TRACE(order);
    expect_same_outputs(original, m);
  }
}

TEST(LoopNest, TripCountZeroRemovesALoopWithASideEffectingBody) {
  std::string text = kLoopNest;
  text.replace(text.find("k = s32[] constant(3)"), 21, "k = s32[] constant(0)");
  ir::Module m = rewrite("simplify-while-loops", text);
  EXPECT_EQ(count(m, Opcode::kWhile), 1);
  EXPECT_EQ(count(m, Opcode::kCustomCall), 0);  // the body never ran
}

// ---------------------------------------------------------------- conditionals

const char* kBranches = R"(
tb {
  p = (s32[4], s32[4]) parameter(0)
  a = s32[4] get-tuple-element(p), index=0
  b = s32[4] get-tuple-element(p), index=1
  s = s32[4] add(a, b)
  ROOT t = (s32[4], s32[4]) tuple(s, a)
}
fb {
  p = (s32[4], s32[4]) parameter(0)
  a = s32[4] get-tuple-element(p), index=0
  n = s32[4] negate(a)
  ROOT t = (s32[4], s32[4]) tuple(n, a)
}
)";

const char* kBothOutputs = " g1 = s32[4] get-tuple-element(c), index=1\n ROOT r = (s32[4], s32[4]) tuple(g0, g1)\n";

std::string conditional_on(const std::string& pred, const std::string& branches = kBranches,
                           const std::string& tail = kBothOutputs) {
  return branches + "ENTRY e {\n x = s32[4] parameter(0)\n y = s32[4] parameter(1)\n q = pred[] parameter(2)\n"
                    " k = pred[] constant(false)\n args = (s32[4], s32[4]) tuple(x, y)\n"
                    " c = (s32[4], s32[4]) conditional(" + pred +
         ", args, args), true_computation=tb, false_computation=fb\n"
         " g0 = s32[4] get-tuple-element(c), index=0\n" + tail + "}\n";
}

const char* kDot = "s = s32[4] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}";

TEST(SimplifyConditional, ConstantPredicateInlinesTheTakenBranch) {
  ir::Module m = rewrite("simplify-conditional", conditional_on("k"));
  EXPECT_EQ(count(m, Opcode::kConditional), 0);
  EXPECT_EQ(count(m, Opcode::kNegate), 1);
  EXPECT_EQ(count(m, Opcode::kAdd), 0);
  EXPECT_EQ(m.live_computations().size(), 1u);
}

TEST(SimplifyConditional, CheapBranchesBecomeSelects) {
  ir::Module m = rewrite("simplify-conditional", conditional_on("q"));
  EXPECT_EQ(count(m, Opcode::kConditional), 0);
  EXPECT_EQ(count(m, Opcode::kSelect), 2);
}

TEST(SimplifyConditional, UnusedOutputsAndOperandsArePruned) {
  // A dot makes the branches too expensive for a select; only output 0 is read, and the
  // false branch then reads only element 0 of its operand.
  std::string branches = kBranches;
  branches.replace(branches.find("s = s32[4] add(a, b)"), 20, kDot);
  ir::Module m = rewrite("simplify-conditional", conditional_on("q", branches, " ROOT r = s32[4] add(g0, g0)\n"));
  ir::InstrId cond = ir::kNoId;
  for (ir::InstrId i : m.instructions(m.entry()))
    if (m.opcode(i) == Opcode::kConditional) cond = i;
  ASSERT_NE(cond, ir::kNoId);
  EXPECT_EQ(m.shape(cond).tuple_elements().size(), 1u);
  EXPECT_EQ(m.shape(m.operand(cond, 2)).tuple_elements().size(), 1u);  // fb reads only a
  EXPECT_EQ(m.shape(m.operand(cond, 1)).tuple_elements().size(), 2u);  // tb reads both
}

TEST(SimplifyConditional, LeavesExpensiveFullyUsedConditionals) {
  std::string branches = kBranches;
  branches.replace(branches.find("s = s32[4] add(a, b)"), 20, kDot);
  branches.replace(branches.find("n = s32[4] negate(a)"), 20,
                   "b = s32[4] get-tuple-element(p), index=1\n  n = s32[4] add(a, b)\n"
                   "  n2 = s32[4] dot(n, a), lhs_batch_dims={0}, rhs_batch_dims={0}");
  branches.replace(branches.find("tuple(n, a)"), 11, "tuple(n2, a)");
  expect_no_change("simplify-conditional", conditional_on("q", branches));
}

const char* kIndexed = R"(
neg {
  p = s32[4] parameter(0)
  ROOT n = s32[4] negate(p)
}
ab {
  p = s32[4] parameter(0)
  ROOT n = s32[4] abs(p)
}
ENTRY e {
  x = s32[4] parameter(0)
  k = s32[] parameter(1)
  c = s32[4] conditional(k, x, x, x), branch_computations={neg, ab, neg}
  ROOT r = s32[4] add(c, x)
}
)";

TEST(ConditionalCanonicalizer, NonTupleResultsBecomeOneTuples) {
  ir::Module m = rewrite("conditional-canonicalizer", kIndexed);
  const ir::InstrId g = m.operand(root(m), 0);
  ASSERT_EQ(m.opcode(g), Opcode::kGetTupleElement);
  const ir::InstrId cond = m.operand(g, 0);
  ASSERT_EQ(m.opcode(cond), Opcode::kConditional);
  EXPECT_TRUE(m.shape(cond).is_tuple());
  EXPECT_EQ(m.live_computations().size(), 4u);  // `neg`, used twice, was copied once
  expect_no_change("conditional-canonicalizer", conditional_on("q"));
}

const char* kMapWithConditional = R"(
ct {
  p = f32[] parameter(0)
  ROOT n = f32[] negate(p)
}
cf {
  p = f32[] parameter(0)
  ROOT a = f32[] exponential(p)
}
f {
  x = f32[] parameter(0)
  z = f32[] constant(0)
  q = pred[] compare(x, z), direction=GT
  ROOT c = f32[] conditional(q, x, x), true_computation=ct, false_computation=cf
}
ENTRY e {
  a = f32[4] parameter(0)
  ROOT m = f32[4] map(a), dimensions={0}, to_apply=f
}
)";

TEST(ConditionalToSelect, ConditionalsInsideMapsBecomeSelects) {
  ir::Module m = rewrite("conditional-to-select", kMapWithConditional);
  EXPECT_EQ(count(m, Opcode::kConditional), 0);
  EXPECT_EQ(count(m, Opcode::kSelect), 1);
  // In sequential code conditionals stay (simplify-conditional's business).
  expect_no_change("conditional-to-select", conditional_on("q"));
}

// ---------------------------------------------------------------- map, dynamic indices, dimensions

TEST(MapInline, SingleOperationMapsBecomeThatOperation) {
  ir::Module m = rewrite("map-inline", R"(
sub {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT s = s32[] subtract(y, x)
}
second {
  x = s32[] parameter(0)
  ROOT y = s32[] parameter(1)
}
seven {
  x = s32[] parameter(0)
  ROOT c = s32[] constant(7)
}
ENTRY e {
  a = s32[4] parameter(0)
  b = s32[4] parameter(1)
  m1 = s32[4] map(a, b), dimensions={0}, to_apply=sub
  m2 = s32[4] map(a, m1), dimensions={0}, to_apply=second
  m3 = s32[4] map(a), dimensions={0}, to_apply=seven
  ROOT r = s32[4] add(m2, m3)
})");
  EXPECT_EQ(count(m, Opcode::kMap), 0);
  const ir::InstrId sub = m.operand(root(m), 0);
  ASSERT_EQ(m.opcode(sub), Opcode::kSubtract);
  EXPECT_EQ(m.name(m.operand(sub, 0)), "b");
  EXPECT_EQ(m.opcode(m.operand(root(m), 1)), Opcode::kBroadcast);
  expect_no_change("map-inline", R"(
two_ops {
  x = s32[] parameter(0)
  n = s32[] negate(x)
  ROOT a = s32[] abs(n)
}
ENTRY e {
  a = s32[4] parameter(0)
  ROOT m = s32[4] map(a), dimensions={0}, to_apply=two_ops
})");
}

TEST(DynamicIndexSplitter, VectorIndicesBecomeScalars) {
  ir::Module m = rewrite("dynamic-index-splitter", R"(
ENTRY e {
  x = s32[4] parameter(0)
  u = s32[2] parameter(1)
  i = s32[1] parameter(2)
  ds = s32[2] dynamic-slice(x, i), dynamic_slice_sizes={2}
  dus = s32[4] dynamic-update-slice(x, u, i)
  ROOT r = (s32[2], s32[4]) tuple(ds, dus)
})");
  for (ir::InstrId i : m.instructions(m.entry())) {
    if (m.opcode(i) == Opcode::kDynamicSlice || m.opcode(i) == Opcode::kDynamicUpdateSlice) {
      EXPECT_EQ(m.shape(m.operands(i).back()).rank(), 0);
    }
  }
  // Rank 2: the split module computes what the scalar form written by hand computes.
  ir::Module two = parse(R"(
ENTRY e {
  x = s32[4,4] parameter(0)
  i = s32[2] parameter(1)
  ROOT ds = s32[2,3] dynamic-slice(x, i), dynamic_slice_sizes={2,3}
})");
  EXPECT_TRUE(apply("dynamic-index-splitter", two));
  const ir::Module scalar = parse(R"(
ENTRY e {
  x = s32[4,4] parameter(0)
  i = s32[2] parameter(1)
  i0 = s32[1] slice(i), slice={[0:1]}
  s0 = s32[] reshape(i0)
  i1 = s32[1] slice(i), slice={[1:2]}
  s1 = s32[] reshape(i1)
  ROOT ds = s32[2,3] dynamic-slice(x, s0, s1), dynamic_slice_sizes={2,3}
})");
  expect_same_outputs(scalar, two);
  expect_no_change("dynamic-index-splitter", R"(
ENTRY e {
  x = s32[4] parameter(0)
  i = s32[] parameter(1)
  ROOT ds = s32[2] dynamic-slice(x, i), dynamic_slice_sizes={2}
})");
}

TEST(DynamicDimensionSimplifier, ForwardsConcatSliceReshapeAndConvert) {
  ir::Module m = rewrite("dynamic-dimension-simplifier", R"(
ENTRY e {
  a = s32[2] parameter(0)
  b = s32[3] parameter(1)
  c = s32[1] parameter(2)
  s = s32[] parameter(3)
  ab = s32[5] concatenate(a, b), dimensions={0}
  abc = s32[6] concatenate(ab, c), dimensions={0}
  sl = s32[3] slice(abc), slice={[2:5]}
  r1 = s32[2,3] reshape(abc)
  r2 = s32[6] reshape(r1)
  cv = s32[6] convert(r2)
  bs = s32[1] broadcast(s), dimensions={}
  rs = s32[] reshape(bs)
  ROOT r = (s32[3], s32[6], s32[]) tuple(sl, cv, rs)
})");
  const ir::InstrId r = root(m);
  EXPECT_EQ(m.name(m.operand(r, 0)), "b");
  EXPECT_EQ(m.opcode(m.operand(r, 1)), Opcode::kConcatenate);
  EXPECT_EQ(m.operands(m.operand(r, 1)).size(), 3u);
  EXPECT_EQ(m.name(m.operand(r, 2)), "s");
  EXPECT_EQ(count(m, Opcode::kConcatenate), 1);
  EXPECT_EQ(count(m, Opcode::kReshape), 0);
  expect_no_change("dynamic-dimension-simplifier", R"(
ENTRY e {
  a = s32[2] parameter(0)
  b = s32[3] parameter(1)
  ab = s32[5] concatenate(a, b), dimensions={0}
  sl = s32[3] slice(ab), slice={[1:4]}
  r1 = s32[5,1] reshape(ab)
  cv = f32[3] convert(sl)
  ROOT r = (f32[3], s32[5,1]) tuple(cv, r1)
})");
}

// ---------------------------------------------------------------- deduplication

TEST(ComputationDeduplicator, MergesIdenticalComputations) {
  ir::Module m = rewrite("computation-deduplicator", R"(
add1 {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT s = s32[] add(x, y), metadata={op_name="one"}
}
add2 {
  a = s32[] parameter(0)
  b = s32[] parameter(1)
  ROOT t = s32[] add(a, b), metadata={op_name="two"}
}
mul {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT s = s32[] multiply(x, y)
}
ENTRY e {
  v = s32[4] parameter(0)
  z = s32[] constant(0)
  r1 = s32[] reduce(v, z), dimensions={0}, to_apply=add1
  r2 = s32[] reduce(v, z), dimensions={0}, to_apply=add2
  r3 = s32[] reduce(v, z), dimensions={0}, to_apply=mul
  ROOT r = (s32[], s32[], s32[]) tuple(r1, r2, r3)
})");
  EXPECT_EQ(m.live_computations().size(), 3u);
  EXPECT_EQ(m.find_computation("add2"), ir::kNoId);
  expect_no_change("computation-deduplicator", R"(
add1 {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT s = s32[] add(x, y)
}
sub {
  x = s32[] parameter(0)
  y = s32[] parameter(1)
  ROOT s = s32[] subtract(y, x)
}
ENTRY e {
  v = s32[4] parameter(0)
  z = s32[] constant(0)
  r1 = s32[] reduce(v, z), dimensions={0}, to_apply=add1
  r2 = s32[] reduce(v, z), dimensions={0}, to_apply=sub
  ROOT r = (s32[], s32[]) tuple(r1, r2)
})");
}

// ---------------------------------------------------------------- the family on real inputs

std::vector<ir::Module> designs_and_small_real_modules() {
  std::vector<ir::Module> modules;
  for (const auto& d : testing::all_designs()) modules.push_back(frontend::load_design(d.string()).module);
  for (const auto& f : testing::all_hlo_files()) {
    ir::Module m = frontend::parse_hlo(frontend::read_file(f.string()), f.string());
    const ir::Features ft = ir::extract_features(m);
    if (ft.instructions <= 300 && ft.max_tensor_elements <= 20000) modules.push_back(std::move(m));
  }
  return modules;
}

TEST(ControlFlowFamily, EveryPassOnDesignsAndSmallRealModules) {
  const auto modules = designs_and_small_real_modules();
  ASSERT_GE(modules.size(), 40u);
  int changed = 0;
  for (const auto& original : modules) {
    const auto args = ir::random_inputs(original, 5);
    const ir::Literal expected = ir::evaluate(original, args).value;
    for (const auto& pass : kFamily) {
      SCOPED_TRACE(original.name() + " / " + pass);
      ir::Module m = original;
      changed += apply(pass, m);
      EXPECT_EQ(ir::evaluate(m, args).value, expected);
    }
  }
  EXPECT_GT(changed, 0);
}

TEST(ControlFlowFamily, EveryPassOnRandomGraphsWithLoopsAndCalls) {
  std::vector<int> fired(kFamily.size(), 0);
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    ir::RandomModuleOptions o;
    o.seed = seed;
    o.instructions = 20 + static_cast<int>(seed % 40);
    const ir::Module original = ir::random_module(o);
    for (size_t k = 0; k < kFamily.size(); ++k) {
      SCOPED_TRACE("seed " + std::to_string(seed) + " / " + kFamily[k]);
      ir::Module m = original;
      int runs = 0;
      while (apply(kFamily[k], m) && ++runs < 4) {
      }
      EXPECT_LT(runs, 4) << "no fixed point";
      fired[k] += runs > 0;
      if (runs == 0) continue;
      EquivalenceOptions eo;
      eo.seed = seed;
      const EquivalenceResult r = check_equivalence(original, m, eo);
      ASSERT_NE(r.status, CheckStatus::kFailed) << r.detail << "\n" << ir::print_module(original);
    }
  }
  for (const char* name : {"constant_folding", "simplify-while-loops", "while-loop-invariant-code-motion",
                           "hlo-module-dce", "while_loop_unroller", "dynamic-dimension-simplifier",
                           "computation-deduplicator"}) {
    const auto it = std::find(kFamily.begin(), kFamily.end(), name);
    EXPECT_GT(fired[static_cast<size_t>(it - kFamily.begin())], 0) << name << " never fired";
  }
}

TEST(ControlFlowFamily, EveryPassKeepsEveryRealModuleValid) {
  for (const auto& f : testing::all_hlo_files()) {
    const ir::Module original = frontend::parse_hlo(frontend::read_file(f.string()), f.string());
    for (const auto& pass : kFamily) {
      ir::Module m = original;
      Registry::global().create(pass)->run(m);
      auto issues = ir::verify_all(m);
      EXPECT_TRUE(issues.empty()) << f.filename() << " / " << pass << ": " << issues.front().message;
    }
  }
}

}  // namespace
}  // namespace hlsgym::passes
