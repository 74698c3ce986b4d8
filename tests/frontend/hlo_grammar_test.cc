// Issue 17: HLO text that XLA's parser accepts. An instruction written without a shape
// gets the one shape inference gives (XLA's parser does the same).
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "ir/error.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "tests/support/hlo_text.h"

namespace hlsgym::frontend {
namespace {

TEST(HloGrammar, OmittedShapesAreInferred) {
  ir::Module m = parse_hlo(
      "HloModule m\n\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = add(x, y)\n}\n\n"
      "ENTRY e {\n  a = f32[4,2] parameter(0)\n  b = negate(a)\n  t = transpose(b), dimensions={1,0}\n"
      "  z = f32[] constant(0)\n  r = reduce(t, z), dimensions={1}, to_apply=add\n  ROOT p = compare(r, r), direction=LT\n}\n",
      "m.hlo");
  ir::verify(m);
  const std::string text = ir::print_module(m);
  EXPECT_NE(text.find("t = f32[2,4] transpose("), std::string::npos) << text;
  EXPECT_NE(text.find("r = f32[2] reduce("), std::string::npos) << text;
  EXPECT_NE(text.find("p = pred[2] compare("), std::string::npos) << text;
}

TEST(HloGrammar, ShapesThatCannotBeInferredAreLocatedErrors) {
  auto error = [](const std::string& body) {
    try {
      parse_hlo("HloModule m\n\nENTRY e {\n" + body + "}\n", "m.hlo");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("NO ERROR");
  };
  EXPECT_EQ(error("  ROOT a = parameter(0)\n"), "m.hlo:4:12: instruction 'a' has no shape (and a parameter's cannot be inferred)");
  const std::string bad = error("  a = f32[4] parameter(0)\n  b = f32[5] parameter(1)\n  ROOT c = add(a, b)\n");
  EXPECT_EQ(bad.rfind("m.hlo:6:12: the omitted shape of 'c' cannot be inferred: add: operand shapes", 0), 0u) << bad;
}

// Attributes newer XLA writes (hlo_parser_test.cc's OriginalValue and Scan cases) are kept
// verbatim: scan is parsed and printed back, though the interpreter does not run it.
TEST(HloGrammar, NewerXlaAttributesAreKept) {
  const std::string text =
      "HloModule m\n\nadd_carry {\n  c = f32[] parameter(0)\n  x = f32[] parameter(1)\n  s = f32[] add(c, x)\n"
      "  ROOT t = (f32[], f32[]) tuple(s, s)\n}\n\n"
      "ENTRY e {\n  v = f32[5] parameter(0), origin={{\"v\"}}\n  z = f32[] constant(0)\n"
      "  ROOT s = (f32[5], f32[]) scan(v, z), dimensions={0}, to_apply=add_carry, num_carries=1, is_reverse=false, "
      "is_associative=true\n}\n\n";
  EXPECT_EQ(testing::print_round_trip(text), text);
}

}  // namespace
}  // namespace hlsgym::frontend
