// Interpreter golden tests: small modules with results computed by hand, one or more per
// op family, including HLO's integer edge cases.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"
#include "ir/error.h"
#include "ir/evaluate_internal.h"
#include "ir/verifier.h"

namespace hlsgym::ir {
namespace {

// Parses `body` (computations, the last being the entry), verifies it, evaluates it on
// the given literal texts (one per parameter, as "shape:value") and returns the result
// printed as HLO literal text.
std::string run(const std::string& body, const std::vector<std::pair<std::string, std::string>>& args) {
  Module m = frontend::parse_hlo("HloModule t\n\n" + body, "golden.hlo");
  verify(m);
  std::vector<Literal> lits;
  for (const auto& [shape, value] : args)
    lits.push_back(frontend::parse_literal(value, frontend::parse_shape(shape)));
  return evaluate(m, lits).value.to_string();
}

const char* kAddS32 = "add {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n ROOT r = s32[] add(x, y)\n}\n";
const char* kAddF32 = "addf {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT r = f32[] add(x, y)\n}\n";
const char* kMaxF32 = "maxf {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT r = f32[] maximum(x, y)\n}\n";

std::string binop(const std::string& op, const std::string& shape) {
  return "ENTRY e {\n a = " + shape + " parameter(0)\n b = " + shape + " parameter(1)\n ROOT r = " + shape +
         " " + op + "(a, b)\n}\n";
}

TEST(EvaluateGolden, IntegerWrapAroundAndDivisionRules) {
  EXPECT_EQ(run(binop("add", "s8[2]"), {{"s8[2]", "{127, -128}"}, {"s8[2]", "{1, -1}"}}), "{-128, 127}");
  EXPECT_EQ(run(binop("multiply", "u8[2]"), {{"u8[2]", "{16, 255}"}, {"u8[2]", "{16, 255}"}}), "{0, 1}");
  // x / 0 = -1, INT_MIN / -1 = INT_MIN, truncation toward zero.
  EXPECT_EQ(run(binop("divide", "s32[3]"), {{"s32[3]", "{7, -2147483648, -7}"}, {"s32[3]", "{0, -1, 2}"}}),
            "{-1, -2147483648, -3}");
  EXPECT_EQ(run(binop("divide", "u32[1]"), {{"u32[1]", "{7}"}, {"u32[1]", "{0}"}}), "{4294967295}");
  // x % 0 = x, INT_MIN % -1 = 0, sign follows the dividend.
  EXPECT_EQ(run(binop("remainder", "s32[3]"), {{"s32[3]", "{7, -2147483648, -7}"}, {"s32[3]", "{0, -1, 2}"}}),
            "{7, 0, -1}");
}

TEST(EvaluateGolden, Shifts) {
  EXPECT_EQ(run(binop("shift-left", "s32[3]"), {{"s32[3]", "{1, 1, 3}"}, {"s32[3]", "{4, 32, 31}"}}),
            "{16, 0, -2147483648}");
  EXPECT_EQ(run(binop("shift-right-logical", "s32[2]"), {{"s32[2]", "{-16, -16}"}, {"s32[2]", "{2, 40}"}}),
            "{1073741820, 0}");
  EXPECT_EQ(run(binop("shift-right-arithmetic", "s32[3]"), {{"s32[3]", "{-16, -16, 16}"}, {"s32[3]", "{2, 40, 40}"}}),
            "{-4, -1, 0}");
}

TEST(EvaluateGolden, FloatsNanAndComparisons) {
  EXPECT_EQ(run(binop("maximum", "f32[2]"), {{"f32[2]", "{1, nan}"}, {"f32[2]", "{nan, 2}"}}), "{nan, nan}");
  EXPECT_EQ(run(binop("divide", "f32[2]"), {{"f32[2]", "{1, -1}"}, {"f32[2]", "{0, 0}"}}), "{inf, -inf}");
  const std::string total = "ENTRY e {\n a = f32[3] parameter(0)\n b = f32[3] parameter(1)\n"
                            " ROOT r = pred[3] compare(a, b), direction=LT, type=TOTALORDER\n}\n";
  EXPECT_EQ(run(total, {{"f32[3]", "{-0, 1, inf}"}, {"f32[3]", "{0, nan, nan}"}}), "{true, true, true}");
  const std::string plain = "ENTRY e {\n a = f32[2] parameter(0)\n b = f32[2] parameter(1)\n"
                            " ROOT r = pred[2] compare(a, b), direction=EQ\n}\n";
  EXPECT_EQ(run(plain, {{"f32[2]", "{-0, nan}"}, {"f32[2]", "{0, nan}"}}), "{true, false}");
  // bf16 rounds to nearest even: 1 + 2^-8 is a tie between 1 and 1 + 2^-7 -> 1.
  EXPECT_EQ(run(binop("add", "bf16[1]"), {{"bf16[1]", "{1}"}, {"bf16[1]", "{0.00390625}"}}), "{1}");
}

TEST(EvaluateGolden, ConvertSaturatesAndBitcast) {
  const std::string conv = "ENTRY e {\n a = f32[5] parameter(0)\n ROOT r = s8[5] convert(a)\n}\n";
  EXPECT_EQ(run(conv, {{"f32[5]", "{1.9, -1.9, 300, -300, nan}"}}), "{1, -1, 127, -128, 0}");
  const std::string bc = "ENTRY e {\n a = f32[1] parameter(0)\n ROOT r = s32[1] bitcast-convert(a)\n}\n";
  EXPECT_EQ(run(bc, {{"f32[1]", "{1}"}}), "{1065353216}");
}

TEST(EvaluateGolden, SelectClampAndLogic) {
  const std::string sel = "ENTRY e {\n p = pred[3] parameter(0)\n a = s32[3] parameter(1)\n b = s32[3] parameter(2)\n"
                          " ROOT r = s32[3] select(p, a, b)\n}\n";
  EXPECT_EQ(run(sel, {{"pred[3]", "{true, false, true}"}, {"s32[3]", "{1, 2, 3}"}, {"s32[3]", "{4, 5, 6}"}}),
            "{1, 5, 3}");
  const std::string clamp = "ENTRY e {\n lo = s32[] parameter(0)\n x = s32[4] parameter(1)\n hi = s32[] parameter(2)\n"
                            " ROOT r = s32[4] clamp(lo, x, hi)\n}\n";
  EXPECT_EQ(run(clamp, {{"s32[]", "-2"}, {"s32[4]", "{-5, -2, 3, 9}"}, {"s32[]", "4"}}), "{-2, -2, 3, 4}");
  const std::string nots = "ENTRY e {\n a = s8[2] parameter(0)\n ROOT r = s8[2] not(a)\n}\n";
  EXPECT_EQ(run(nots, {{"s8[2]", "{0, 5}"}}), "{-1, -6}");
  const std::string pc = "ENTRY e {\n a = u32[2] parameter(0)\n ROOT r = u32[2] popcnt(a)\n}\n";
  EXPECT_EQ(run(pc, {{"u32[2]", "{255, 4294967295}"}}), "{8, 32}");
}

TEST(EvaluateGolden, DataMovement) {
  EXPECT_EQ(run("ENTRY e {\n a = s32[2] parameter(0)\n ROOT r = s32[2,3] broadcast(a), dimensions={0}\n}\n",
                {{"s32[2]", "{1, 2}"}}), "{ {1, 1, 1}, {2, 2, 2} }");
  EXPECT_EQ(run("ENTRY e {\n a = s32[2,3] parameter(0)\n ROOT r = s32[3,2] transpose(a), dimensions={1,0}\n}\n",
                {{"s32[2,3]", "{ {1, 2, 3}, {4, 5, 6} }"}}), "{ {1, 4}, {2, 5}, {3, 6} }");
  EXPECT_EQ(run("ENTRY e {\n a = s32[6] parameter(0)\n ROOT r = s32[2] slice(a), slice={[1:5:2]}\n}\n",
                {{"s32[6]", "{0, 1, 2, 3, 4, 5}"}}), "{1, 3}");
  EXPECT_EQ(run("ENTRY e {\n a = s32[3] parameter(0)\n z = s32[] parameter(1)\n"
                " ROOT r = s32[6] pad(a, z), padding=1_0_1\n}\n",
                {{"s32[3]", "{1, 2, 3}"}, {"s32[]", "9"}}), "{9, 1, 9, 2, 9, 3}");
  EXPECT_EQ(run("ENTRY e {\n a = s32[4] parameter(0)\n z = s32[] parameter(1)\n"
                " ROOT r = s32[3] pad(a, z), padding=-2_1\n}\n",
                {{"s32[4]", "{1, 2, 3, 4}"}, {"s32[]", "0"}}), "{3, 4, 0}");
  EXPECT_EQ(run("ENTRY e {\n a = s32[2] parameter(0)\n b = s32[1] parameter(1)\n"
                " ROOT r = s32[3] concatenate(a, b), dimensions={0}\n}\n",
                {{"s32[2]", "{1, 2}"}, {"s32[1]", "{3}"}}), "{1, 2, 3}");
  EXPECT_EQ(run("ENTRY e {\n ROOT r = s32[2,3] iota(), iota_dimension=1\n}\n", {}), "{ {0, 1, 2}, {0, 1, 2} }");
  EXPECT_EQ(run("ENTRY e {\n a = s32[2,2] parameter(0)\n ROOT r = s32[2,2] reverse(a), dimensions={1}\n}\n",
                {{"s32[2,2]", "{ {1, 2}, {3, 4} }"}}), "{ {2, 1}, {4, 3} }");
}

TEST(EvaluateGolden, DynamicSliceClampsAndUpdateSlice) {
  const std::string ds = "ENTRY e {\n a = s32[5] parameter(0)\n i = s32[] parameter(1)\n"
                         " ROOT r = s32[2] dynamic-slice(a, i), dynamic_slice_sizes={2}\n}\n";
  EXPECT_EQ(run(ds, {{"s32[5]", "{0, 1, 2, 3, 4}"}, {"s32[]", "4"}}), "{3, 4}");   // clamped to 3
  EXPECT_EQ(run(ds, {{"s32[5]", "{0, 1, 2, 3, 4}"}, {"s32[]", "-7"}}), "{0, 1}");  // clamped to 0
  const std::string dus = "ENTRY e {\n a = s32[4] parameter(0)\n u = s32[2] parameter(1)\n i = s32[] parameter(2)\n"
                          " ROOT r = s32[4] dynamic-update-slice(a, u, i)\n}\n";
  EXPECT_EQ(run(dus, {{"s32[4]", "{0, 0, 0, 0}"}, {"s32[2]", "{7, 8}"}, {"s32[]", "1"}}), "{0, 7, 8, 0}");
}

TEST(EvaluateGolden, DotWithBatchDims) {
  // Two batches of [1,2]x[2,1].
  const std::string dot = "ENTRY e {\n a = s32[2,1,2] parameter(0)\n b = s32[2,2,1] parameter(1)\n"
                          " ROOT r = s32[2,1,1] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2},"
                          " rhs_batch_dims={0}, rhs_contracting_dims={1}\n}\n";
  EXPECT_EQ(run(dot, {{"s32[2,1,2]", "{ { {1, 2} }, { {3, 4} } }"}, {"s32[2,2,1]", "{ { {5}, {6} }, { {7}, {8} } }"}}),
            "{ { {17} }, { {53} } }");
}

TEST(EvaluateGolden, ConvolutionWithPaddingStrideAndGroups) {
  // 1-D, NWC: input [1,4,2] (2 channels), kernel [2,1,2] (width 2, 1 in-feature per group,
  // 2 out-features), feature_group_count=2, pad 1 on the left, stride 2.
  // Group 0 sees channel 0 (1,2,3,4), kernel taps (1,1): windows over (0,1),(2,3) -> 1, 5.
  // Group 1 sees channel 1 (10,20,30,40), kernel taps (1,-1): (0-10), (20-30) -> -10, -10.
  const std::string conv = "ENTRY e {\n x = s32[1,4,2] parameter(0)\n k = s32[2,1,2] parameter(1)\n"
                           " ROOT y = s32[1,2,2] convolution(x, k), window={size=2 stride=2 pad=1_0},"
                           " dim_labels=b0f_0io->b0f, feature_group_count=2\n}\n";
  EXPECT_EQ(run(conv, {{"s32[1,4,2]", "{ { {1, 10}, {2, 20}, {3, 30}, {4, 40} } }"},
                       {"s32[2,1,2]", "{ { {1, 1} }, { {1, -1} } }"}}),
            "{ { {1, -10}, {5, -10} } }");
}

TEST(EvaluateGolden, ReduceAndReduceWindow) {
  const std::string red = std::string(kAddS32) + "ENTRY e {\n a = s32[2,3] parameter(0)\n z = s32[] constant(0)\n"
                          " ROOT r = s32[2] reduce(a, z), dimensions={1}, to_apply=add\n}\n";
  EXPECT_EQ(run(red, {{"s32[2,3]", "{ {1, 2, 3}, {4, 5, 6} }"}}), "{6, 15}");
  const std::string rw = std::string(kMaxF32) + "ENTRY e {\n a = f32[4] parameter(0)\n z = f32[] constant(-inf)\n"
                         " ROOT r = f32[2] reduce-window(a, z), window={size=2 stride=2}, to_apply=maxf\n}\n";
  EXPECT_EQ(run(rw, {{"f32[4]", "{1, 5, -2, -3}"}}), "{5, -2}");
  const std::string rwp = std::string(kAddF32) + "ENTRY e {\n a = f32[3] parameter(0)\n z = f32[] constant(0)\n"
                          " ROOT r = f32[3] reduce-window(a, z), window={size=3 pad=1_1}, to_apply=addf\n}\n";
  EXPECT_EQ(run(rwp, {{"f32[3]", "{1, 2, 4}"}}), "{3, 7, 6}");
}

TEST(EvaluateGolden, SelectAndScatter) {
  const std::string ge = "ge {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT r = pred[] compare(x, y), direction=GE\n}\n";
  const std::string sas = ge + kAddF32 + "ENTRY e {\n a = f32[4] parameter(0)\n s = f32[2] parameter(1)\n"
                          " z = f32[] constant(0)\n ROOT r = f32[4] select-and-scatter(a, s, z),"
                          " window={size=2 stride=2}, select=ge, scatter=addf\n}\n";
  EXPECT_EQ(run(sas, {{"f32[4]", "{1, 5, 7, 3}"}, {"f32[2]", "{10, 20}"}}), "{0, 10, 20, 0}");
}

TEST(EvaluateGolden, GatherAndScatter) {
  // Rows 2 and 0 of a 3x2 matrix.
  const std::string gather = "ENTRY e {\n a = s32[3,2] parameter(0)\n i = s32[2,1] parameter(1)\n"
                             " ROOT r = s32[2,2] gather(a, i), offset_dims={1}, collapsed_slice_dims={0},"
                             " start_index_map={0}, index_vector_dim=1, slice_sizes={1,2}\n}\n";
  EXPECT_EQ(run(gather, {{"s32[3,2]", "{ {1, 2}, {3, 4}, {5, 6} }"}, {"s32[2,1]", "{ {2}, {0} }"}}),
            "{ {5, 6}, {1, 2} }");
  // Scatter-add 10 and 20 into positions 1 and 1 (duplicates accumulate), 99 out of bounds.
  const std::string scatter = std::string(kAddS32) + "ENTRY e {\n a = s32[3] parameter(0)\n i = s32[3,1] parameter(1)\n"
                              " u = s32[3] parameter(2)\n ROOT r = s32[3] scatter(a, i, u), update_window_dims={},"
                              " inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1,"
                              " to_apply=add\n}\n";
  EXPECT_EQ(run(scatter, {{"s32[3]", "{1, 1, 1}"}, {"s32[3,1]", "{ {1}, {1}, {99} }"}, {"s32[3]", "{10, 20, 30}"}}),
            "{1, 31, 1}");
}

TEST(EvaluateGolden, StableSortWithTwoOperands) {
  const std::string lt = "lt {\n a = s32[] parameter(0)\n b = s32[] parameter(1)\n c = s32[] parameter(2)\n"
                         " d = s32[] parameter(3)\n ROOT r = pred[] compare(a, b), direction=LT\n}\n";
  const std::string sort = lt + "ENTRY e {\n k = s32[4] parameter(0)\n v = s32[4] parameter(1)\n"
                           " ROOT r = (s32[4], s32[4]) sort(k, v), dimensions={0}, is_stable=true, to_apply=lt\n}\n";
  EXPECT_EQ(run(sort, {{"s32[4]", "{3, 1, 3, 0}"}, {"s32[4]", "{0, 1, 2, 3}"}}), "({0, 1, 3, 3}, {3, 1, 0, 2})");
}

TEST(EvaluateGolden, WhileSumsOneToTen) {
  const std::string w =
      "cond {\n s = (s32[], s32[]) parameter(0)\n i = s32[] get-tuple-element(s), index=0\n"
      " n = s32[] constant(10)\n ROOT c = pred[] compare(i, n), direction=LE\n}\n"
      "body {\n s = (s32[], s32[]) parameter(0)\n i = s32[] get-tuple-element(s), index=0\n"
      " acc = s32[] get-tuple-element(s), index=1\n one = s32[] constant(1)\n i2 = s32[] add(i, one)\n"
      " a2 = s32[] add(acc, i)\n ROOT t = (s32[], s32[]) tuple(i2, a2)\n}\n"
      "ENTRY e {\n one = s32[] constant(1)\n zero = s32[] constant(0)\n init = (s32[], s32[]) tuple(one, zero)\n"
      " w = (s32[], s32[]) while(init), condition=cond, body=body\n ROOT r = s32[] get-tuple-element(w), index=1\n}\n";
  EXPECT_EQ(run(w, {}), "55");
}

TEST(EvaluateGolden, ConditionalAndMap) {
  const std::string c =
      "neg {\n p = s32[] parameter(0)\n ROOT n = s32[] negate(p)\n}\n"
      "dbl {\n p = s32[] parameter(0)\n ROOT d = s32[] add(p, p)\n}\n"
      "ENTRY e {\n i = s32[] parameter(0)\n x = s32[] parameter(1)\n"
      " ROOT r = s32[] conditional(i, x, x), branch_computations={neg, dbl}\n}\n";
  EXPECT_EQ(run(c, {{"s32[]", "0"}, {"s32[]", "5"}}), "-5");
  EXPECT_EQ(run(c, {{"s32[]", "1"}, {"s32[]", "5"}}), "10");
  EXPECT_EQ(run(c, {{"s32[]", "7"}, {"s32[]", "5"}}), "10");  // out of range: last branch
  const std::string map = std::string(kAddS32) + "ENTRY e {\n a = s32[3] parameter(0)\n b = s32[3] parameter(1)\n"
                          " ROOT r = s32[3] map(a, b), dimensions={0}, to_apply=add\n}\n";
  EXPECT_EQ(run(map, {{"s32[3]", "{1, 2, 3}"}, {"s32[3]", "{10, 20, 30}"}}), "{11, 22, 33}");
}

TEST(EvaluateGolden, ThreefryKnownAnswers) {
  // Random123 known-answer vectors for threefry2x32 with 20 rounds.
  uint32_t x0 = 0x243f6a88, x1 = 0x85a308d3;
  eval::threefry2x32(0x13198a2e, 0x03707344, x0, x1);
  EXPECT_EQ(x0, 0xc4923a9cu);
  EXPECT_EQ(x1, 0x483df7a0u);
  uint32_t z0 = 0, z1 = 0;
  eval::threefry2x32(0, 0, z0, z1);
  EXPECT_EQ(z0, 0x6b200159u);
  EXPECT_EQ(z1, 0x99ba4efeu);
}

TEST(EvaluateGolden, UnsupportedOpIsAClearError) {
  Module m = frontend::parse_hlo("HloModule t\n\nENTRY e {\n a = f32[4] parameter(0)\n"
                                 " ROOT r = f32[4] custom-call(a), custom_call_target=\"Mystery\"\n}\n", "u.hlo");
  std::vector<Literal> args = random_inputs(m, 1);
  EvalOptions strict;
  strict.allow_placeholders = false;
  try {
    evaluate(m, args, strict);
    FAIL() << "expected an error";
  } catch (const hlsgym::Error& e) {
    EXPECT_NE(std::string(e.what()).find("u.hlo:5: r (custom-call)"), std::string::npos) << e.what();
  }
  EvalResult r = evaluate(m, args);  // with placeholders: deterministic, flagged
  EXPECT_TRUE(r.uses_placeholders);
  EXPECT_EQ(r.value, evaluate(m, args).value);
}

}  // namespace
}  // namespace hlsgym::ir
