// Bad input: every malformed HLO or YAML design gives one hlsgym::Error whose text is
// "FILE:LINE[:COL]: message" — never a crash, a hang or another exception type.
#include <gtest/gtest.h>

#include <string>

#include "frontend/hlo_parser.h"
#include "frontend/yaml_design.h"
#include "ir/error.h"
#include "ir/verifier.h"

namespace hlsgym::frontend {
namespace {

struct Case {
  const char* name;
  std::string text;
  const char* expected;  // substring of the message
  int line;              // expected line (0: not checked)
};

std::string error_of_hlo(const std::string& text) {
  try {
    ir::Module m = parse_hlo(text, "in.hlo");
    ir::verify(m);
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("WRONG EXCEPTION TYPE: ") + e.what();
  }
  return "NO ERROR";
}

std::string error_of_yaml(const std::string& text) {
  try {
    load_yaml_design(text, "in.yaml");
  } catch (const Error& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("WRONG EXCEPTION TYPE: ") + e.what();
  }
  return "NO ERROR";
}

void check(const Case& c, const std::string& what, const char* file) {
  SCOPED_TRACE(c.name);
  EXPECT_NE(what.find(c.expected), std::string::npos) << what;
  if (c.line > 0) EXPECT_EQ(what.rfind(std::string(file) + ":" + std::to_string(c.line) + ":", 0), 0u) << what;
  else EXPECT_EQ(what.rfind(std::string(file) + ":", 0), 0u) << what;
}

const std::string kHead = "HloModule m\n\n";

TEST(BadHlo, EveryCaseIsOneLocatedError) {
  const Case cases[] = {
      {"empty file", "", "empty input", 1},
      {"no HloModule", "ENTRY e {\n}\n", "expected 'HloModule <name>'", 1},
      {"unknown opcode", kHead + "ENTRY e {\n  ROOT x = f32[2] frobnicate()\n}\n", "unknown opcode 'frobnicate'", 4},
      {"undefined operand", kHead + "ENTRY e {\n  ROOT x = f32[2] negate(y)\n}\n", "undefined operand 'y'", 4},
      {"duplicate name", kHead + "ENTRY e {\n  a = f32[] parameter(0)\n  a = f32[] parameter(1)\n  ROOT r = f32[] add(a, a)\n}\n",
       "defined twice", 5},
      {"bad element type", kHead + "ENTRY e {\n  ROOT a = f31[2] parameter(0)\n}\n", "unknown element type 'f31'", 4},
      {"bad dimension", kHead + "ENTRY e {\n  ROOT a = f32[2,x] parameter(0)\n}\n", "dimension size", 4},
      {"unterminated brace", kHead + "ENTRY e {\n  ROOT a = f32[] parameter(0)\n", "not closed", 3},
      {"unterminated string", kHead + "ENTRY e {\n  ROOT a = f32[] parameter(0), metadata={op_name=\"x}\n}\n", "unterminated", 4},
      {"unterminated comment", kHead + "/* never closed\nENTRY e {\n}\n", "unterminated /* comment", 3},
      {"literal too short", kHead + "ENTRY e {\n  ROOT c = s32[3] constant({1, 2})\n}\n", "needs 3", 4},
      {"literal too long", kHead + "ENTRY e {\n  ROOT c = s32[2] constant({1, 2, 3})\n}\n", "more than 2 elements", 4},
      {"bad literal value", kHead + "ENTRY e {\n  ROOT c = s32[] constant(abc)\n}\n", "expected an integer", 4},
      {"missing equals", kHead + "ENTRY e {\n  ROOT c f32[] parameter(0)\n}\n", "expected '='", 4},
      {"binary garbage", std::string("HloModule m\n\nENTRY e {\n\x01\x02\xff\xfe garbage\n}\n"), "binary data", 4},
      {"truncated", kHead + "ENTRY e {\n  ROOT c = f32[2] add(", "expected an operand name", 0},
      {"undefined computation", kHead + "ENTRY e {\n  a = f32[2] parameter(0)\n  z = f32[] constant(0)\n"
                                        "  ROOT r = f32[] reduce(a, z), dimensions={0}, to_apply=nope\n}\n",
       "undefined computation 'nope'", 6},
      {"bad direction", kHead + "ENTRY e {\n  a = f32[] parameter(0)\n  ROOT r = pred[] compare(a, a), direction=XX\n}\n",
       "direction must be one of", 5},
      {"bad slice syntax", kHead + "ENTRY e {\n  a = f32[4] parameter(0)\n  ROOT r = f32[2] slice(a), slice={0:2}\n}\n",
       "slice range", 5},
      {"shape mismatch (verifier)", kHead + "ENTRY e {\n  a = f32[4] parameter(0)\n  b = f32[5] parameter(1)\n"
                                            "  ROOT r = f32[4] add(a, b)\n}\n", "operand shapes f32[4] and f32[5] differ", 6},
      {"cycle (verifier)", kHead + "ENTRY e {\n  a = f32[4] parameter(0)\n  b = f32[4] add(a, c)\n  c = f32[4] add(a, b)\n"
                                   "  ROOT r = f32[4] negate(c)\n}\n", "cycle", 0},
      {"two entries", kHead + "ENTRY e {\n  ROOT a = f32[] parameter(0)\n}\nENTRY f {\n  ROOT a = f32[] parameter(0)\n}\n",
       "a second ENTRY", 6},
      // Found by fuzz_hlo_parser: a huge constant shape must not allocate before failing.
      {"huge constant", kHead + "ENTRY e {\n  ROOT c = f32[777777778] constant({1})\n}\n", "fewer values", 4},
      // Found by fuzz_hlo_parser: parameter(N) sized a table by N before any check.
      {"huge parameter number", kHead + "ENTRY e {\n  ROOT p = f32[] parameter(9999999999)\n}\n", "too large", 4},
      {"deep nesting", kHead + "ENTRY e {\n  ROOT a = " + std::string(200, '(') + "f32[]" + std::string(200, ')') +
                           " parameter(0)\n}\n", "nested too deeply", 4},
  };
  for (const auto& c : cases) check(c, error_of_hlo(c.text), "in.hlo");
}

const std::string kIn = "design: d\ninputs:\n  x: s32[4]\n";

TEST(BadYaml, EveryCaseIsOneLocatedError) {
  const Case cases[] = {
      {"malformed yaml", "design: d\ninputs: [x: {\n", "invalid YAML", 0},
      {"not a map", "- 1\n- 2\n", "must be a YAML map", 1},
      {"missing ops", kIn + "outputs: [x]\n", "missing key 'ops'", 0},
      {"unknown top key", kIn + "opps: []\n", "unknown key 'opps'", 4},
      {"unknown opcode", kIn + "ops:\n  - {name: y, op: ad, args: [x, x]}\noutputs: [y]\n", "did you mean 'add'", 5},
      {"undefined arg", kIn + "ops:\n  - {name: y, op: add, args: [x, z]}\noutputs: [y]\n", "argument 'z' is not an input", 5},
      {"forward reference", kIn + "ops:\n  - {name: y, op: negate, args: [w]}\n  - {name: w, op: negate, args: [x]}\noutputs: [y]\n",
       "argument 'w' is not an input or an earlier op", 5},
      {"duplicate name", kIn + "ops:\n  - {name: y, op: negate, args: [x]}\n  - {name: y, op: negate, args: [x]}\noutputs: [y]\n",
       "defined twice", 6},
      {"shape mismatch", "design: d\ninputs:\n  x: s32[4]\n  w: s32[5]\nops:\n  - {name: y, op: add, args: [x, w]}\noutputs: [y]\n",
       "op 'y': add: operand shapes s32[4] and s32[5] differ", 6},
      {"wrong arg count", kIn + "ops:\n  - {name: y, op: negate, args: [x, x]}\noutputs: [y]\n", "takes 1 args, has 2", 5},
      {"literal count", kIn + "ops:\n  - {name: c, op: constant, type: \"s32[3]\", value: [1, 2]}\noutputs: [c]\n", "needs 3", 5},
      {"unknown attribute", kIn + "ops:\n  - {name: y, op: negate, args: [x], colour: red}\noutputs: [y]\n",
       "unknown attribute 'colour'", 5},
      {"bad type", kIn + "ops:\n  - {name: y, op: convert, args: [x], type: \"q32[4]\"}\noutputs: [y]\n", "bad type 'q32[4]'", 5},
      {"convert without type", kIn + "ops:\n  - {name: y, op: convert, args: [x]}\noutputs: [y]\n", "give a type", 5},
      {"unknown to_apply", kIn + "ops:\n  - {name: z, op: constant, type: s32, value: 0}\n"
                                 "  - {name: y, op: reduce, args: [x, z], dimensions: [0], to_apply: frob}\noutputs: [y]\n",
       "to_apply 'frob'", 6},
      {"undefined output", kIn + "ops:\n  - {name: y, op: negate, args: [x]}\noutputs: [q]\n", "output 'q'", 6},
      {"empty ops", kIn + "ops: []\noutputs: [x]\n", "non-empty list", 4},
      {"op not a map", kIn + "ops:\n  - just a string\noutputs: [x]\n", "each op must be a map", 5},
      {"bad attribute value", kIn + "ops:\n  - {name: y, op: transpose, args: [x], dimensions: [a]}\noutputs: [y]\n",
       "bad value for dimensions", 5},
      {"binary garbage", std::string("\x01\x02\xff\xfe\x00garbage", 10), "", 0},
      // Found by fuzz_yaml_loader: dim_labels longer than the operands read out of bounds.
      {"conv labels vs rank", "design: d\ninputs:\n  x: s32[1,4,1]\n  k: s32[2,1,1]\nops:\n"
                              "  - {name: y, op: convolution, args: [x, k], window: \"{size=2}\", dim_labels: \"b0f_0io->b0f1\"}\n"
                              "outputs: [y]\n", "", 6},
  };
  for (const auto& c : cases) {
    const std::string what = error_of_yaml(c.text);
    SCOPED_TRACE(c.name);
    EXPECT_EQ(what.find("WRONG EXCEPTION"), std::string::npos) << what;
    EXPECT_NE(what, "NO ERROR");
    check(c, what, "in.yaml");
  }
}

TEST(BadHlo, ElidedHugeConstantParsesWithoutStorage) {
  ir::Module m = parse_hlo(kHead + "ENTRY e {\n  ROOT c = f32[1000000000] constant({...})\n}\n", "in.hlo");
  const ir::Literal& l = m.literal(m.computation(m.entry()).root);
  EXPECT_TRUE(l.elided());
  EXPECT_TRUE(l.bytes().empty());
}

}  // namespace
}  // namespace hlsgym::frontend
