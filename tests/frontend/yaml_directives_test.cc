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
