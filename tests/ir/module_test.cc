#include "ir/module.h"

#include <gtest/gtest.h>

namespace hlsgym::ir {
namespace {

TEST(Opcode, TableRoundTripsNames) {
  for (int i = 0; i < kOpcodeCount; ++i) {
    auto op = static_cast<Opcode>(i);
    auto back = opcode_from_name(name(op));
    ASSERT_TRUE(back.has_value()) << name(op);
    EXPECT_EQ(*back, op);
  }
  EXPECT_FALSE(opcode_from_name("frobnicate").has_value());
  EXPECT_EQ(kOpcodeCount, 136);
  EXPECT_TRUE(info(Opcode::kAdd).commutative);
  EXPECT_TRUE(info(Opcode::kExp).transcendental);
  EXPECT_FALSE(info(Opcode::kSubtract).commutative);
}

TEST(Module, BuildEditAndClone) {
  Module m("t");
  CompId c = m.add_computation("main");
  m.set_entry(c);
  Shape s(ElementType::kF32, {4});
  InstrId x = m.add_parameter(c, 0, s, "x");
  InstrId y = m.add_parameter(c, 1, s, "y");
  InstrId a = m.add_instruction(c, Opcode::kAdd, s, std::vector<InstrId>{x, y});
  InstrId n = m.add_instruction(c, Opcode::kNegate, s, std::vector<InstrId>{a});
  m.set_root(c, n);
  EXPECT_EQ(m.instruction_count(), 4u);
  ASSERT_EQ(m.users(x).size(), 1u);
  EXPECT_EQ(m.users(x)[0], a);

  Module copy = m.clone();
  // Editing the copy leaves the original untouched (payload copy-on-write).
  copy.mutable_payload(a).name = "renamed";
  InstrId mul = copy.add_instruction(c, Opcode::kMultiply, s, std::vector<InstrId>{x, x});
  copy.replace_all_uses(a, mul);
  copy.remove_instruction(a);
  EXPECT_EQ(m.name(a), "add.1");
  EXPECT_EQ(m.operand(n, 0), a);
  EXPECT_EQ(copy.operand(n, 0), mul);
  EXPECT_EQ(copy.instruction_count(), 4u);
  EXPECT_EQ(copy.users(x).size(), 1u);
  EXPECT_EQ(copy.users(x)[0], mul);

  auto order = copy.post_order(c);
  ASSERT_EQ(order.size(), 4u);
  EXPECT_EQ(order.back(), n);
}

TEST(Module, UniqueNamesAvoidParsedSuffixes) {
  Module m("t");
  m.note_name("add.41");
  EXPECT_EQ(m.unique_name("add"), "add.42");
}

TEST(Literal, PrintsNestedAndScalars) {
  Literal l(Shape(ElementType::kS32, {2, 2}));
  for (int i = 0; i < 4; ++i) l.set_int(i, i + 1);
  EXPECT_EQ(l.to_string(), "{ {1, 2}, {3, 4} }");
  EXPECT_EQ(Literal::scalar_double(ElementType::kBF16, 1.5).to_string(), "1.5");
  EXPECT_EQ(Literal::scalar_int(ElementType::kS8, 300).get_int(0), 44);
  EXPECT_EQ(Literal::scalar_int(ElementType::kU8, -1).get_int(0), 255);
}

}  // namespace
}  // namespace hlsgym::ir
