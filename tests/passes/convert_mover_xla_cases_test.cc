// convert-mover: every case of XLA's convert_mover_test.cc (openxla/xla
// xla/hlo/transforms/simplifiers/convert_mover_test.cc at
// 64c925bc590fe60eefa2b260af82d7bd9025f0b8; the file is not under xla/service/ at the
// commits the other rows read), each a golden test: XLA's HLO text in (nested operands as
// XLA writes them); the root pattern with the converts' element types, or no change, out;
// the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {
using testing::root_expression;

ir::Module move(const std::string& entry, bool expect_change) {
  return testing::run_golden("convert-mover", "HloModule module\n" + entry, expect_change);
}

// The element type of the entry root's operand path `path` (XLA's WithElementType).
std::string type_at(const ir::Module& m, std::initializer_list<size_t> path) {
  ir::InstrId i = m.computation(m.entry()).root;
  for (size_t k : path) i = m.operand(i, k);
  return std::string(ir::element_type_name(m.shape(i).element_type()));
}

TEST(ConvertMoverXla, MoveDownThroughConcat) {
  const ir::Module m = move(
      "ENTRY main {\n ROOT root = concatenate(f32[10] convert(f16[10] parameter(0)),\n"
      "   f32[10] convert(f16[10] parameter(1))), dimensions={0}\n}\n",
      true);
  EXPECT_EQ(root_expression(m), "convert(concatenate(parameter(0), parameter(1)))");
  EXPECT_EQ(type_at(m, {}), "f32");
}

TEST(ConvertMoverXla, NoMoveDownThroughConcatWithDifferentSrcTypes) {
  move("ENTRY main {\n ROOT root = concatenate(f32[10] convert(bf16[10] parameter(0)),\n"
       "   f32[10] convert(f16[10] parameter(1))), dimensions={0}\n}\n",
       false);
}

TEST(ConvertMoverXla, MoveUpReshape) {
  const ir::Module m =
      move("ENTRY main {\n ROOT root = f16[10,10] convert(f32[10,10] reshape(f32[100] parameter(0)))\n}\n", true);
  EXPECT_EQ(root_expression(m), "reshape(convert(parameter(0)))");
  EXPECT_EQ(type_at(m, {0}), "f16");
}

TEST(ConvertMoverXla, MoveUpTwoTransposes) {
  const ir::Module m = move(
      "ENTRY main {\n t1 = transpose(f32[3,4] parameter(0)), dimensions={1,0}\n"
      " t2 = transpose(t1), dimensions={1,0}\n ROOT root = f16[3,4] convert(t2)\n}\n",
      true);
  EXPECT_EQ(root_expression(m), "transpose(transpose(convert(parameter(0))))");
  EXPECT_EQ(type_at(m, {0, 0}), "f16");
}

TEST(ConvertMoverXla, MoveDownTwoSlices) {
  const ir::Module m = move(
      "ENTRY main {\n slice1 = f32[9] slice(f32[10] convert(f16[10] parameter(0))), slice={[0:9]}\n"
      " ROOT slice2 = f32[8] slice(slice1), slice={[0:8]}\n}\n",
      true);
  EXPECT_EQ(root_expression(m), "convert(slice(slice(parameter(0))))");
  EXPECT_EQ(type_at(m, {}), "f32");
}

TEST(ConvertMoverXla, MoveDownC64) {
  const ir::Module m = move(
      "ENTRY main {\n ROOT root = concatenate(c64[10] convert(f32[10] parameter(0)),\n"
      "   c64[10] convert(f32[10] parameter(1))), dimensions={0}\n}\n",
      true);
  EXPECT_EQ(root_expression(m), "convert(concatenate(parameter(0), parameter(1)))");
  EXPECT_EQ(type_at(m, {}), "c64");
}

// The complex constant has no lossless f32 form.
TEST(ConvertMoverXla, MoveDownC64Constant) {
  move("ENTRY main {\n ROOT root = concatenate(c64[2] convert(f32[2] parameter(0)),\n"
       "   c64[2] convert(f32[2] parameter(1)), c64[2] constant({(1,1), (-1,-1)})), dimensions={0}\n}\n",
       false);
}

// pad(parameter(0): wide[8], constant(value)) converted to `narrow`: both pad operands
// are converted instead, and the pad runs on `narrow`.
void expect_convert_moved_above_pad(const std::string& wide, const std::string& narrow, const std::string& value) {
  const ir::Module m = move("ENTRY main {\n pad = " + wide + "[10] pad(" + wide + "[8] parameter(0), " + wide +
                                "[] constant(" + value + ")), padding=1_1\n ROOT root = " + narrow +
                                "[10] convert(pad)\n}\n",
                            true);
  EXPECT_EQ(root_expression(m), "pad(convert(parameter(0)), convert(constant(" + value + ")))");
  EXPECT_EQ(type_at(m, {0}), narrow);
  EXPECT_EQ(type_at(m, {1}), narrow);
}

TEST(ConvertMoverXla, MoveUpPad) { expect_convert_moved_above_pad("f32", "f16", "0"); }

// The out-of-range constant does not stop the narrowing convert moving above the pad.
TEST(ConvertMoverXla, MoveUpPadWithOutOfRangeConstant) { expect_convert_moved_above_pad("s32", "s8", "1000"); }

TEST(ConvertMoverXla, MoveDownPad) {
  const ir::Module m = move(
      "ENTRY main {\n ROOT pad = f32[10] pad(f32[8] convert(f16[8] parameter(0)), f32[] constant(0)),\n"
      "   padding=1_1\n}\n",
      true);
  EXPECT_EQ(root_expression(m), "convert(pad(parameter(0), convert(constant(0))))");
  EXPECT_EQ(type_at(m, {}), "f32");
  EXPECT_EQ(type_at(m, {0, 1}), "f16");
}

TEST(ConvertMoverXla, NoMoveDownPadBecauseConstantIsOutOfRange) {
  move("ENTRY main {\n ROOT pad = f32[10] pad(f32[8] convert(f16[8] parameter(0)), f32[] constant(1e9)),\n"
       "   padding=1_1\n}\n",
       false);
}

}  // namespace
}  // namespace hlsgym::passes
