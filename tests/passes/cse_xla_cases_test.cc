// cse: every case of XLA's hlo_cse_test.cc (openxla/xla xla/service/hlo_cse_test.cc at
// 0f3a8147499197459b7a3c5ddb1723561c9470dd, the one version the search tool holds), each
// written as a golden test: HLO in (XLA builds half of its modules with
// HloComputation::Builder; here they are HLO text of the same graph, the last
// instruction of a computation its root); instruction counts, which operands became one,
// or no change, out; the interpreter agreeing where the module has no rng, custom call or
// domain.
// XLA's two parameterized suites (custom calls, commutative ops) are one TEST a parameter,
// named after the suite and the parameter's index or opcode.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using testing::root_expression;

enum class Values { kCompare, kSkip };  // kSkip: rng, or a custom call or domain the interpreter lacks

ir::Module cse(const std::string& module, bool expect_change, Values values = Values::kCompare) {
  return testing::run_golden("cse", module, expect_change, values == Values::kCompare);
}

ir::Module cse_entry(const std::string& entry, bool expect_change, Values values = Values::kCompare) {
  return cse("HloModule m\nENTRY e {\n" + entry + "}\n", expect_change, values);
}

size_t entry_size(const ir::Module& m) { return m.instruction_count(m.entry()); }
InstrId root(const ir::Module& m) { return m.computation(m.entry()).root; }
InstrId root_operand(const ir::Module& m, size_t k) { return m.operand(root(m), k); }

TEST(CseXla, CombineTwoConstants) {
  const ir::Module m =
      cse_entry(" c1 = f32[] constant(42)\n c2 = f32[] constant(42)\n ROOT add = f32[] add(c1, c2)\n", true);
  EXPECT_EQ(entry_size(m), 2u);
  EXPECT_EQ(root_operand(m, 0), root_operand(m, 1));
  EXPECT_EQ(root_expression(m), "add(constant(42), constant(42))");
}

const std::string kConstantsInLayouts =
    " c1 = f32[2,2]{0,1} constant({{1, 2}, {3, 4}})\n c2 = f32[2,2]{1,0} constant({{1, 2}, {3, 4}})\n"
    " ROOT add = f32[2,2] add(c1, c2)\n";

// XLA runs this one layout-sensitive (listed); hlsgym's cse ignores layouts and merges.
TEST(CseXla, CombineTwoConstantsDifferentLayouts) {
  EXPECT_FALSE(testing::deliberate_difference("cse", "CombineTwoConstantsDifferentLayouts").empty());
  const ir::Module m = cse_entry(kConstantsInLayouts, true);
  EXPECT_EQ(entry_size(m), 2u);
  EXPECT_EQ(root_operand(m, 0), root_operand(m, 1));
}

TEST(CseXla, ConstantsSameValueDifferentType) {
  const ir::Module m = cse_entry(
      " k0 = u32[] constant(42)\n k1 = s32[] constant(42)\n k2 = u64[] constant(42)\n k3 = s64[] constant(42)\n"
      " k4 = f64[] constant(42)\n k5 = f32[] constant(42)\n k6 = f32[] constant(42)\n"
      " v0 = f32[] convert(k0)\n v1 = f32[] convert(k1)\n v2 = f32[] convert(k2)\n v3 = f32[] convert(k3)\n"
      " v4 = f32[] convert(k4)\n v5 = f32[] convert(k5)\n v6 = f32[] convert(k6)\n"
      " a1 = f32[] add(v0, v1)\n a2 = f32[] add(a1, v2)\n a3 = f32[] add(a2, v3)\n a4 = f32[] add(a3, v4)\n"
      " a5 = f32[] add(a4, v5)\n ROOT a6 = f32[] add(a5, v6)\n",
      true);
  EXPECT_EQ(entry_size(m), 18u);  // the second f32 42 and its convert
}

TEST(CseXla, NonscalarConstants) {
  const ir::Module m = cse_entry(
      " common1 = f32[2,2] constant({{1, 2}, {3, 4}})\n common2 = f32[2,2] constant({{1, 2}, {3, 4}})\n"
      " uncommon = f32[2,2] constant({{2, 4}, {6, 8}})\n"
      " ROOT tuple = (f32[2,2], f32[2,2], f32[2,2]) tuple(common1, common2, uncommon)\n",
      true);
  EXPECT_EQ(entry_size(m), 3u);
  EXPECT_EQ(root_operand(m, 0), root_operand(m, 1));
  EXPECT_NE(root_operand(m, 0), root_operand(m, 2));
}

TEST(CseXla, IdenticalInstructions) {
  const ir::Module m = cse_entry(
      " constant = f32[] constant(42)\n exp1 = f32[] exponential(constant)\n exp2 = f32[] exponential(constant)\n"
      " exp3 = f32[] exponential(constant)\n ROOT tuple = (f32[], f32[], f32[]) tuple(exp1, exp2, exp3)\n",
      true);
  EXPECT_EQ(entry_size(m), 3u);
  EXPECT_EQ(root_operand(m, 0), root_operand(m, 1));
  EXPECT_EQ(root_operand(m, 0), root_operand(m, 2));
}

// The loop state (a, b) -> (a, a + b), conditions that end at once (constant false) or
// never (constant true).
std::string loop_module(const std::string& second_body_op, const std::string& second_condition, bool root_tuple) {
  return "HloModule m\n"
         "body {\n param = (f32[], f32[]) parameter(0)\n gte0 = f32[] get-tuple-element(param), index=0\n"
         " gte1 = f32[] get-tuple-element(param), index=1\n add = f32[] add(gte0, gte1)\n"
         " ROOT tuple = (f32[], f32[]) tuple(gte0, add)\n}\n"
         "body2 {\n param = (f32[], f32[]) parameter(0)\n gte0 = f32[] get-tuple-element(param), index=0\n"
         " gte1 = f32[] get-tuple-element(param), index=1\n op = f32[] " + second_body_op + "(gte0, gte1)\n"
         " ROOT tuple = (f32[], f32[]) tuple(gte0, op)\n}\n"
         "condition {\n param = (f32[], f32[]) parameter(0)\n ROOT constant = pred[] constant(false)\n}\n"
         "condition.1 {\n param = (f32[], f32[]) parameter(0)\n ROOT constant = pred[] constant(" +
         second_condition + ")\n}\n"
         "ENTRY e {\n c0 = f32[] constant(1)\n c1 = f32[] constant(2)\n t = (f32[], f32[]) tuple(c0, c1)\n"
         " while = (f32[], f32[]) while(t), condition=condition, body=body\n" +
         (root_tuple ? " while.1 = (f32[], f32[]) while(t), condition=condition.1, body=body2\n"
                       " ROOT r = ((f32[], f32[]), (f32[], f32[])) tuple(while, while.1)\n"
                     : " ROOT while.1 = (f32[], f32[]) while(t), condition=condition.1, body=body2\n") +
         "}\n";
}

// condition and condition.1 are two computations with the same instructions: XLA
// compares called computations by structure.
TEST(CseXla, WhileLoopsIdenticalConditionsAndBodiesSameInput) {
  const ir::Module m = cse(loop_module("add", "false", true), true);
  EXPECT_EQ(entry_size(m), 5u);
  EXPECT_EQ(root_operand(m, 0), root_operand(m, 1));
}

TEST(CseXla, WhileLoopsIdenticalConditionsSameInputAndDifferentBodies) {
  const ir::Module m = cse(loop_module("subtract", "false", false), false);
  EXPECT_EQ(entry_size(m), 5u);
}

// The second loop never ends (condition constant true): no value comparison.
TEST(CseXla, WhileLoopsIdenticalBodiesAndInputDifferentConditions) {
  const ir::Module m = cse(loop_module("add", "true", false), false, Values::kSkip);
  EXPECT_EQ(entry_size(m), 5u);
}

const std::string kExpsInLayouts =
    " constant = f32[2,2] constant({{1, 2}, {3, 4}})\n exp1 = f32[2,2]{0,1} exponential(constant)\n"
    " exp2 = f32[2,2]{1,0} exponential(constant)\n ROOT tuple = (f32[2,2]{0,1}, f32[2,2]{1,0}) tuple(exp1, exp2)\n";

// XLA's layout-sensitive run keeps both (listed); hlsgym's cse ignores layouts.
TEST(CseXla, IdenticalInstructionsDifferentLayoutsSensitive) {
  EXPECT_FALSE(testing::deliberate_difference("cse", "IdenticalInstructionsDifferentLayoutsSensitive").empty());
  const ir::Module m = cse_entry(kExpsInLayouts, true);
  EXPECT_EQ(entry_size(m), 3u);
  EXPECT_EQ(root_operand(m, 0), root_operand(m, 1));
}

TEST(CseXla, IdenticalInstructionsDifferentLayoutsInsensitive) {
  const ir::Module m = cse_entry(kExpsInLayouts, true);
  EXPECT_EQ(entry_size(m), 3u);
  EXPECT_EQ(root_operand(m, 0), root_operand(m, 1));
}

TEST(CseXla, FusionInternalCSE) {
  const ir::Module m = cse(
      "HloModule m\nfused {\n p0 = f32[] parameter(0)\n p1 = f32[] parameter(1)\n add1 = f32[] add(p0, p1)\n"
      " add2 = f32[] add(p0, p1)\n ROOT mul = f32[] multiply(add1, add2)\n}\n"
      "ENTRY e {\n p0 = f32[] parameter(0)\n p1 = f32[] parameter(1)\n"
      " ROOT fusion = f32[] fusion(p0, p1), kind=kLoop, calls=fused\n}\n",
      true);
  const ir::CompId fused = m.called(root(m)).at(0);
  EXPECT_EQ(m.instruction_count(fused), 4u);
  const InstrId mul = m.computation(fused).root;
  EXPECT_EQ(m.operand(mul, 0), m.operand(mul, 1));
}

TEST(CseXla, IdenticalExpressions) {
  const ir::Module m = cse_entry(
      " constant = f32[] constant(42)\n negate1 = f32[] negate(constant)\n exp1 = f32[] exponential(constant)\n"
      " add1 = f32[] add(negate1, exp1)\n negate2 = f32[] negate(constant)\n exp2 = f32[] exponential(constant)\n"
      " add2 = f32[] add(negate2, exp2)\n ROOT tuple = (f32[], f32[]) tuple(add1, add2)\n",
      true);
  EXPECT_EQ(entry_size(m), 5u);
  EXPECT_EQ(root_operand(m, 0), root_operand(m, 1));
  EXPECT_EQ(root_expression(m), "tuple(add(negate(constant(42)), exponential(constant(42))), "
                                "add(negate(constant(42)), exponential(constant(42))))");
}

TEST(CseXla, DoNotCombineRng) {
  const ir::Module m = cse_entry(
      " constant1 = f32[] constant(0)\n constant2 = f32[] constant(1)\n"
      " rng1 = f32[] rng(constant1, constant2), distribution=rng_uniform\n"
      " rng2 = f32[] rng(constant1, constant2), distribution=rng_uniform\n ROOT add = f32[] add(rng1, rng2)\n",
      false, Values::kSkip);
  EXPECT_NE(root_operand(m, 0), root_operand(m, 1));
}

TEST(CseXla, DoNotCombineCallsToImpureFunctions) {
  const ir::Module m = cse(
      "HloModule m\nrng_fun {\n constant1 = f32[] constant(0)\n constant2 = f32[] constant(1)\n"
      " rng = f32[] rng(constant1, constant2), distribution=rng_uniform\n param = f32[] parameter(0)\n"
      " ROOT add = f32[] add(rng, param)\n}\n"
      "ENTRY e {\n constant = f32[1] constant({5})\n rng1 = f32[1] map(constant), dimensions={0}, to_apply=rng_fun\n"
      " rng2 = f32[1] map(constant), dimensions={0}, to_apply=rng_fun\n ROOT add = f32[1] add(rng1, rng2)\n}\n",
      false, Values::kSkip);
  EXPECT_EQ(entry_size(m), 4u);
  EXPECT_EQ(root_expression(m), "add(map(constant), map(constant))");
}

TEST(CseXla, CompareComputations) {
  const ir::Module m = cse(
      "HloModule m\nadd_computation {\n add_lhs = f32[] parameter(0)\n add_rhs = f32[] parameter(1)\n"
      " ROOT add_root = f32[] add(add_lhs, add_rhs)\n}\n"
      "add_computation2 {\n add_lhs2 = f32[] parameter(0)\n add_rhs2 = f32[] parameter(1)\n"
      " ROOT add_root2 = f32[] add(add_lhs2, add_rhs2)\n}\n"
      "ENTRY entry {\n p = f32[10]{0} parameter(0)\n c = f32[] constant(0)\n"
      " r1 = f32[] reduce(p, c), dimensions={0}, to_apply=add_computation\n"
      " r2 = f32[] reduce(p, c), dimensions={0}, to_apply=add_computation2\n ROOT f2 = (f32[], f32[]) tuple(r1, r2)\n}\n",
      true);
  EXPECT_EQ(root_operand(m, 0), root_operand(m, 1));
}

// The interpreter has no domain: no value comparison.
TEST(CseXla, Domain) {
  const ir::Module m = cse_entry(
      " param = f32[] parameter(0), sharding={maximal device=0}\n"
      " domain.0 = f32[] domain(param), domain={kind=\"sharding\", entry={maximal device=0}, exit={maximal device=1}}\n"
      " domain.1 = f32[] domain(param), domain={kind=\"sharding\", entry={maximal device=0}, exit={maximal device=1}}\n"
      " domain.2 = f32[] domain(param), domain={kind=\"sharding\", entry={maximal device=0}, exit={maximal device=2}}\n"
      " negate.0 = f32[] negate(domain.0)\n negate.1 = f32[] negate(domain.1)\n negate.2 = f32[] negate(domain.2)\n"
      " domain.3 = f32[] domain(negate.0), domain={kind=\"sharding\", entry={maximal device=1}, exit={maximal device=0}}\n"
      " domain.4 = f32[] domain(negate.1), domain={kind=\"sharding\", entry={maximal device=1}, exit={maximal device=0}}\n"
      " domain.5 = f32[] domain(negate.2), domain={kind=\"sharding\", entry={maximal device=2}, exit={maximal device=0}}\n"
      " add = f32[] add(domain.3, domain.4)\n ROOT sub = f32[] subtract(add, domain.5)\n",
      true, Values::kSkip);
  const InstrId add = root_operand(m, 0);
  EXPECT_EQ(m.operand(add, 0), m.operand(add, 1));
  EXPECT_NE(m.operand(add, 0), root_operand(m, 1));
}

TEST(CseXla, Iota) {
  const ir::Module m = cse_entry(
      " i1 = s64[16,16] iota(), iota_dimension=0\n i2 = s64[16,16] iota(), iota_dimension=0\n"
      " i3 = s64[17,16] iota(), iota_dimension=0\n i4 = s64[16,16] iota(), iota_dimension=1\n"
      " ROOT root = (s64[16,16], s64[16,16], s64[17,16], s64[16,16]) tuple(i1, i2, i3, i4)\n",
      true);
  EXPECT_EQ(root_operand(m, 0), root_operand(m, 1));
  EXPECT_NE(root_operand(m, 0), root_operand(m, 2));
  EXPECT_NE(root_operand(m, 0), root_operand(m, 3));
}

TEST(CseXla, OptimizationBarrier) {
  cse_entry(
      " param.0 = f32[] parameter(0)\n param.1 = f32[] parameter(1)\n add.0 = f32[] add(param.0, param.1)\n"
      " cse_tmp.0 = (f32[], f32[], f32[]) tuple(param.0, param.1, add.0)\n"
      " cse_tmp.1 = (f32[], f32[], f32[]) opt-barrier(cse_tmp.0)\n"
      " param.0.1 = f32[] get-tuple-element(cse_tmp.1), index=0\n"
      " param.1.1 = f32[] get-tuple-element(cse_tmp.1), index=1\n"
      " add.0.1 = f32[] get-tuple-element(cse_tmp.1), index=2\n"
      " add.1 = f32[] add(param.0.1, param.1.1)\n ROOT add.2 = f32[] add(add.1, add.0.1)\n",
      false);
}

// XLA's HloCseCustomCallTest: op0 and op1 (the same text) always merge; op2 merges with
// them only when `should_cse`.
void custom_call_case(const std::string& op1, const std::string& op2, bool should_cse) {
  const ir::Module m = cse_entry(" p0 = f32[1,1,1] parameter(0)\n op0 = " + op1 + "\n op1 = " + op1 +
                                     "\n op2 = " + op2 + "\n ROOT root = tuple(op0, op1, op2)\n",
                                 true, Values::kSkip);
  EXPECT_EQ(root_operand(m, 0), root_operand(m, 1));
  if (should_cse) EXPECT_EQ(root_operand(m, 0), root_operand(m, 2));
  else EXPECT_NE(root_operand(m, 0), root_operand(m, 2));
}

const std::string kFoo = "f32[] custom-call(p0), custom_call_target=\"foo\"";

TEST(CseXla, CustomCallDoIt0) { custom_call_case(kFoo, kFoo + ", metadata={op_name=\"bar\"}", true); }
TEST(CseXla, CustomCallDoIt1) {
  custom_call_case(kFoo, "f32[] custom-call(p0, p0), custom_call_target=\"foo\"", false);
}
TEST(CseXla, CustomCallDoIt2) {
  custom_call_case("f32[1] custom-call(p0), custom_call_target=\"foo\"",
                   "f32[2] custom-call(p0), custom_call_target=\"foo\"", false);
}
TEST(CseXla, CustomCallDoIt3) {
  custom_call_case(kFoo, "f32[] custom-call(p0), custom_call_target=\"bar\"", false);
}
TEST(CseXla, CustomCallDoIt4) { custom_call_case(kFoo + ", window={size=1}", kFoo + ", window={size=2}", false); }
TEST(CseXla, CustomCallDoIt5) {
  custom_call_case(kFoo + ", dim_labels=b0f_0oi->b0f", kFoo + ", dim_labels=b0f_0oi->bf0", false);
}
TEST(CseXla, CustomCallDoIt6) {
  custom_call_case(kFoo + ", backend_config=\"foo\"", kFoo + ", backend_config=\"bar\"", false);
}
TEST(CseXla, CustomCallDoIt7) { custom_call_case(kFoo + ", literal=s32[] 0", kFoo + ", literal=s32[] 1", false); }
TEST(CseXla, CustomCallDoIt8) { custom_call_case(kFoo + ", literal=s32[] 0", kFoo + ", literal=f32[] 0", false); }
TEST(CseXla, CustomCallDoIt9) {
  custom_call_case(kFoo + ", operand_precision={high,default}", kFoo + ", operand_precision={high, high}", false);
}
TEST(CseXla, CustomCallDoIt10) {
  custom_call_case(kFoo + ", api_version=API_VERSION_STATUS_RETURNING", kFoo + ", api_version=API_VERSION_ORIGINAL",
                   false);
}
TEST(CseXla, CustomCallDoIt11) {
  custom_call_case(kFoo + ", feature_group_count=0", kFoo + ", feature_group_count=1", false);
}

TEST(CseXla, CustomCallCalledComputations) {
  cse("HloModule m\ncomp {\n lhs = f32[] parameter(0)\n rhs = f32[] parameter(1)\n"
      " ROOT maximum = f32[] maximum(lhs, rhs)\n}\n"
      "ENTRY entry {\n p0 = f32[] parameter(0)\n"
      " op0 = f32[] custom-call(p0), custom_call_target=\"foo\", called_computations={comp}\n"
      " op1 = f32[] custom-call(p0), custom_call_target=\"foo\", called_computations={comp, comp}\n"
      " ROOT root = (f32[], f32[]) tuple(op0, op1)\n}\n",
      false, Values::kSkip);
}

TEST(CseXla, CustomCallSideEffects) {
  cse_entry(" p0 = f32[] parameter(0)\n"
            " op0 = f32[] custom-call(p0), custom_call_target=\"foo\", custom_call_has_side_effect=true\n"
            " op1 = f32[] custom-call(p0), custom_call_target=\"foo\", custom_call_has_side_effect=true\n"
            " ROOT root = (f32[], f32[]) tuple(op0, op1)\n",
            false, Values::kSkip);
}

// XLA's HloCseCommutativeOpTest: op(p0, p1) and op(p1, p0) merge.
void commutative_case(const std::string& op) {
  const ir::Module m = cse_entry(" p0 = s32[10] parameter(0)\n p1 = s32[10] parameter(1)\n op1 = s32[10] " + op +
                                     "(p0, p1)\n op2 = s32[10] " + op + "(p1, p0)\n ROOT t = tuple(op1, op2)\n",
                                 true);
  EXPECT_EQ(root_operand(m, 0), root_operand(m, 1));
}

TEST(CseXla, CommutativeOpDoItAdd) { commutative_case("add"); }
TEST(CseXla, CommutativeOpDoItMultiply) { commutative_case("multiply"); }
TEST(CseXla, CommutativeOpDoItAnd) { commutative_case("and"); }
TEST(CseXla, CommutativeOpDoItOr) { commutative_case("or"); }
TEST(CseXla, CommutativeOpDoItXor) { commutative_case("xor"); }
TEST(CseXla, CommutativeOpDoItMinimum) { commutative_case("minimum"); }
TEST(CseXla, CommutativeOpDoItMaximum) { commutative_case("maximum"); }

}  // namespace
}  // namespace hlsgym::passes
