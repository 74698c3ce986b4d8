// sharding-remover: every case of XLA's sharding_remover_test.cc (openxla/xla
// xla/service/sharding_remover_test.cc at 16569562fc04a1d1eadcd6a79f2269c1ccf4c421), each
// written as a golden test: XLA's HLO text in, verbatim; the root pattern, or no change,
// out; the interpreter agreeing where it knows every custom-call.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"

namespace hlsgym::passes {
namespace {

// A reshape of an f32[1,1] parameter through the custom-call `target`.
std::string through(const std::string& target) {
  return "HloModule module\n\nENTRY entry {\n %parameter.3379 = f32[1,1]{1,0} parameter(0)\n"
         " %custom-call.3380 = f32[1,1]{1,0} custom-call(f32[1,1]{1,0} %parameter.3379),\n"
         "   custom_call_target=\"" + target + "\", sharding={replicated}\n"
         " ROOT %reshape.6032 = f32[] reshape(f32[1,1]{1,0} %custom-call.3380)\n}";
}

void expect_removed(const std::string& target) {
  const ir::Module m = testing::run_golden("sharding-remover", through(target), true, /*compare_values=*/false);
  EXPECT_EQ(testing::root_expression(m), "reshape(parameter(0))");
}

TEST(ShardingRemoverXla, RemoveSharding) { expect_removed("Sharding"); }
TEST(ShardingRemoverXla, RemoveSPMDShardingToFullShape) { expect_removed("SPMDShardToFullShape"); }
TEST(ShardingRemoverXla, RemoveSPMDFullToShardShape) { expect_removed("SPMDFullToShardShape"); }

TEST(ShardingRemoverXla, NoChangeForOtherCustomCall) {
  testing::run_golden("sharding-remover",
                      "HloModule cluster_2013453984438090939__.47\n\n"
                      "ENTRY %cluster_2013453984438090939__.47\n  (arg_tuple.1: ()) -> (bf16[2,2000], s32[2,2000]) {\n"
                      "  %arg_tuple.1 = bf16[2,209664] parameter(0)\n"
                      "  %custom-call = (bf16[2,2000]{1,0}, s32[2,2000]{1,0})\n"
                      "    custom-call(bf16[2,209664]{1,0} %arg_tuple.1), custom_call_target=\"TopK\"\n"
                      "  %get-tuple-element = bf16[2,2000]{1,0}\n"
                      "    get-tuple-element((bf16[2,2000]{1,0}, s32[2,2000]{1,0}) %custom-call),\n    index=0\n"
                      "  %get-tuple-element.1 = s32[2,2000]{1,0} get-tuple-element((bf16[2,2000]{1,0},\n"
                      "    s32[2,2000]{1,0}) %custom-call), index=1, sharding={replicated}\n"
                      "  ROOT %tuple.46 = (bf16[2,2000]{1,0}, s32[2,2000]{1,0})\n"
                      "    tuple(bf16[2,2000]{1,0} %get-tuple-element, s32[2,2000]{1,0}\n    %get-tuple-element.1),\n"
                      "    metadata={op_name=\"XLA_Retvals\"}\n}",
                      false, /*compare_values=*/false);  // the interpreter has no TopK custom-call
}

}  // namespace
}  // namespace hlsgym::passes
