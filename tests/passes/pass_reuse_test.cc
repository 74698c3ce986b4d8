// A pass object may keep buffers between runs (dot-merger's dependence marks, bitwidth-
// narrowing's operand map): one object run on module after module must leave each module
// exactly as a fresh object does.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "ir/printer.h"
#include "ir/random_module.h"
#include "passes/registry.h"

namespace hlsgym::passes {
namespace {

TEST(PassReuse, OneObjectOverManyModulesMatchesFreshObjects) {
  std::vector<ir::Module> graphs;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    ir::RandomModuleOptions o;
    o.instructions = seed % 2 ? 1200 : 300;  // large and small in turn: buffers sized by a larger module
    o.seed = seed;
    o.max_dim = 8;
    graphs.push_back(ir::random_module(o));
  }
  for (const auto& info : Registry::global().all()) {
    PassPtr reused = Registry::global().create(info.name);
    for (size_t k = 0; k < graphs.size(); ++k) {
      ir::Module a = graphs[k], b = graphs[k];
      const bool changed_reused = reused->run(a);
      const bool changed_fresh = Registry::global().create(info.name)->run(b);
      EXPECT_EQ(changed_reused, changed_fresh) << info.name << " module " << k;
      EXPECT_EQ(ir::print_module(a), ir::print_module(b)) << info.name << " module " << k;
    }
  }
}

// dot-merger's dependence marks outlive a run: after a run on another module (whose
// instructions have the same ids), two dots where one feeds the other still do not merge.
TEST(PassReuse, DotMergerSeesADependenceAfterAnotherModule) {
  const std::string dependent =
      "HloModule dep\nENTRY main {\n lhs0 = f32[10,20] parameter(0)\n rhs = f32[20,5] parameter(1)\n"
      " dot0 = f32[10,5] dot(lhs0, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " zero = f32[] constant(0)\n lhs1 = f32[30,20] pad(dot0, zero), padding=20_0x15_0\n"
      " dot1 = f32[30,5] dot(lhs1, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " ROOT tuple = (f32[10,5], f32[30,5]) tuple(dot0, dot1)\n}\n";
  const std::string independent =
      "HloModule ind\nENTRY main {\n lhs0 = f32[10,20] parameter(0)\n rhs = f32[20,5] parameter(1)\n"
      " dot0 = f32[10,5] dot(lhs0, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " zero = f32[] constant(0)\n lhs1 = f32[30,20] parameter(2)\n"
      " dot1 = f32[30,5] dot(lhs1, rhs), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " ROOT tuple = (f32[10,5], f32[30,5], f32[]) tuple(dot0, dot1, zero)\n}\n";
  PassPtr merger = Registry::global().create("dot-merger");
  for (int round = 0; round < 3; ++round) {
    ir::Module a = frontend::parse_hlo(independent), b = frontend::parse_hlo(dependent);
    EXPECT_TRUE(merger->run(a)) << round;
    EXPECT_FALSE(merger->run(b)) << round;
  }
}

}  // namespace
}  // namespace hlsgym::passes
