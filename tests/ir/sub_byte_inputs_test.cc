// Sub-byte integer types (u2, u4, s2, s4): random inputs hold only the type's own bits,
// so what `run` prints, what compare sees and what the checker compares are one value.
#include <gtest/gtest.h>

#include <string>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"
#include "ir/verifier.h"

namespace hlsgym::ir {
namespace {

Module compare_module(const std::string& type, const std::string& direction) {
  Module m = frontend::parse_hlo("HloModule t\n\nENTRY e {\n  a = " + type + "[] parameter(0)\n  b = " + type +
                                     "[] parameter(1)\n  ROOT le = pred[] compare(b, a), direction=" + direction + "\n}\n",
                                 "t.hlo");
  verify(m);
  return m;
}

// The module: compare(b, a), direction=LE on u4 parameters printed a = 13, b = 2
// and b <= a = false on 25 of 40 seeds.
TEST(SubByteInputs, CompareAgreesWithThePrintedValuesOnEverySeed) {
  for (const char* type : {"u2", "u4", "s2", "s4"}) {
    const Module m = compare_module(type, "LE");
    for (uint64_t seed = 0; seed < 40; ++seed) {
      const std::vector<Literal> args = random_inputs(m, seed);
      const int64_t a = args[0].get_int(0), b = args[1].get_int(0);
      const bool le = evaluate(m, args).value.get_int(0) != 0;
      EXPECT_EQ(le, b <= a) << type << " seed " << seed << ": a = " << a << ", b = " << b;
    }
  }
}

TEST(SubByteInputs, RandomInputsStayInTheTypesRange) {
  for (const char* type : {"u2", "u4", "s2", "s4"}) {
    const Module m = compare_module(type, "EQ");
    const int bits = type[1] - '0';
    for (uint64_t seed = 0; seed < 40; ++seed)
      for (const Literal& l : random_inputs(m, seed)) {
        EXPECT_LT(l.get_bits(0), uint64_t{1} << bits) << type << " seed " << seed;
        // Equal values are equal literals (the checker compares stored bits).
        Literal copy(l.shape());
        copy.set_int(0, l.get_int(0));
        EXPECT_TRUE(copy == l) << type << " seed " << seed;
      }
  }
}

TEST(SubByteInputs, SetBitsKeepsOnlyTheTypesBits) {
  Literal u4(Shape::scalar(ElementType::kU4));
  u4.set_bits(0, 0xfd);  // 13 in the low four bits
  EXPECT_EQ(u4.get_bits(0), 13u);
  EXPECT_EQ(u4.get_int(0), 13);
  Literal s4(Shape::scalar(ElementType::kS4));
  s4.set_bits(0, 0xfe);
  EXPECT_EQ(s4.get_int(0), -2);
  EXPECT_EQ(s4.get_bits(0), 0xeu);
}

}  // namespace
}  // namespace hlsgym::ir
