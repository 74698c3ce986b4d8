// Which NaN an arithmetic op returns when both operands are NaN: the first operand's,
// quieted (x86's rule for the operands as written), in every build -- the RTL float
// units (rtl/float_units.h) are checked bit for bit against it.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"

namespace hlsgym::ir {
namespace {

uint64_t binary_bits(const std::string& op, const std::string& type, uint64_t a, uint64_t b) {
  const Module m = frontend::parse_hlo(
      "HloModule t\nENTRY e {\n  a = " + type + "[1] parameter(0)\n  b = " + type + "[1] parameter(1)\n  ROOT r = " +
      type + "[1] " + op + "(a, b)\n}\n");
  const Shape s = m.shape(m.computation(m.entry()).params[0]);
  std::vector<Literal> args{Literal(s), Literal(s)};
  args[0].set_bits(0, a);
  args[1].set_bits(0, b);
  return evaluate(m, args).value.get_bits(0);
}

TEST(EvaluateNan, BothOperandsNaNGiveTheFirstQuieted) {
  for (const char* op : {"add", "subtract", "multiply", "divide"}) {
    EXPECT_EQ(binary_bits(op, "f32", 0x7f800001, 0xffc00002), 0x7fc00001u) << op;
    EXPECT_EQ(binary_bits(op, "f32", 0xffc00002, 0x7f800001), 0xffc00002u) << op;
    EXPECT_EQ(binary_bits(op, "f64", 0x7ff0000000000001, 0xfff8000000000002), 0x7ff8000000000001u) << op;
    EXPECT_EQ(binary_bits(op, "bf16", 0x7f81, 0xffc2), 0x7fc1u) << op;
    EXPECT_EQ(binary_bits(op, "f16", 0xfc01, 0x7e02), 0xfe00u) << op;  // f16 keeps only the sign
  }
}

TEST(EvaluateNan, OneNaNOperandPropagatesQuieted) {
  for (const char* op : {"add", "subtract", "multiply", "divide"}) {
    EXPECT_EQ(binary_bits(op, "f32", 0x3f800000, 0xff800003), 0xffc00003u) << op;
    EXPECT_EQ(binary_bits(op, "f32", 0x7f800005, 0x3f800000), 0x7fc00005u) << op;
  }
}

}  // namespace
}  // namespace hlsgym::ir
