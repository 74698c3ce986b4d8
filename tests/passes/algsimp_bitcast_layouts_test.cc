// algsimp removes a bitcast to the operand's own dimensions only where the bitcast keeps
// the values: between layouts that are not both row-major it reinterprets memory, a
// transpose (ir/shape.h, README "Interpreter semantics").
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "ir/evaluate.h"
#include "ir/verifier.h"
#include "passes/registry.h"

namespace hlsgym::passes {
namespace {

// Runs algsimp; returns whether it changed the module, and checks the values stay.
bool algsimp_keeps_values(const std::string& body) {
  ir::Module m = frontend::parse_hlo("HloModule m\n\nENTRY e {\n" + body + "}\n", "t.hlo");
  ir::verify(m);
  const std::vector<ir::Literal> args = ir::random_inputs(m, 1);
  const ir::Literal before = ir::evaluate(m, args).value;
  const bool changed = Registry::global().create("algsimp")->run(m);
  ir::verify(m);
  EXPECT_TRUE(ir::evaluate(m, args).value == before) << body;
  return changed;
}

TEST(AlgsimpBitcastLayouts, RowMajorIdentityBitcastIsRemoved) {
  EXPECT_TRUE(algsimp_keeps_values("  p = f32[3,4]{1,0} parameter(0)\n  ROOT b = f32[3,4]{1,0} bitcast(p)\n"));
}

TEST(AlgsimpBitcastLayouts, BitcastBetweenLayoutsIsKept) {
  EXPECT_FALSE(algsimp_keeps_values("  p = f32[3,3]{0,1} parameter(0)\n  ROOT b = f32[3,3]{1,0} bitcast(p)\n"));
}

TEST(AlgsimpBitcastLayouts, BitcastChainBackToOtherLayoutIsNotTheOperand) {
  algsimp_keeps_values("  p = f32[4,4]{0,1} parameter(0)\n  a = f32[16]{0} bitcast(p)\n  ROOT b = f32[4,4]{1,0} bitcast(a)\n");
}

}  // namespace
}  // namespace hlsgym::passes
