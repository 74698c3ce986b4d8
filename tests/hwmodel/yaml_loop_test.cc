// The YAML while loop of designs/loops/counted_sum.yaml is costed by its proven trip
// count (10), on both targets.
#include <gtest/gtest.h>

#include "frontend/load.h"
#include "hwmodel/estimate.h"
#include "hwmodel/lowering.h"
#include "tests/hwmodel/hwmodel_test_util.h"

namespace hlsgym::testing {
namespace {

TEST(YamlLoop, CostedByItsTripCount) {
  const frontend::Design d = frontend::load_design((source_dir() / "designs" / "loops" / "counted_sum.yaml").string());
  int loops = 0;
  for (ir::InstrId i : d.module.instructions(d.module.entry()))
    if (d.module.opcode(i) == ir::Opcode::kWhile) {
      EXPECT_EQ(hwmodel::while_trip_count(d.module, i), 10);
      ++loops;
    }
  EXPECT_EQ(loops, 1);
  const hwmodel::Estimate fpga = hwmodel::estimate(d.module, fpga_target());
  const hwmodel::Estimate cpu = hwmodel::estimate(d.module, cpu_target());
  EXPECT_EQ(fpga.unknown_trip_counts, 0);
  EXPECT_GT(fpga.cycles, 10 * 10);  // ten trips of a body that streams 8 elements
  EXPECT_GT(cpu.cycles, 0);
}

}  // namespace
}  // namespace hlsgym::testing
