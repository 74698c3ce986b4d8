// Every design in designs/ loads, verifies and evaluates; instruction counts are pinned;
// a YAML design and its hand-written HLO text give the same module.
#include <gtest/gtest.h>

#include <map>

#include "frontend/hlo_parser.h"
#include "frontend/load.h"
#include "ir/evaluate.h"
#include "ir/printer.h"
#include "tests/support/test_data.h"

namespace hlsgym::frontend {
namespace {

TEST(Designs, AllLoadVerifyAndEvaluate) {
  // Entry instruction counts by hand from each file (inputs + ops + a tuple for several outputs).
  const std::map<std::string, int64_t> expected = {
      {"attention_head", 16}, {"bit_mix", 15}, {"black_scholes", 42}, {"conv2d", 5}, {"dot_product", 3}, {"fir8", 7}, {"fir16_sym", 65},
      {"gelu", 14}, {"layernorm", 21}, {"matmul_4x4", 3}, {"matvec", 5}, {"maxpool", 3},
      {"mlp_layer", 8}, {"sad", 9}, {"saturating_add", 9}, {"softmax", 10}, {"stencil_3pt", 8}};
  auto designs = testing::all_designs();
  EXPECT_GE(designs.size(), 14u);
  for (const auto& path : designs) {
    SCOPED_TRACE(path.filename().string());
    Design d = load_design(path.string());
    EXPECT_FALSE(d.description.empty());
    auto it = expected.find(d.name);
    ASSERT_NE(it, expected.end()) << "add the new design's instruction count here";
    EXPECT_EQ(static_cast<int64_t>(d.module.instruction_count(d.module.entry())), it->second);
    auto args = ir::random_inputs(d.module, 5);
    EXPECT_FALSE(ir::evaluate(d.module, args).uses_placeholders);
  }
}

TEST(Designs, YamlAndHloTextGiveTheSameModule) {
  Design yaml = load_design((testing::source_dir() / "designs/fir8.yaml").string());
  const std::string hlo =
      "HloModule fir8\n\n"
      "add_s32 {\n  x = s32[] parameter(0)\n  y = s32[] parameter(1)\n  ROOT r = s32[] add(x, y)\n}\n\n"
      "ENTRY main {\n  x = s16[8] parameter(0)\n  h = s16[8] parameter(1)\n"
      "  xw = s32[8] convert(x)\n  hw = s32[8] convert(h)\n  p = s32[8] multiply(xw, hw)\n"
      "  zero = s32[] constant(0)\n  ROOT y = s32[] reduce(p, zero), dimensions={0}, to_apply=add_s32\n}\n";
  ir::Module text = parse_hlo(hlo, "fir8.hlo");
  // Same computations in the same order once printed (print order is canonical).
  EXPECT_EQ(ir::print_module(yaml.module), ir::print_module(text));
}

}  // namespace
}  // namespace hlsgym::frontend
