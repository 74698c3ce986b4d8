// Issue 17: an operand written as an instruction inline, as XLA's parser reads it
// (hlo_parser_test.cc's non-round-trip cases SimpleNesting, AmbiguousNames,
// TupleShapeInsideAnonymousInstr, MixAnonAndNonAnonOperands): the inner instruction is
// created before the outer one and named `<opcode>.anon`, `.anon.1`, ...
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"
#include "tests/support/hlo_text.h"

namespace hlsgym::frontend {
namespace {
using testing::hlo_error;
using testing::print_round_trip;

std::string entry(const std::string& body) { return "HloModule m\n\nENTRY e {\n" + body + "}\n\n"; }

TEST(HloNestedOperands, InlineInstructionsComeBeforeTheirUser) {
  EXPECT_EQ(print_round_trip(entry("  p0 = f32[12] parameter(0)\n"
                                   "  ROOT r = s32[3,4] convert(f32[3,4] reshape(f32[12] p0))\n")),
            entry("  p0 = f32[12] parameter(0)\n"
                  "  reshape.anon = f32[3,4] reshape(p0)\n"
                  "  ROOT r = s32[3,4] convert(reshape.anon)\n"));
}

TEST(HloNestedOperands, NestingWithinNestingAndInferredShapes) {
  EXPECT_EQ(print_round_trip(entry("  ROOT sum = subtract(f32[3] parameter(0), "
                                   "maximum(f32[3] parameter(1), abs(f32[3] parameter(2))))\n")),
            entry("  parameter.anon = f32[3] parameter(0)\n"
                  "  parameter.anon.1 = f32[3] parameter(1)\n"
                  "  parameter.anon.2 = f32[3] parameter(2)\n"
                  "  abs.anon = f32[3] abs(parameter.anon.2)\n"
                  "  maximum.anon = f32[3] maximum(parameter.anon.1, abs.anon)\n"
                  "  ROOT sum = f32[3] subtract(parameter.anon, maximum.anon)\n"));
}

// A name that is also an opcode is an operand unless '(' follows it.
TEST(HloNestedOperands, OpcodeNamesAsOperandsStayReferences) {
  EXPECT_EQ(print_round_trip(entry("  multiply = multiply(s32[2] parameter(0), s32[2] parameter(1))\n"
                                   "  ROOT out = tuple(multiply, multiply(multiply, multiply), s32[2]{0} %multiply)\n")),
            entry("  parameter.anon = s32[2] parameter(0)\n"
                  "  parameter.anon.1 = s32[2] parameter(1)\n"
                  "  multiply = s32[2] multiply(parameter.anon, parameter.anon.1)\n"
                  "  multiply.anon = s32[2] multiply(multiply, multiply)\n"
                  "  ROOT out = (s32[2], s32[2], s32[2]) tuple(multiply, multiply.anon, multiply)\n"));
}

// The attributes after the closing ')' are the outer instruction's.
TEST(HloNestedOperands, TupleShapedInlineOperand) {
  EXPECT_EQ(print_round_trip(entry("  ROOT g = get-tuple-element((pred[4], u8[4]) tuple(pred[4] parameter(0), "
                                   "u8[4] parameter(1))), index=1\n")),
            entry("  parameter.anon = pred[4] parameter(0)\n"
                  "  parameter.anon.1 = u8[4] parameter(1)\n"
                  "  tuple.anon = (pred[4], u8[4]) tuple(parameter.anon, parameter.anon.1)\n"
                  "  ROOT g = u8[4] get-tuple-element(tuple.anon), index=1\n"));
}

// Generated names avoid every name of the module, including ones written later.
TEST(HloNestedOperands, GeneratedNamesAvoidWrittenOnes) {
  const std::string text = print_round_trip(entry("  negate.anon = f32[] parameter(0)\n"
                                                  "  ROOT n = f32[] add(negate(negate.anon), negate.anon.1)\n"
                                                  "  negate.anon.1 = f32[] parameter(1)\n"));
  EXPECT_NE(text.find("negate.anon.2 = f32[] negate(negate.anon)"), std::string::npos) << text;
}

TEST(HloNestedOperands, InlineInstructionsAreEvaluatedLikeNamedOnes) {
  const ir::Module m = parse_hlo(entry("  ROOT r = f32[2] multiply(f32[2] constant({3, -1}), "
                                       "negate(f32[2] constant({2, 5})))\n"),
                                 "m.hlo");
  EXPECT_EQ(ir::evaluate(m, {}).value.to_string(), "{-6, 5}");
}

TEST(HloNestedOperands, MalformedInlineInstructionsAreLocated) {
  EXPECT_EQ(hlo_error(entry("  ROOT r = f32[2] negate(parameter(0))\n")),
            "m.hlo:4:26: an inline parameter has no shape (and a parameter's cannot be inferred)");
  EXPECT_EQ(hlo_error(entry("  ROOT r = f32[2] negate(f32[2] frobnicate(x))\n")), "m.hlo:4:33: unknown opcode 'frobnicate'");
  EXPECT_EQ(hlo_error(entry("  p = f32[2,3] parameter(0)\n  ROOT r = f32[2] negate(f32[2] reduce(p, p))\n")),
            "m.hlo:5:33: reduce needs dimensions={...} (an inline instruction has no attributes; give it a name)");
  EXPECT_EQ(hlo_error(entry("  ROOT r = f32[2] negate(f32[2] abs(f32[2] q))\n")), "m.hlo:4:44: undefined operand 'q'");
  EXPECT_EQ(hlo_error(entry("  ROOT r = f32[2] negate(f32[2] abs(f32[2] parameter(0))\n")),
            "m.hlo:5:1: expected ')' to close the operand list, got '}'");
}

}  // namespace
}  // namespace hlsgym::frontend
