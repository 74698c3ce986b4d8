// stable-sort-expander: XLA's stable_sort_expander_test.cc cases, written as golden tests
// (HLO in, the root pattern and the tie-breaking comparator out, or no change), each also
// checked against the interpreter. Shapes are smaller than XLA's so the interpreter is quick.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;
using testing::expression;
using testing::root_expression;

const auto parse = testing::parse_module;


// Runs the pass, checks the verifier, no dead instructions left behind and the
// interpreter's agreement; returns whether it reported a change.
bool expand(ir::Module& m) {
  const ir::Module before = m;
  const bool changed = testing::run_pass("stable-sort-expander", m);
  for (InstrId i : m.instructions(m.entry()))
    EXPECT_TRUE(!m.users(i).empty() || m.is_root(i) || m.opcode(i) == Opcode::kParameter)
        << "dead " << m.name(i) << "\n" << ir::print_module(m);
  testing::expect_same_outputs(before, m);
  return changed;
}

// Roots of two comparator expressions that are equal except that each parameter 2k is
// swapped with 2k+1 (XLA's IsSameComputationExceptParams).
bool same_except_swapped_params(const ir::Module& m, InstrId a, InstrId b) {
  if (m.opcode(a) != m.opcode(b) || m.operands(a).size() != m.operands(b).size()) return false;
  if (m.opcode(a) == Opcode::kParameter) return m.attrs(a).parameter_number == (m.attrs(b).parameter_number ^ 1);
  if (m.operands(a).empty()) return expression(m, a) == expression(m, b);
  for (size_t k = 0; k < m.operands(a).size(); ++k)
    if (!same_except_swapped_params(m, m.operand(a, k), m.operand(b, k))) return false;
  return true;
}

// XLA's CheckComputationHasTieBreaker: the comparator's root is
//   select(eq(less(a, b), less(b, a)), lt(iota_a, iota_b), less(a, b))
// with the iota's scalars at parameters 2·iota_operand and 2·iota_operand + 1.
void expect_tie_breaker(const ir::Module& m, InstrId sort, int64_t iota_operand) {
  const InstrId root = m.computation(m.called(sort).at(0)).root;
  ASSERT_EQ(m.opcode(root), Opcode::kSelect) << expression(m, root);
  const InstrId eq = m.operand(root, 0), tie = m.operand(root, 1);
  ASSERT_EQ(m.opcode(eq), Opcode::kCompare);
  EXPECT_EQ(m.attrs(eq).direction, ir::ComparisonDirection::kEq);
  ASSERT_EQ(m.opcode(tie), Opcode::kCompare);
  EXPECT_EQ(m.attrs(tie).direction, ir::ComparisonDirection::kLt);
  EXPECT_EQ(expression(m, tie), "compare(parameter(" + std::to_string(2 * iota_operand) + "), parameter(" +
                                    std::to_string(2 * iota_operand + 1) + "))");
  EXPECT_EQ(m.operand(root, 2), m.operand(eq, 0));
  EXPECT_TRUE(same_except_swapped_params(m, m.operand(eq, 0), m.operand(eq, 1)));
}

const std::string kLessF32S32 =
    "compare {\n p.0.lhs = f32[] parameter(0)\n p.0.rhs = f32[] parameter(1)\n p.1.lhs = s32[] parameter(2)\n"
    " p.1.rhs = s32[] parameter(3)\n ROOT lt = pred[] compare(p.0.lhs, p.0.rhs), direction=LT\n}\n";

// Keys compared through their bit pattern, as a total order on floats is often written.
const std::string kLessBitPattern =
    "compare {\n p.0.lhs = f32[] parameter(0)\n p.0.rhs = f32[] parameter(1)\n p.1.lhs = s32[] parameter(2)\n"
    " p.1.rhs = s32[] parameter(3)\n max = u32[] constant(2147483647)\n zero = s32[] constant(0)\n"
    " lhs.signed = s32[] bitcast-convert(p.0.lhs)\n lhs.unsigned = u32[] bitcast-convert(p.0.lhs)\n"
    " lhs.flipped = u32[] subtract(max, lhs.unsigned)\n lhs.flipped.signed = s32[] bitcast-convert(lhs.flipped)\n"
    " lhs.is_negative = pred[] compare(lhs.flipped.signed, zero), direction=LT\n"
    " lhs.converted = s32[] select(lhs.is_negative, lhs.flipped.signed, lhs.signed)\n"
    " rhs.signed = s32[] bitcast-convert(p.0.rhs)\n rhs.unsigned = u32[] bitcast-convert(p.0.rhs)\n"
    " rhs.flipped = u32[] subtract(max, rhs.unsigned)\n rhs.flipped.signed = s32[] bitcast-convert(rhs.flipped)\n"
    " rhs.is_negative = pred[] compare(rhs.flipped.signed, zero), direction=LT\n"
    " rhs.converted = s32[] select(rhs.is_negative, rhs.flipped.signed, rhs.signed)\n"
    " ROOT lt = pred[] compare(lhs.converted, rhs.converted), direction=LT\n}\n";

// Many ties: only the low 4 bits of the key take part.
const std::string kLessLowBits =
    "compare {\n p.0.lhs = s32[] parameter(0)\n p.0.rhs = s32[] parameter(1)\n mask = s32[] constant(15)\n"
    " lhs = s32[] and(p.0.lhs, mask)\n rhs = s32[] and(p.0.rhs, mask)\n"
    " ROOT lt = pred[] compare(lhs, rhs), direction=LT\n}\n";

// keys f32[4,16] sorted along `dimension` with a second operand `values`.
std::string keys_with(const std::string& comparator, const std::string& values, const std::string& stable,
                      const std::string& value_type = "s32") {
  return "HloModule permutation_sort\n\n" + comparator + "ENTRY sort_computation {\n keys = f32[4,16] parameter(0)\n" +
         values + " sort = (f32[4,16], " + value_type + "[4,16]) sort(keys, values), dimensions={1}, to_apply=compare" +
         stable + "\n ROOT gte = f32[4,16] get-tuple-element(sort), index=0\n}\n";
}

TEST(StableSortExpander, StabilizeSortReuseIotaOperand) {
  ir::Module m = parse(keys_with(kLessF32S32, " values = s32[4,16] iota(), iota_dimension=1\n", ", is_stable=true"));
  EXPECT_TRUE(expand(m));
  EXPECT_EQ(root_expression(m), "get-tuple-element(sort(parameter(0), iota))");
  expect_tie_breaker(m, m.operand(m.computation(m.entry()).root, 0), 1);
}

TEST(StableSortExpander, StabilizeSortReuseIotaOperandComplicatedComparison) {
  ir::Module m =
      parse(keys_with(kLessBitPattern, " values = s32[4,16] iota(), iota_dimension=1\n", ", is_stable=true"));
  EXPECT_TRUE(expand(m));
  EXPECT_EQ(root_expression(m), "get-tuple-element(sort(parameter(0), iota))");
  expect_tie_breaker(m, m.operand(m.computation(m.entry()).root, 0), 1);
}

TEST(StableSortExpander, StabilizeSortAddIotaOperandAndChangeRoot) {
  ir::Module m = parse("HloModule permutation_sort\n\n" + kLessF32S32 +
                       "ENTRY sort_computation {\n keys = f32[4,16] parameter(0)\n values = s32[4,16] parameter(1)\n"
                       " ROOT sort = (f32[4,16], s32[4,16]) sort(keys, values), dimensions={1}, to_apply=compare,"
                       " is_stable=true\n}\n");
  EXPECT_TRUE(expand(m));
  EXPECT_EQ(root_expression(m),
            "tuple(get-tuple-element(sort(parameter(0), parameter(1), iota)), "
            "get-tuple-element(sort(parameter(0), parameter(1), iota)))");
  const InstrId root = m.computation(m.entry()).root;
  EXPECT_EQ(m.operand(m.operand(root, 0), 0), m.operand(m.operand(root, 1), 0));  // one sort
  expect_tie_breaker(m, m.operand(m.operand(root, 0), 0), 2);
}

TEST(StableSortExpander, HonorIsStableFlag) {
  ir::Module m = parse(keys_with(kLessF32S32, " values = s32[4,16] iota(), iota_dimension=1\n", ", is_stable=false"));
  const std::string before = ir::print_module(m);
  EXPECT_FALSE(expand(m));
  EXPECT_EQ(ir::print_module(m), before);
}

// An iota along another dimension, or of another type, cannot break ties: a new one is added.
TEST(StableSortExpander, StabilizeSortDontReuseIotaOperandWrongDimension) {
  ir::Module m = parse(keys_with(kLessF32S32, " values = s32[4,16] iota(), iota_dimension=0\n", ", is_stable=true"));
  EXPECT_TRUE(expand(m));
  EXPECT_EQ(root_expression(m), "get-tuple-element(sort(parameter(0), iota, iota))");
  expect_tie_breaker(m, m.operand(m.computation(m.entry()).root, 0), 2);
}

TEST(StableSortExpander, StabilizeSortDontReuseIotaOperandWrongType) {
  const std::string less_f32_f32 =
      "compare {\n p.0.lhs = f32[] parameter(0)\n p.0.rhs = f32[] parameter(1)\n p.1.lhs = f32[] parameter(2)\n"
      " p.1.rhs = f32[] parameter(3)\n ROOT lt = pred[] compare(p.0.lhs, p.0.rhs), direction=LT\n}\n";
  ir::Module m = parse(
      keys_with(less_f32_f32, " values = f32[4,16] iota(), iota_dimension=1\n", ", is_stable=true", "f32"));
  EXPECT_TRUE(expand(m));
  EXPECT_EQ(root_expression(m), "get-tuple-element(sort(parameter(0), iota, iota))");
  expect_tie_breaker(m, m.operand(m.computation(m.entry()).root, 0), 2);
}

TEST(StableSortExpander, StabilizeSortR1) {
  ir::Module m = parse("HloModule permutation_sort\n\n" + kLessLowBits +
                       "ENTRY sort_computation {\n keys = s32[16,4] parameter(0)\n"
                       " ROOT sort = s32[16,4] sort(keys), dimensions={0}, to_apply=compare, is_stable=true\n}\n");
  EXPECT_TRUE(expand(m));
  EXPECT_EQ(root_expression(m), "get-tuple-element(sort(parameter(0), iota))");
  expect_tie_breaker(m, m.operand(m.computation(m.entry()).root, 0), 1);
}

TEST(StableSortExpander, StabilizeSortR1NoRoot) {
  ir::Module m = parse("HloModule permutation_sort\n\n" + kLessLowBits +
                       "ENTRY sort_computation {\n keys = s32[16,4] parameter(0)\n"
                       " sort = s32[16,4] sort(keys), dimensions={0}, to_apply=compare, is_stable=true\n"
                       " ROOT neg = s32[16,4] negate(sort)\n}\n");
  EXPECT_TRUE(expand(m));
  EXPECT_EQ(root_expression(m), "negate(get-tuple-element(sort(parameter(0), iota)))");
  expect_tie_breaker(m, m.operand(m.operand(m.computation(m.entry()).root, 0), 0), 1);
}

}  // namespace
}  // namespace hlsgym::passes
