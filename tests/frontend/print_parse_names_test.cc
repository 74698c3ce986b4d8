// print∘parse is a fixed point for names the parser would read as syntax (an instruction
// named ROOT, a computation named ENTRY...), names with characters HLO names lack (a design
// named "my design") and empty literals (an f32[4,0] constant).
#include <gtest/gtest.h>

#include <string>

#include "frontend/hlo_parser.h"
#include "frontend/yaml_design.h"
#include "ir/error.h"
#include "ir/evaluate.h"
#include "ir/printer.h"
#include "ir/verifier.h"

namespace hlsgym::frontend {
namespace {

// Prints, parses, verifies and prints again: the two texts must be equal.
void expect_fixed_point(const ir::Module& m) {
  const std::string once = ir::print_module(m);
  ir::Module back;
  try {
    back = parse_hlo(once, "printed.hlo");
    ir::verify(back);
  } catch (const Error& e) {
    FAIL() << e.what() << "\n" << once;
  }
  EXPECT_EQ(ir::print_module(back), once);
}

TEST(PrintParseNames, InstructionNamedRoot) {
  const ir::Module m = load_yaml_design(
      "design: d\ninputs: {x: \"f32[2]\"}\nops:\n  - {name: ROOT, op: negate, args: [x]}\n"
      "  - {name: y, op: add, args: [ROOT, x]}\noutputs: [y]\n",
      "d.yaml").module;
  expect_fixed_point(m);
  const ir::Module root_is_root = load_yaml_design(
      "design: d\ninputs: {x: \"f32[2]\"}\nops:\n  - {name: ROOT, op: negate, args: [x]}\noutputs: [ROOT]\n", "d.yaml").module;
  expect_fixed_point(root_is_root);
}

TEST(PrintParseNames, DesignNamedWithASpace) {
  const ir::Module m =
      load_yaml_design("design: my design\ninputs: {x: \"f32[2]\"}\nops:\n  - {name: y, op: negate, args: [x]}\noutputs: [y]\n",
                       "d.yaml").module;
  const std::string text = ir::print_module(m);
  EXPECT_EQ(text.rfind("HloModule my_design\n", 0), 0u) << text;
  expect_fixed_point(m);
}

TEST(PrintParseNames, OpNamesWithOtherCharacters) {
  const ir::Module m = load_yaml_design(
      "design: d\ninputs: {\"x 1\": \"f32[2]\"}\nops:\n  - {name: \"9y\", op: negate, args: [\"x 1\"]}\noutputs: [\"9y\"]\n",
      "d.yaml").module;
  expect_fixed_point(m);
}

TEST(PrintParseNames, ComputationsNamedLikeKeywords) {
  const std::string text =
      "HloModule m\n\n%ENTRY {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n\n"
      "ENTRYx {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n\n"
      "ENTRY FileNames {\n  a = f32[4] parameter(0)\n  z = f32[] constant(0)\n"
      "  r = f32[] reduce(a, z), dimensions={0}, to_apply=%ENTRY\n  ROOT q = f32[] reduce(a, z), dimensions={0}, to_apply=ENTRYx\n}\n";
  const ir::Module m = parse_hlo(text, "k.hlo");
  ir::verify(m);
  EXPECT_EQ(m.computation(m.entry()).name, "FileNames");
  expect_fixed_point(m);
}

TEST(PrintParseNames, EmptyLiterals) {
  for (const char* type : {"f32[4,0]", "f32[0,4]", "s32[2,3,0]", "f32[0]", "pred[2,0,3]"}) {
    SCOPED_TRACE(type);
    const ir::Module m = load_yaml_design(std::string("design: d\nops:\n  - {name: c, op: constant, type: \"") + type +
                                              "\", value: 0}\noutputs: [c]\n",
                                          "d.yaml").module;
    expect_fixed_point(m);
  }
  const ir::Module m = parse_hlo("HloModule m\n\nENTRY e {\n  ROOT c = f32[4,0] constant({ {}, {}, {}, {} })\n}\n", "e.hlo");
  EXPECT_EQ(m.literal(m.computation(m.entry()).root).to_string(), "{ {}, {}, {}, {} }");
}

}  // namespace
}  // namespace hlsgym::frontend

namespace hlsgym::frontend {
namespace {

std::string load_error(const std::string& yaml) {
  try {
    load_yaml_design(yaml, "n.yaml");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

// Two YAML names that HLO text writes alike ("a b" and "a_b") would read back as one
// value: refused where the second is defined, naming both.
TEST(PrintParseNames, NamesThatPrintAlikeAreRefused) {
  const std::string e = load_error(
      "design: d\ninputs: {x: \"f32[2]\"}\nops:\n  - {name: a b, op: negate, args: [x]}\n"
      "  - {name: a_b, op: add, args: [a b, x]}\noutputs: [a_b]\n");
  EXPECT_NE(e.find("n.yaml:5:"), std::string::npos) << e;
  EXPECT_NE(e.find("'a_b' is written 'a_b' in HLO text, as 'a b' is"), std::string::npos) << e;
  const std::string input = load_error("design: d\ninputs: {x y: \"f32[2]\", x_y: \"f32[2]\"}\nops:\n"
                                       "  - {name: s, op: add, args: [x y, x_y]}\noutputs: [s]\n");
  EXPECT_NE(input.find("as 'x y' is"), std::string::npos) << input;
}

// The entry and the built-in combiners have the loader's names; a user computation may
// not take them (the printed module would hold two computations of one name).
TEST(PrintParseNames, ReservedComputationNamesAreRefused) {
  for (const char* name : {"main", "add_s32", "maximum_f32"}) {
    const std::string e = load_error(std::string("design: d\ninputs: {x: \"s32[2]\"}\ncomputations:\n  ") + name +
                                     ":\n    inputs: {a: s32, b: s32}\n    ops: [{name: r, op: add, args: [a, b]}]\n"
                                     "    outputs: [r]\nops:\n  - {name: s, op: add, args: [x, x]}\noutputs: [s]\n");
    EXPECT_NE(e.find("computation name '" + std::string(name) + "' is reserved"), std::string::npos) << e;
  }
  const std::string fine = load_error(
      "design: d\ninputs: {x: \"s32[2]\"}\ncomputations:\n  add_pairs:\n    inputs: {a: s32, b: s32}\n"
      "    ops: [{name: r, op: add, args: [a, b]}]\n    outputs: [r]\nops:\n  - {name: s, op: add, args: [x, x]}\n"
      "outputs: [s]\n");
  EXPECT_EQ(fine, "no error");
}

}  // namespace
}  // namespace hlsgym::frontend
