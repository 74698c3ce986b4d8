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

// A count that overflows 64 bits saturates instead of wrapping (to -8 here), so the
// callers' "too large" checks refuse it.
TEST(Shape, SizesThatOverflowSaturate) {
  const Shape big(ElementType::kF32, {INT64_MAX, 8});
  EXPECT_EQ(big.element_count(), INT64_MAX);
  EXPECT_EQ(big.byte_size(), INT64_MAX);
  EXPECT_EQ(Shape(ElementType::kF32, {int64_t{1} << 62}).byte_size(), INT64_MAX);
  EXPECT_EQ(Shape(ElementType::kF32, {INT64_MAX, 0}).element_count(), 0);
  EXPECT_EQ(Shape::tuple({big, big}).byte_size(), INT64_MAX);
  EXPECT_EQ(Shape(ElementType::kF32, {3, 4}).byte_size(), 48);
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

namespace hlsgym::ir {
namespace {

// Issue 17: 10^6 instructions sharing one constant took 100 s to load, because linking
// an operand searched the constant's whole user list. Linking, replacing uses and
// removing (latest first, as dead-code elimination does) are now O(operands) per
// instruction. Not a timing: quadratic work here is ~10^12 steps (many minutes, caught
// by ctest's timeout), linear work takes about a second.
TEST(ModuleUseLists, AMillionUsersOfOneConstantAreLinear) {
  Module m("hub");
  const CompId c = m.add_computation("e");
  const InstrId p = m.add_parameter(c, 0, Shape::scalar(ElementType::kF32), "p");
  const InstrId k = m.add_instruction(c, Opcode::kNegate, Shape::scalar(ElementType::kF32), std::vector<InstrId>{p}, {}, "k");
  constexpr int kUsers = 1'000'000;
  std::vector<InstrId> users;
  users.reserve(kUsers);
  for (int u = 0; u < kUsers; ++u)
    // add(k, k): an operand named twice must not make unlinking scan the list twice.
    users.push_back(m.add_instruction(c, Opcode::kAdd, Shape::scalar(ElementType::kF32), std::vector<InstrId>{k, k}, {}, ""));
  m.set_root(c, users[0]);
  m.set_entry(c);
  EXPECT_EQ(m.users(k).size(), static_cast<size_t>(kUsers));
  // Every user moves to p and back: replace_all_uses is O(users of the replaced one).
  const InstrId k2 = m.add_instruction(c, Opcode::kNegate, Shape::scalar(ElementType::kF32), std::vector<InstrId>{p}, {}, "k2");
  m.replace_all_uses(k, k2);
  EXPECT_EQ(m.users(k2).size(), static_cast<size_t>(kUsers));
  EXPECT_TRUE(m.users(k).empty());
  for (int u = kUsers - 1; u >= 1; --u) m.remove_instruction(users[static_cast<size_t>(u)]);
  EXPECT_EQ(m.users(k2).size(), 1u);
  EXPECT_EQ(m.users(p).size(), 2u);  // k and k2
}

}  // namespace
}  // namespace hlsgym::ir
