// slice-sinker: every case of XLA's slice_sinker_test.cc (openxla/xla
// xla/service/slice_sinker_test.cc at 001918b7024cf5f020051a9d25d2dd57a5896aaa), each
// written as a golden test: HLO in; the root's slices of the sunk op and their ranges, or
// no change, out; the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using testing::expression;

// slice-sinker once on ENTRY `body` (testing::run_golden's checks).
ir::Module sink(const std::string& body, bool expect_change) {
  return testing::run_golden("slice-sinker", "HloModule m\n\n" + body, expect_change);
}

// Root operand k as "ranges of expression", e.g. "[0:2:1][0:9:1] of add(parameter(0),
// parameter(1))" for a slice of an add of the parameters.
std::string sliced(const ir::Module& m, size_t k) {
  const InstrId s = m.operand(m.computation(m.entry()).root, k);
  if (m.opcode(s) != ir::Opcode::kSlice) return "not a slice: " + expression(m, s);
  std::string ranges;
  for (const ir::SliceDim& d : m.attrs(s).slice)
    ranges += "[" + std::to_string(d.start) + ":" + std::to_string(d.limit) + ":" + std::to_string(d.stride) + "]";
  return ranges + " of " + expression(m, m.operand(s, 0));
}

const std::string kAdd = "add(parameter(0), parameter(1))";
const std::string kMultiply = "multiply(parameter(0), parameter(1))";

// Two f32[8,9] parameters sliced into pieces `ranges` (HLO slice= text, result shape),
// piece k of both added; the root a tuple of the sums.
std::string added_pieces(const std::vector<std::pair<std::string, std::string>>& pieces) {
  std::string body = "ENTRY test {\n p0 = f32[8,9] parameter(0)\n p1 = f32[8,9] parameter(1)\n";
  std::string tuple_type, tuple_operands;
  for (size_t k = 0; k < pieces.size(); ++k) {
    const auto& [shape, ranges] = pieces[k];
    const std::string n = std::to_string(k);
    body += " s0" + n + " = f32" + shape + " slice(p0), slice=" + ranges + "\n s1" + n + " = f32" + shape +
            " slice(p1), slice=" + ranges + "\n add" + n + " = f32" + shape + " add(s0" + n + ", s1" + n + ")\n";
    tuple_type += (k ? ", f32" : "f32") + shape;
    tuple_operands += (k ? ", add" : "add") + n;
  }
  return body + " ROOT tuple = (" + tuple_type + ") tuple(" + tuple_operands + ")\n}\n";
}

TEST(SliceSinkerXla, TernaryOperation) {
  const ir::Module m = sink(
      "ENTRY test {\n p0 = pred[8,9] parameter(0)\n p1 = f32[8,9] parameter(1)\n p2 = f32[8,9] parameter(2)\n"
      " s00 = pred[2,9] slice(p0), slice={[0:2], [0:9]}\n s01 = pred[6,9] slice(p0), slice={[2:8], [0:9]}\n"
      " s10 = f32[2,9] slice(p1), slice={[0:2], [0:9]}\n s11 = f32[6,9] slice(p1), slice={[2:8], [0:9]}\n"
      " s20 = f32[2,9] slice(p2), slice={[0:2], [0:9]}\n s21 = f32[6,9] slice(p2), slice={[2:8], [0:9]}\n"
      " sel0 = f32[2,9] select(s00, s10, s20)\n sel1 = f32[6,9] select(s01, s11, s21)\n"
      " ROOT tuple = (f32[2,9], f32[6,9]) tuple(sel0, sel1)\n}\n",
      true);
  const std::string select = "select(parameter(0), parameter(1), parameter(2))";
  EXPECT_EQ(sliced(m, 0), "[0:2:1][0:9:1] of " + select);
  EXPECT_EQ(sliced(m, 1), "[2:8:1][0:9:1] of " + select);
}

TEST(SliceSinkerXla, OverlappingPartialSlicesBeneficial) {
  const ir::Module m = sink(
      added_pieces({{"[2,9]", "{[0:2], [0:9]}"}, {"[5,9]", "{[3:8], [0:9]}"}, {"[8,4]", "{[0:8], [0:4]}"}}), true);
  EXPECT_EQ(sliced(m, 0), "[0:2:1][0:9:1] of " + kAdd);
  EXPECT_EQ(sliced(m, 1), "[3:8:1][0:9:1] of " + kAdd);
  EXPECT_EQ(sliced(m, 2), "[0:8:1][0:4:1] of " + kAdd);
}

// Two ops of different opcodes on the same slice sources: two groups, each sunk.
const std::string kTwoPeerGroups =
    "ENTRY test {\n p0 = f32[8,9] parameter(0)\n p1 = f32[8,9] parameter(1)\n"
    " s00 = f32[2,9] slice(p0), slice={[0:2], [0:9]}\n s01 = f32[6,9] slice(p0), slice={[2:8], [0:9]}\n"
    " s02 = f32[8,2] slice(p0), slice={[0:8], [0:2]}\n s03 = f32[8,7] slice(p0), slice={[0:8], [2:9]}\n"
    " s10 = f32[2,9] slice(p1), slice={[0:2], [0:9]}\n s11 = f32[6,9] slice(p1), slice={[2:8], [0:9]}\n"
    " s12 = f32[8,2] slice(p1), slice={[0:8], [0:2]}\n s13 = f32[8,7] slice(p1), slice={[0:8], [2:9]}\n"
    " add0 = f32[2,9] add(s00, s10)\n add1 = f32[6,9] add(s01, s11)\n"
    " mul0 = f32[8,2] multiply(s02, s12)\n mul1 = f32[8,7] multiply(s03, s13)\n"
    " ROOT tuple = (f32[2,9], f32[6,9], f32[8,2], f32[8,7]) tuple(add0, add1, mul0, mul1)\n}\n";

TEST(SliceSinkerXla, SameSliceSourcesTwoPeerGroups) {
  const ir::Module m = sink(kTwoPeerGroups, true);
  EXPECT_EQ(sliced(m, 0), "[0:2:1][0:9:1] of " + kAdd);
  EXPECT_EQ(sliced(m, 1), "[2:8:1][0:9:1] of " + kAdd);
  EXPECT_EQ(sliced(m, 2), "[0:8:1][0:2:1] of " + kMultiply);
  EXPECT_EQ(sliced(m, 3), "[0:8:1][2:9:1] of " + kMultiply);
}

TEST(SliceSinkerXla, OverlappingMultipleSlices) {
  const ir::Module m = sink(
      added_pieces({{"[2,9]", "{[0:2], [0:9]}"}, {"[5,9]", "{[3:8], [0:9]}"}, {"[3,9]", "{[2:5], [0:9]}"}}), true);
  EXPECT_EQ(sliced(m, 0), "[0:2:1][0:9:1] of " + kAdd);
  EXPECT_EQ(sliced(m, 1), "[3:8:1][0:9:1] of " + kAdd);
  EXPECT_EQ(sliced(m, 2), "[2:5:1][0:9:1] of " + kAdd);
}

// 18 + 45 elements of 72: one add on the whole would compute more than the pieces.
TEST(SliceSinkerXla, DisjointedPartialSlices) {
  sink(added_pieces({{"[2,9]", "{[0:2], [0:9]}"}, {"[5,9]", "{[2:7], [0:9]}"}}), false);
}

TEST(SliceSinkerXla, OverlappingPartialSlicesNotBeneficial) {
  sink(added_pieces({{"[2,7]", "{[0:2], [0:7]}"}, {"[6,7]", "{[2:8], [0:7]}"}}), false);
}

TEST(SliceSinkerXla, DifferentOrderingOfSliceSources) {
  sink("ENTRY test {\n p0 = f32[8,7] parameter(0)\n p1 = f32[8,7] parameter(1)\n"
       " s00 = f32[2,7] slice(p0), slice={[0:2], [0:7]}\n s01 = f32[6,7] slice(p0), slice={[2:8], [0:7]}\n"
       " s10 = f32[2,7] slice(p1), slice={[0:2], [0:7]}\n s11 = f32[6,7] slice(p1), slice={[2:8], [0:7]}\n"
       " add0 = f32[2,7] add(s00, s10)\n add1 = f32[6,7] add(s11, s01)\n"
       " ROOT tuple = (f32[2,7], f32[6,7]) tuple(add0, add1)\n}\n",
       false);
}

TEST(SliceSinkerXla, SlicesFromDifferentIndices) {
  sink("ENTRY test {\n p0 = f32[8,9] parameter(0)\n p1 = f32[8,9] parameter(1)\n"
       " s00 = f32[4,9] slice(p0), slice={[0:4], [0:9]}\n s01 = f32[4,9] slice(p0), slice={[4:8], [0:9]}\n"
       " s10 = f32[4,9] slice(p1), slice={[0:4], [0:9]}\n s11 = f32[4,9] slice(p1), slice={[4:8], [0:9]}\n"
       " add0 = f32[4,9] add(s01, s10)\n add1 = f32[4,9] add(s00, s11)\n"
       " ROOT tuple = (f32[4,9], f32[4,9]) tuple(add0, add1)\n}\n",
       false);
}

TEST(SliceSinkerXla, DifferentOperator) {
  sink("ENTRY test {\n p0 = f32[8,9] parameter(0)\n p1 = f32[8,9] parameter(1)\n"
       " s00 = f32[2,9] slice(p0), slice={[0:2], [0:9]}\n s01 = f32[6,9] slice(p0), slice={[2:8], [0:9]}\n"
       " s10 = f32[2,9] slice(p1), slice={[0:2], [0:9]}\n s11 = f32[6,9] slice(p1), slice={[2:8], [0:9]}\n"
       " mul = f32[2,9] multiply(s00, s10)\n add = f32[6,9] add(s01, s11)\n"
       " ROOT tuple = (f32[2,9], f32[6,9]) tuple(mul, add)\n}\n",
       false);
}

TEST(SliceSinkerXla, SlicesWithMultiUsers) {
  const ir::Module m = sink(
      "ENTRY test {\n p0 = f32[8,9] parameter(0)\n p1 = f32[8,9] parameter(1)\n"
      " s00 = f32[2,9] slice(p0), slice={[0:2], [0:9]}\n s01 = f32[6,9] slice(p0), slice={[2:8], [0:9]}\n"
      " s10 = f32[2,9] slice(p1), slice={[0:2], [0:9]}\n s11 = f32[6,9] slice(p1), slice={[2:8], [0:9]}\n"
      " add0 = f32[2,9] add(s00, s10)\n add1 = f32[6,9] add(s01, s11)\n"
      " mul0 = f32[2,9] multiply(s00, s10)\n mul1 = f32[6,9] multiply(s01, s11)\n"
      " ROOT tuple = (f32[2,9], f32[6,9], f32[2,9], f32[6,9]) tuple(add0, add1, mul0, mul1)\n}\n",
      true);
  EXPECT_EQ(sliced(m, 0), "[0:2:1][0:9:1] of " + kAdd);
  EXPECT_EQ(sliced(m, 1), "[2:8:1][0:9:1] of " + kAdd);
  EXPECT_EQ(sliced(m, 2), "[0:2:1][0:9:1] of " + kMultiply);
  EXPECT_EQ(sliced(m, 3), "[2:8:1][0:9:1] of " + kMultiply);
}

TEST(SliceSinkerXla, NonElementWise) {
  sink("ENTRY test {\n p0 = f32[8] parameter(0)\n s00 = f32[2] slice(p0), slice={[0:2]}\n"
       " s01 = f32[6] slice(p0), slice={[2:8]}\n bc0 = f32[2,9] broadcast(s00), dimensions={0}\n"
       " bc1 = f32[6,9] broadcast(s01), dimensions={0}\n ROOT tuple = (f32[2,9], f32[6,9]) tuple(bc0, bc1)\n}\n",
       false);
}

TEST(SliceSinkerXla, SlicesWithNontrivialStrides) {
  const ir::Module m = sink(added_pieces({{"[4,9]", "{[0:7:2], [0:9]}"}, {"[4,9]", "{[1:8:2], [0:9]}"}}), true);
  EXPECT_EQ(sliced(m, 0), "[0:7:2][0:9:1] of " + kAdd);
  EXPECT_EQ(sliced(m, 1), "[1:8:2][0:9:1] of " + kAdd);
}

TEST(SliceSinkerXla, NotAllSliceOperand) {
  sink("ENTRY test {\n p0 = f32[8,9] parameter(0)\n p1 = f32[2,9] parameter(1)\n p2 = f32[6,9] parameter(2)\n"
       " s00 = f32[2,9] slice(p0), slice={[0:2], [0:9]}\n s01 = f32[6,9] slice(p0), slice={[2:8], [0:9]}\n"
       " abs0 = f32[2,9] abs(p1)\n abs1 = f32[6,9] abs(p2)\n add0 = f32[2,9] add(s00, abs0)\n"
       " add1 = f32[6,9] add(s01, abs1)\n ROOT tuple = (f32[2,9], f32[6,9]) tuple(add0, add1)\n}\n",
       false);
}

// The abs pieces sink first; then the adds' operands are slices of p0 and of abs(p1),
// and they sink too, in the same run.
TEST(SliceSinkerXla, Cascade) {
  const ir::Module m = sink(
      "ENTRY test {\n p0 = f32[8,9] parameter(0)\n p1 = f32[8,9] parameter(1)\n"
      " s00 = f32[2,9] slice(p0), slice={[0:2], [0:9]}\n s01 = f32[6,9] slice(p0), slice={[2:8], [0:9]}\n"
      " s10 = f32[2,9] slice(p1), slice={[0:2], [0:9]}\n s11 = f32[6,9] slice(p1), slice={[2:8], [0:9]}\n"
      " abs0 = f32[2,9] abs(s10)\n abs1 = f32[6,9] abs(s11)\n add0 = f32[2,9] add(s00, abs0)\n"
      " add1 = f32[6,9] add(s01, abs1)\n ROOT tuple = (f32[2,9], f32[6,9]) tuple(add0, add1)\n}\n",
      true);
  EXPECT_EQ(sliced(m, 0), "[0:2:1][0:9:1] of add(parameter(0), abs(parameter(1)))");
  EXPECT_EQ(sliced(m, 1), "[2:8:1][0:9:1] of add(parameter(0), abs(parameter(1)))");
}

TEST(SliceSinkerXla, SameOpcodeDifferentResultElementTypes) {
  sink("ENTRY test {\n p0 = f32[8,9] parameter(0)\n s00 = f32[2,9] slice(p0), slice={[0:2], [0:9]}\n"
       " s01 = f32[6,9] slice(p0), slice={[2:8], [0:9]}\n convert0 = s32[2,9] convert(s00)\n"
       " convert1 = s64[6,9] convert(s01)\n ROOT tuple = (s32[2,9], s64[6,9]) tuple(convert0, convert1)\n}\n",
       false);
}

}  // namespace
}  // namespace hlsgym::passes
