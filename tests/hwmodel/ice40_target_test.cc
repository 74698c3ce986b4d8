// designs/targets/ice40.yaml against the Yosys synth_ice40 -dsp measurements of
// scripts/calibrate_ice40.sh (Yosys 0.23): SB_MAC16 slices of a product, EBR blocks of a
// memory, LUT4s of a register file.
#include <gtest/gtest.h>

#include "hwmodel/binding.h"
#include "hwmodel/target.h"
#include "hwmodel/unit_model.h"
#include "tests/hwmodel/hwmodel_test_util.h"

namespace hlsgym::testing {
namespace {

const hwmodel::Target& ice40() {
  static const hwmodel::Target t = hwmodel::load_target("ice40", target_dirs());
  return t;
}

// `calibrate_ice40.sh dsp`: an n x n product kept to `out` bits, unsigned and signed alike
// (SB_MAC16 multiplies either; a 17-bit operand's 1-bit rest goes to LUTs).
TEST(Ice40Target, DspSlicesMatchYosysMeasurements) {
  struct Row {
    int n, out, dsp;
  };
  for (bool sg : {false, true})
    for (const Row& r : {Row{8, 8, 0}, {8, 16, 1}, {11, 11, 1}, {11, 22, 1}, {16, 16, 1}, {16, 32, 1}, {17, 17, 1},
                         {17, 34, 1}, {24, 24, 3}, {24, 48, 4}, {32, 32, 3}, {32, 64, 4}})
      EXPECT_EQ(hwmodel::dsp_slices(ice40(), r.n, r.n, r.out, sg), r.dsp)
          << r.n << "x" << r.n << " -> " << r.out << (sg ? " signed" : "");
}

// `calibrate_ice40.sh ebr`: SB_RAM40_4K blocks of a D x W memory.
TEST(Ice40Target, EbrBlocksFollowTheAspectRatios) {
  struct Row {
    int64_t words;
    int bits;
    double blocks;
  };
  for (const Row& r : {Row{256, 16, 1}, {512, 8, 1}, {1024, 4, 1}, {2048, 2, 1}, {256, 32, 2}, {512, 16, 2},
                       {128, 16, 1}, {1024, 8, 2}, {64, 32, 2}})
    EXPECT_EQ(hwmodel::bram_blocks(ice40(), r.words * r.bits / 8, r.bits, 1), r.blocks) << r.words << " x " << r.bits;
}

// `calibrate_ice40.sh rf`: LUT4s of a register file, within 10 % (the 16-deep fit is a
// line through four measurements; the others are exact).
TEST(Ice40Target, RegisterFileLutsMatchYosysMeasurements) {
  struct Row {
    int64_t words;
    int bits, ports;
    double lut;
  };
  for (const Row& r : {Row{2, 8, 1, 10}, {2, 32, 2, 66}, {4, 8, 1, 20}, {4, 32, 2, 132}, {8, 8, 2, 88}, {8, 32, 1, 168},
                       {8, 32, 2, 328}, {16, 8, 1, 118}, {16, 8, 2, 196}, {16, 32, 1, 372}, {16, 32, 2, 724},
                       {32, 8, 1, 239}, {32, 8, 2, 445}, {32, 32, 1, 856}})
    EXPECT_NEAR(ice40().register_file.luts(r.words, r.bits, r.ports), r.lut, 0.1 * r.lut)
        << r.words << " x " << r.bits << ", " << r.ports << " read ports";
}

TEST(Ice40Target, DeviceAndGeometryAreRead) {
  EXPECT_EQ(ice40().pnr.family, "ice40");
  EXPECT_EQ(ice40().pnr.device, "up5k");
  EXPECT_FALSE(ice40().dsp_signed_only);
  EXPECT_EQ(ice40().bram_aspect_ratios().size(), 4u);
  // the xc7z020 keeps its derived RAMB18E1 ratios and names no device
  EXPECT_TRUE(fpga_target().pnr.family.empty());
  EXPECT_EQ(fpga_target().bram_aspect_ratios().size(), 6u);
}

}  // namespace
}  // namespace hlsgym::testing
