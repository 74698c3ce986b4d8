// YAML `directives: {unroll: N}` per op: the `lanes` hint hwmodel reads, and one clear
// error per misuse.
#include <gtest/gtest.h>

#include <string>

#include "frontend/yaml_design.h"
#include "ir/error.h"
#include "ir/frontend_attributes.h"

namespace hlsgym::frontend {
namespace {

std::string design_with(const std::string& extra) {
  return "design: d\ninputs:\n  a: s32[8]\nops:\n  - {name: y, op: add, args: [a, a]" + extra + "}\noutputs: [y]\n";
}

std::string error_of(const std::string& text) {
  try {
    load_yaml_design(text, "d.yaml");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(YamlDirectives, UnrollSetsTheLanes) {
  const Design d = load_yaml_design(design_with(", directives: {unroll: 4}"), "d.yaml");
  const ir::InstrId y = d.module.computation(d.module.entry()).root;
  EXPECT_EQ(ir::lanes_hint(d.module, y), 4);
  const Design other = load_yaml_design(design_with(", frontend_attributes: '{note=\"x\"}', directives: {unroll: 2}"));
  const ir::InstrId z = other.module.computation(other.module.entry()).root;
  EXPECT_EQ(ir::lanes_hint(other.module, z), 2);
  EXPECT_EQ(ir::frontend_attribute(other.module.attrs(z), "note"), "x");  // the other hints stay
}

// A while loop takes pipeline: off | on | II (hwmodel/loop_pipelining.h reads the attribute).
std::string loop_with(const std::string& directive) {
  return "design: d\ninputs:\n  a: s32[8]\ncomputations:\n  c:\n    inputs: {s: \"(s32[], s32[8])\"}\n    ops:\n"
         "      - {name: i, op: get-tuple-element, args: [s], index: 0}\n      - {name: n, op: constant, value: 3, type: s32}\n"
         "      - {name: m, op: compare, args: [i, n], direction: LT}\n    outputs: [m]\n  b:\n"
         "    inputs: {s: \"(s32[], s32[8])\"}\n    ops:\n      - {name: i, op: get-tuple-element, args: [s], index: 0}\n"
         "      - {name: v, op: get-tuple-element, args: [s], index: 1}\n      - {name: one, op: constant, value: 1, type: s32}\n"
         "      - {name: i1, op: add, args: [i, one]}\n      - {name: v1, op: add, args: [v, v]}\n    outputs: [i1, v1]\n"
         "ops:\n  - {name: z, op: constant, value: 0, type: s32}\n  - {name: t, op: tuple, args: [z, a]}\n"
         "  - {name: w, op: while, args: [t], condition: c, body: b, directives: " + directive + "}\n"
         "  - {name: y, op: get-tuple-element, args: [w], index: 1}\noutputs: [y]\n";
}

TEST(YamlDirectives, PipelineSetsAWhileLoopsAttribute) {
  for (const auto& [given, attribute] : {std::pair<std::string, std::string>{"{pipeline: off}", "off"}, {"{pipeline: 4}", "4"}}) {
    const Design d = load_yaml_design(loop_with(given), "d.yaml");
    bool seen = false;
    for (ir::InstrId i : d.module.instructions(d.module.entry()))
      if (d.module.opcode(i) == ir::Opcode::kWhile) {
        EXPECT_EQ(ir::frontend_attribute(d.module.attrs(i), "pipeline"), attribute);
        seen = true;
      }
    EXPECT_TRUE(seen);
  }
  const Design on = load_yaml_design(loop_with("{pipeline: on}"), "d.yaml");
  for (ir::InstrId i : on.module.instructions(on.module.entry()))
    EXPECT_FALSE(ir::frontend_attribute(on.module.attrs(i), "pipeline"));  // the default: no attribute
  EXPECT_NE(error_of(loop_with("{pipeline: 0}")).find("pipeline must be off, on or a target II from 1"), std::string::npos);
  EXPECT_NE(error_of(loop_with("{pipeline: fast}")).find("pipeline must be off, on or a target II"), std::string::npos);
}

TEST(YamlDirectives, MisuseIsOneClearError) {
  EXPECT_NE(error_of(design_with(", directives: {pipeline: 2}")).find("d.yaml:5:"), std::string::npos);
  EXPECT_NE(error_of(design_with(", directives: {pipeline: 2}")).find("unknown directive 'pipeline' (expected unroll"),
            std::string::npos);
  EXPECT_NE(error_of(design_with(", directives: {unroll: 0}")).find("unroll must be an integer from 1 to"),
            std::string::npos);
  EXPECT_NE(error_of(design_with(", directives: {unroll: two}")).find("unroll must be an integer"), std::string::npos);
  EXPECT_NE(error_of(design_with(", directives: 4")).find("directives must be a map"), std::string::npos);
  EXPECT_NE(error_of(design_with(", frontend_attributes: '{lanes=\"2\"}', directives: {unroll: 4}"))
                .find("both unroll and frontend_attributes lanes set the lanes"),
            std::string::npos);
}

}  // namespace
}  // namespace hlsgym::frontend
