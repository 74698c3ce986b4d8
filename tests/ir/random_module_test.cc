// The random module generator: every module verifies and evaluates, generation is
// deterministic per seed, sizes follow the request, and the patterns the passes rewrite
// (loops, calls, dots, reductions, data movement) actually occur.
#include <gtest/gtest.h>

#include "ir/evaluate.h"
#include "ir/features.h"
#include "ir/printer.h"
#include "ir/random_module.h"
#include "ir/verifier.h"

namespace hlsgym::ir {
namespace {

TEST(RandomModule, VerifiesAndEvaluatesForManySeeds) {
  std::array<int64_t, kOpcodeCount> seen{};
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    RandomModuleOptions o;
    o.seed = seed;
    o.instructions = 20 + static_cast<int>(seed % 60);
    o.integers = seed % 5 != 0;
    o.floats = seed % 7 != 0;
    Module m = random_module(o);
    auto issues = verify_all(m);
    ASSERT_TRUE(issues.empty()) << "seed " << seed << ": " << issues.front().message << "\n" << print_module(m);
    ASSERT_NO_THROW(evaluate(m, random_inputs(m, seed))) << "seed " << seed << "\n" << print_module(m);
    const Features f = extract_features(m);
    EXPECT_GE(f.entry_instructions, o.instructions);
    EXPECT_LE(f.entry_instructions, o.instructions + 40);
    for (int k = 0; k < kOpcodeCount; ++k) seen[k] += f.opcode_counts[k];
  }
  for (Opcode op : {Opcode::kWhile, Opcode::kCall, Opcode::kDot, Opcode::kReduce, Opcode::kReduceWindow,
                    Opcode::kTranspose, Opcode::kReshape, Opcode::kBroadcast, Opcode::kSlice,
                    Opcode::kConcatenate, Opcode::kPad, Opcode::kDynamicSlice, Opcode::kDynamicUpdateSlice,
                    Opcode::kSelect, Opcode::kClamp, Opcode::kConvert, Opcode::kIota, Opcode::kReverse})
    EXPECT_GT(seen[static_cast<int>(op)], 10) << name(op);
}

TEST(RandomModule, DeterministicPerSeedAndDifferentAcrossSeeds) {
  RandomModuleOptions o;
  o.seed = 42;
  const std::string a = print_module(random_module(o));
  EXPECT_EQ(a, print_module(random_module(o)));
  o.seed = 43;
  EXPECT_NE(a, print_module(random_module(o)));
}

TEST(RandomModule, LargeModulesForBenchmarks) {
  RandomModuleOptions o;
  o.instructions = 20000;
  o.seed = 3;
  Module m = random_module(o);
  EXPECT_GE(m.instruction_count(), 20000u);
  EXPECT_TRUE(verify_all(m).empty());
}

}  // namespace
}  // namespace hlsgym::ir
