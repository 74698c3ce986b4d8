// all-reduce-simp: every case of XLA's all_reduce_simplifier_test.cc (openxla/xla
// xla/service/all_reduce_simplifier_test.cc at 16569562fc04a1d1eadcd6a79f2269c1ccf4c421),
// each written as a golden test: XLA's HLO in (XLA parses and runs it with replica_count=8,
// which an hlsgym module does not carry); the root pattern out; the interpreter agreeing.
#include <gtest/gtest.h>

#include "tests/passes/pass_golden.h"
#include "tests/support/hlo_pattern.h"
#include "tests/support/xla_cases.h"

namespace hlsgym::passes {
namespace {
using testing::root_expression;

ir::Module simplify(const std::string& module, bool expect_change) {
  return testing::run_golden("all-reduce-simp", "HloModule m\n" + module, expect_change);
}

std::string reducer(const std::string& name, const std::string& op) {
  return name + " {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n ROOT r = f32[] " + op + "(a, b)\n}\n";
}

// XLA: (p0 * 8, p0, all-reduce(p1), p2 * 8). hlsgym knows no replica count, so the size of
// replica_groups={} is unknown and the sums stay (listed); the max of the replicated p0
// is p0 over any groups.
TEST(AllReduceSimplifierXla, ReplicatedParameters) {
  EXPECT_FALSE(testing::deliberate_difference("all-reduce-simp", "ReplicatedParameters").empty());
  const ir::Module m = simplify(
      reducer("sum", "add") + reducer("max", "maximum") + reducer("min", "minimum") + reducer("sum.1", "add") +
          "ENTRY test {\n p0 = f32[8,16] parameter(0), parameter_replication={true}\n"
          " p1 = f32[8,16] parameter(1), parameter_replication={false}\n"
          " p2 = f32[] parameter(2), parameter_replication={true}\n"
          " all-reduce = f32[8,16] all-reduce(p0), replica_groups={}, to_apply=sum\n"
          " all-reduce.1 = f32[8,16] all-reduce(p0), replica_groups={}, to_apply=max\n"
          " all-reduce.2 = f32[8,16] all-reduce(p1), replica_groups={}, to_apply=min\n"
          " all-reduce.3 = f32[] all-reduce(p2), replica_groups={}, to_apply=sum.1\n"
          " ROOT tuple = (f32[8,16], f32[8,16], f32[8,16], f32[]) tuple(all-reduce, all-reduce.1, all-reduce.2,"
          " all-reduce.3)\n}\n",
      true);
  EXPECT_EQ(root_expression(m),
            "tuple(all-reduce(parameter(0)), parameter(0), all-reduce(parameter(1)), all-reduce(parameter(2)))");
}

// XLA: all-reduce(p0) * 8 (an all-reduce's result is replicated); the group size of
// replica_groups={} is unknown to hlsgym (listed).
TEST(AllReduceSimplifierXla, AllReduceAfterAllReduce) {
  EXPECT_FALSE(testing::deliberate_difference("all-reduce-simp", "AllReduceAfterAllReduce").empty());
  const ir::Module m = simplify(reducer("max", "maximum") + reducer("sum", "add") +
                                    "ENTRY test {\n p0 = f32[8,16] parameter(0), parameter_replication={false}\n"
                                    " all-reduce = f32[8,16] all-reduce(p0), replica_groups={}, to_apply=max\n"
                                    " ROOT all-reduce.1 = f32[8,16] all-reduce(all-reduce), replica_groups={},"
                                    " to_apply=sum\n}\n",
                                false);
  EXPECT_EQ(root_expression(m), "all-reduce(all-reduce(parameter(0)))");
}

// XLA: (p0 * 4, p0, all-reduce(p1)). The f32 sum of four equal values is not p0 * 4 in
// the interpreter (3x rounds), so hlsgym keeps the sum (listed).
TEST(AllReduceSimplifierXla, SubgroupAllReduce) {
  EXPECT_FALSE(testing::deliberate_difference("all-reduce-simp", "SubgroupAllReduce").empty());
  const ir::Module m = simplify(
      reducer("sum", "add") + reducer("max", "maximum") + reducer("min", "minimum") +
          "ENTRY test {\n p0 = f32[8,16] parameter(0), parameter_replication={true}\n"
          " p1 = f32[8,16] parameter(1), parameter_replication={false}\n"
          " all-reduce = f32[8,16] all-reduce(p0), replica_groups={{0,1,2,3},{4,5,6,7}}, to_apply=sum\n"
          " all-reduce.1 = f32[8,16] all-reduce(p0), replica_groups={{0,1,2,3},{4,5,6,7}}, to_apply=max\n"
          " all-reduce.2 = f32[8,16] all-reduce(p1), replica_groups={{0,1,2,3},{4,5,6,7}}, to_apply=min\n"
          " ROOT tuple = (f32[8,16], f32[8,16], f32[8,16]) tuple(all-reduce, all-reduce.1, all-reduce.2)\n}\n",
      true);
  EXPECT_EQ(root_expression(m), "tuple(all-reduce(parameter(0)), parameter(0), all-reduce(parameter(1)))");
}

TEST(AllReduceSimplifierXla, TrivialSubgroupAllReduce) {
  const ir::Module m = simplify(reducer("sum", "add") +
                                    "ENTRY test {\n p0 = f32[8,16] parameter(0), parameter_replication={false}\n"
                                    " ROOT all-reduce = f32[8,16] all-reduce(p0),"
                                    " replica_groups={{0},{1},{2},{3},{4},{5},{6},{7}}, to_apply=sum\n}\n",
                                true);
  EXPECT_EQ(root_expression(m), "parameter(0)");
}

}  // namespace
}  // namespace hlsgym::passes
