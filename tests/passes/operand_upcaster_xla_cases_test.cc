// operand_upcaster: every case of XLA's operand_upcaster_test.cc (openxla/xla
// xla/service/operand_upcaster_test.cc at 16569562fc04a1d1eadcd6a79f2269c1ccf4c421): its
// one parameterized test ConvertInserted, one golden test per instantiation
// (<suite>_<index>, in gtest's order: S16U16, then the Combine()s S32, U32, BF16, F32 with
// the lhs type varying slowest, then NoUpcast). HLO in; the dot's operands (converted to
// the result type exactly when XLA's ShouldUpcast says so) out; the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {

// dot(p0: lhs[2,3], p1: rhs[3,2]) -> result[2,2]; `up_lhs` / `up_rhs`: XLA's
// ShouldUpcast(operand type, result type) (operand != result and the result is the
// higher precision type of the two), worked out per instantiation.
void upcast(const std::string& lhs, const std::string& rhs, const std::string& result, bool up_lhs, bool up_rhs) {
  const ir::Module m = testing::run_golden(
      "operand_upcaster",
      "HloModule module\nENTRY main {\n p0 = " + lhs + "[2,3]{1,0} parameter(0)\n p1 = " + rhs +
          "[3,2]{1,0} parameter(1)\n ROOT dot = " + result +
          "[2,2]{1,0} dot(p0, p1), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      up_lhs || up_rhs);
  const ir::InstrId dot = m.computation(m.entry()).root;
  const auto operand = [](bool up, int k) {
    const std::string p = "parameter(" + std::to_string(k) + ")";
    return up ? "convert(" + p + ")" : p;
  };
  EXPECT_EQ(testing::root_expression(m), "dot(" + operand(up_lhs, 0) + ", " + operand(up_rhs, 1) + ")");
  EXPECT_EQ(m.shape(dot).to_string(false), result + "[2,2]");
  EXPECT_EQ(m.shape(m.operand(dot, 0)).to_string(false), (up_lhs ? result : lhs) + "[2,3]");
  EXPECT_EQ(m.shape(m.operand(dot, 1)).to_string(false), (up_rhs ? result : rhs) + "[3,2]");
}

TEST(OperandUpcasterXla, ConvertInserted_S16U16_0) { upcast("s8", "s8", "s16", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_S16U16_1) { upcast("u8", "u8", "u16", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_S32_0) { upcast("s8", "s8", "s32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_S32_1) { upcast("s8", "u8", "s32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_S32_2) { upcast("s8", "s16", "s32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_S32_3) { upcast("u8", "s8", "s32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_S32_4) { upcast("u8", "u8", "s32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_S32_5) { upcast("u8", "s16", "s32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_S32_6) { upcast("s16", "s8", "s32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_S32_7) { upcast("s16", "u8", "s32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_S32_8) { upcast("s16", "s16", "s32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_U32_0) { upcast("u8", "u8", "u32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_U32_1) { upcast("u8", "u16", "u32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_U32_2) { upcast("u16", "u8", "u32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_U32_3) { upcast("u16", "u16", "u32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_BF16_0) { upcast("bf16", "bf16", "bf16", false, false); }
TEST(OperandUpcasterXla, ConvertInserted_BF16_1) { upcast("bf16", "s8", "bf16", false, true); }
TEST(OperandUpcasterXla, ConvertInserted_BF16_2) { upcast("bf16", "u8", "bf16", false, true); }
TEST(OperandUpcasterXla, ConvertInserted_BF16_3) { upcast("s8", "bf16", "bf16", true, false); }
TEST(OperandUpcasterXla, ConvertInserted_BF16_4) { upcast("s8", "s8", "bf16", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_BF16_5) { upcast("s8", "u8", "bf16", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_BF16_6) { upcast("u8", "bf16", "bf16", true, false); }
TEST(OperandUpcasterXla, ConvertInserted_BF16_7) { upcast("u8", "s8", "bf16", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_BF16_8) { upcast("u8", "u8", "bf16", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_F32_0) { upcast("bf16", "bf16", "f32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_F32_1) { upcast("bf16", "f16", "f32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_F32_2) { upcast("f16", "bf16", "f32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_F32_3) { upcast("f16", "f16", "f32", true, true); }
TEST(OperandUpcasterXla, ConvertInserted_NoUpcast_0) { upcast("f32", "f32", "bf16", false, false); }
TEST(OperandUpcasterXla, ConvertInserted_NoUpcast_1) { upcast("s32", "s32", "u32", false, false); }

}  // namespace
}  // namespace hlsgym::passes
