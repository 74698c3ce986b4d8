// designs/targets/ice40.yaml against the Yosys synth_ice40 -dsp measurements of
// scripts/calibrate_ice40.sh (Yosys 0.23): SB_MAC16 slices of a product, EBR blocks of a
// memory, LUT4s of a register file.
#include <gtest/gtest.h>

#include "hwmodel/binding.h"
#include "hwmodel/microarch_control.h"
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

// `calibrate_ice40.sh rf` (and RF_DEPTHS="6 10 12 14 18 20 24 36 48 64", "9 27 40"): LUT4s of a
// register file, within 10 % (each row is fitted on 8- and 32-bit words with one read port;
// the two-port files, 9, 27 and 40 words are held out: 9 takes the 10-word row, 27 and 40
// the line between the rows around them).
TEST(Ice40Target, RegisterFileLutsMatchYosysMeasurements) {
  struct Row {
    int64_t words;
    int bits, ports;
    double lut;
  };
  for (const Row& r : {Row{2, 8, 1, 10}, {2, 32, 2, 66}, {4, 8, 1, 20}, {4, 32, 2, 132}, {8, 8, 2, 88}, {8, 32, 1, 168},
                       {8, 32, 2, 328}, {16, 8, 1, 118}, {16, 8, 2, 196}, {16, 32, 1, 372}, {16, 32, 2, 724},
                       {32, 8, 1, 239}, {32, 8, 2, 445}, {32, 32, 1, 856}, {6, 8, 1, 38}, {6, 32, 2, 262},
                       {9, 8, 2, 124}, {9, 32, 1, 236}, {10, 32, 1, 238}, {12, 32, 2, 591}, {14, 32, 1, 371},
                       {18, 8, 2, 236}, {18, 32, 1, 445}, {18, 32, 2, 873}, {20, 32, 2, 1042}, {24, 32, 2, 1240},
                       {27, 8, 1, 198}, {27, 32, 1, 682}, {27, 32, 2, 1345}, {36, 32, 2, 1834}, {40, 8, 2, 547},
                       {40, 32, 1, 1031}, {40, 32, 2, 2008}, {48, 32, 2, 2456}, {64, 8, 2, 874}, {64, 32, 1, 1648}})
    EXPECT_NEAR(ice40().register_file.luts(r.words, r.bits, r.ports), r.lut, 0.1 * r.lut)
        << r.words << " x " << r.bits << ", " << r.ports << " read ports";
}

// `calibrate_shift.sh ice40`: a shift by a run-time amount (the mean of its three kinds);
// by a literal it is wiring (no row).
TEST(Ice40Target, VariableShiftLutsMatchYosysMeasurements) {
  EXPECT_DOUBLE_EQ(ice40().variable_shift.luts_for(8), 33);
  EXPECT_DOUBLE_EQ(ice40().variable_shift.luts_for(16), 82);
  EXPECT_DOUBLE_EQ(ice40().variable_shift.luts_for(32), 194);  // shl 185, srl 184, sra 212
}

// `calibrate_control.sh ice40`: a timeline's counter is its increment (an SB_LUT4 per sum
// bit, 12 bits: 13) and its end compare (8); on the xc7z020 the CARRY4 adds (0 LUT).
TEST(Ice40Target, ATimelineCounterPaysItsIncrementOnAnIce40) {
  hwmodel::ControlInventory timer;
  timer.timers = {12};
  EXPECT_DOUBLE_EQ(hwmodel::control_area(timer, ice40().control).lut, 13 + 8);
  EXPECT_DOUBLE_EQ(hwmodel::control_area(timer, ice40().control).ff, 12);
  const hwmodel::ControlCost& x = fpga_target().control;
  EXPECT_DOUBLE_EQ(hwmodel::control_area(timer, x).lut, x.at(x.compare_luts, 12));
  hwmodel::ControlInventory counter;
  counter.counters = {8};
  EXPECT_DOUBLE_EQ(hwmodel::control_area(counter, ice40().control).lut, 17);
}

// `calibrate_datapath.sh ice40`: an int_alu op with a literal operand at 8, 16, 32 bits.
// An SB_CARRY leaves the sum bits to LUT4s: an add of a literal keeps one per bit, negate
// (`0 - a`) takes two; and by a literal is wiring.
TEST(Ice40Target, LiteralOperandOpsMatchYosysMeasurements) {
  const hwmodel::LiteralOpCost& c = ice40().alu_literal_ops;
  EXPECT_EQ(c.luts_for(ir::Opcode::kAdd, 32), 32.0);
  EXPECT_EQ(c.luts_for(ir::Opcode::kNegate, 8), 14.0);
  EXPECT_EQ(c.luts_for(ir::Opcode::kNegate, 32), 62.0);
  EXPECT_EQ(c.luts_for(ir::Opcode::kAnd, 16), 0.0);
  EXPECT_EQ(c.luts_for(ir::Opcode::kClamp, 16), 54.0);
  EXPECT_EQ(c.luts_for(ir::Opcode::kSelect, 32), std::nullopt);  // a select keeps the int_alu row
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
