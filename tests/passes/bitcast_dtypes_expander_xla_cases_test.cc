// bitcast_dtypes_expander: every case of XLA's bitcast_dtypes_expander_test.cc (openxla/xla
// xla/service/bitcast_dtypes_expander_test.cc at 001918b7024cf5f020051a9d25d2dd57a5896aaa),
// each written as a golden test: XLA's HLO in; its FileCheck lines as the root pattern and
// element types out (XLA's instructions, expanded in place rather than in a called
// computation: listed); the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;

ir::Module expand(const std::string& module) {
  return testing::run_golden("bitcast_dtypes_expander", module, true);
}

InstrId root(const ir::Module& m) { return m.computation(m.entry()).root; }
std::string type_of(const ir::Module& m, InstrId i) { return m.shape(i).to_string(false); }

TEST(BitcastDtypesExpanderXla, S32toS8) {
  EXPECT_FALSE(testing::deliberate_difference("bitcast_dtypes_expander", "S32toS8").empty());
  const ir::Module m = expand(
      "HloModule bitcast_to_smaller\nENTRY main {\n p = s32[10] parameter(0)\n ROOT out = s8[10,4] bitcast-convert(p)\n}\n");
  EXPECT_EQ(testing::root_expression(m),
            "bitcast-convert(convert(and(shift-right-logical(bitcast-convert(broadcast(parameter(0))), "
            "multiply(broadcast(constant(8)), iota)), broadcast(constant(255)))))");
  const InstrId convert = m.operand(root(m), 0), and_ = m.operand(convert, 0);
  EXPECT_EQ(type_of(m, root(m)), "s8[10,4]");
  EXPECT_EQ(type_of(m, convert), "u8[10,4]");
  EXPECT_EQ(type_of(m, and_), "u32[10,4]");
  EXPECT_EQ(m.attrs(m.operand(m.operand(m.operand(and_, 0), 1), 1)).iota_dimension, 1);
}

TEST(BitcastDtypesExpanderXla, S8toS32) {
  EXPECT_FALSE(testing::deliberate_difference("bitcast_dtypes_expander", "S8toS32").empty());
  const ir::Module m = expand(
      "HloModule bitcast_to_larger\nENTRY main {\n p = s8[10,4] parameter(0)\n ROOT out = s32[10] bitcast-convert(p)\n}\n");
  EXPECT_EQ(testing::root_expression(m),
            "bitcast-convert(reduce(shift-left(convert(bitcast-convert(parameter(0))), "
            "multiply(broadcast(constant(8)), iota)), constant(0)))");
  const InstrId reduce = m.operand(root(m), 0), shift = m.operand(reduce, 0), convert = m.operand(shift, 0);
  EXPECT_EQ(type_of(m, root(m)), "s32[10]");
  EXPECT_EQ(type_of(m, reduce), "u32[10]");
  EXPECT_EQ(m.attrs(reduce).dimensions, std::vector<int64_t>{1});
  EXPECT_EQ(m.opcode(m.computation(m.called(reduce).at(0)).root), ir::Opcode::kOr);
  EXPECT_EQ(type_of(m, convert), "u32[10,4]");
  EXPECT_EQ(type_of(m, m.operand(convert, 0)), "u8[10,4]");
}

// XLA checks only that the rewrite happens (and does not crash).
TEST(BitcastDtypesExpanderXla, RewriteInsideWhileTest) {
  const ir::Module m = expand(
      "HloModule module\n"
      "body {\n p_body = (f32[2], s32[]) parameter(0)\n val1 = f32[2] get-tuple-element(p_body), index=0\n"
      " val2 = s32[] get-tuple-element(p_body), index=1\n const = s32[] constant(42)\n"
      " converted_val2 = s8[4] bitcast-convert(val2)\n converted_const = s8[4] bitcast-convert(const)\n"
      " add = s8[4] add(converted_val2, converted_const)\n out_add = s32[] bitcast-convert(add)\n"
      " ROOT root = (f32[2], s32[]) tuple(val1, out_add)\n}\n"
      "condition {\n p_cond = (f32[2], s32[]) parameter(0)\n gte = s32[] get-tuple-element(p_cond), index=1\n"
      " const = s32[] constant(42)\n ROOT result = pred[] compare(gte, const), direction=EQ\n}\n"
      "ENTRY entry {\n param.0 = f32[2] parameter(0)\n param.1 = s32[] parameter(1)\n"
      " while_init = (f32[2], s32[]) tuple(param.0, param.1)\n"
      " ROOT while = (f32[2], s32[]) while(while_init), condition=condition, body=body\n}\n");
  for (ir::CompId c : m.live_computations())  // every bitcast-convert left keeps the width
    for (InstrId i : m.instructions(c))
      if (m.opcode(i) == ir::Opcode::kBitcastConvert)
        EXPECT_EQ(ir::bit_width(m.shape(i).element_type()), ir::bit_width(m.shape(m.operand(i, 0)).element_type()));
}

}  // namespace
}  // namespace hlsgym::passes
