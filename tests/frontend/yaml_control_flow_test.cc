// while and conditional in YAML: `condition:`/`body:` and `branches:` name computations
// under `computations:`; the module equals its HLO text (print, parse, print is the same
// text and every output the same value), and a missing or misplaced name is one located
// error. (tests/hwmodel/yaml_loop_test.cc: the hardware model costs the loop by its trips.)
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "frontend/load.h"
#include "frontend/yaml_design.h"
#include "ir/error.h"
#include "ir/evaluate.h"
#include "ir/printer.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {

TEST(YamlControlFlow, WhileAndConditionalEqualTheirHloText) {
  const frontend::Design d = frontend::load_design((source_dir() / "designs" / "loops" / "counted_sum.yaml").string());
  const std::string text = ir::print_module(d.module);
  const ir::Module again = frontend::parse_hlo(text, "again.hlo");
  EXPECT_EQ(ir::print_module(again), text);
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const auto args = ir::random_inputs(d.module, seed);
    EXPECT_EQ(ir::evaluate(d.module, args).value, ir::evaluate(again, args).value) << seed;
  }
  // x + 0 + 1 + ... + 9, negated when flip is true
  const auto args = ir::random_inputs(d.module, 3);
  const ir::Literal& x = args[0];
  const bool flip = args[1].get_bits(0) != 0;
  const ir::Literal y = ir::evaluate(d.module, args).value;
  for (int64_t k = 0; k < 8; ++k) {
    const int32_t want = static_cast<int32_t>(static_cast<uint32_t>(x.get_bits(k)) + 45u);
    EXPECT_EQ(static_cast<int32_t>(y.get_bits(k)), flip ? -want : want) << k;
  }
}

std::string error_of(const std::string& yaml) {
  try {
    frontend::load_yaml_design(yaml, "cf.yaml");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(YamlControlFlow, MissingOrMisplacedNamesAreLocatedErrors) {
  const std::string head = R"(design: cf
inputs: {x: s32}
computations:
  c:
    inputs: {s: s32}
    ops: [{name: k, op: constant, value: 3, type: s32}, {name: lt, op: compare, args: [s, k], direction: LT}]
    outputs: [lt]
  b:
    inputs: {s: s32}
    ops: [{name: one, op: constant, value: 1, type: s32}, {name: s1, op: add, args: [s, one]}]
    outputs: [s1]
ops:
)";
  EXPECT_NE(error_of(head + "  - {name: w, op: while, args: [x], condition: c}\noutputs: [w]\n").find(
                "cf.yaml:13:5: op 'w': a while needs condition: and body:"),
            std::string::npos);
  EXPECT_NE(error_of(head + "  - {name: w, op: while, args: [x], condition: c, body: nope}\noutputs: [w]\n").find(
                "body 'nope' is not defined under computations:"),
            std::string::npos);
  EXPECT_NE(error_of(head + "  - {name: a, op: add, args: [x, x], body: b}\noutputs: [a]\n").find(
                "'body' applies to while only"),
            std::string::npos);
  EXPECT_NE(error_of(head + "  - {name: k, op: conditional, args: [x, x]}\noutputs: [k]\n").find(
                "a conditional needs branches:"),
            std::string::npos);
  EXPECT_EQ(error_of(head + "  - {name: w, op: while, args: [x], condition: c, body: b}\noutputs: [w]\n"), "no error");
}

}  // namespace
}  // namespace hlsgym::testing
