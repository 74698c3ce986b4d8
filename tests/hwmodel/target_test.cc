// Target files: the shipped ones load with the numbers the issue fixes; bad files give
// one clear message naming the file, the line and the field.
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>

#include "hwmodel/binding.h"

#include <fstream>
#include <map>
#include <regex>

#include "hwmodel/target.h"
#include "hwmodel/unit_model.h"
#include "ir/error.h"
#include "tests/hwmodel/hwmodel_test_util.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
using hwmodel::Target;
using hwmodel::UnitClass;

std::string fpga_text() {
  std::ifstream in(source_dir() / "designs" / "targets" / "fpga.yaml");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The error message of parsing `text`, or "" if it parses.
std::string error_of(const std::string& text) {
  try {
    hwmodel::parse_target(text, "bad.yaml");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

TEST(Target, FpgaIsAZynq7020) {
  const Target& t = fpga_target();
  EXPECT_TRUE(t.is_fpga());
  EXPECT_EQ(t.clock_mhz, 100);
  EXPECT_EQ(t.resources.dsp, 220);
  EXPECT_EQ(t.resources.lut, 53200);
  EXPECT_EQ(t.resources.ff, 106400);
  EXPECT_EQ(t.resources.bram18k, 280);
  // Latencies inside the published ranges (ScaleHLS at 100 MHz: fadd 4, fmul 3, fdiv 15).
  EXPECT_EQ(t.unit(UnitClass::kFpAdd).latency, 4);
  EXPECT_EQ(t.unit(UnitClass::kFpMul).latency, 3);
  EXPECT_EQ(t.unit(UnitClass::kFpDiv).latency, 15);
  EXPECT_EQ(t.unit(UnitClass::kIntAlu).latency, 1);
  // DSP48E1 slices as synthesis cuts the product: 16x16 one, an 8-bit product in LUTs,
  // a 32-bit product kept to 32 bits three; fp32's 24-bit mantissas two, f64's twelve.
  using ir::ElementType;
  EXPECT_EQ(hwmodel::lane_area(t, UnitClass::kIntMul, ElementType::kS16).dsp, 1);
  EXPECT_EQ(hwmodel::lane_area(t, UnitClass::kIntMul, ElementType::kS8).dsp, 0);
  EXPECT_EQ(hwmodel::lane_area(t, UnitClass::kIntMul, ElementType::kS32).dsp, 3);
  EXPECT_EQ(hwmodel::lane_area(t, UnitClass::kFpMul, ElementType::kF32).dsp, 2);
  EXPECT_EQ(hwmodel::lane_area(t, UnitClass::kFpMul, ElementType::kBF16).dsp, 1);
  EXPECT_EQ(hwmodel::lane_area(t, UnitClass::kFpMul, ElementType::kF64).dsp, 12);
  // Horowitz energies x factors: int32 add in fabric 0.1 x 14; fp32 mul on DSPs 3.7 x 4.
  EXPECT_DOUBLE_EQ(hwmodel::op_energy_pj(t, UnitClass::kIntAlu, ElementType::kS32), 1.4);
  EXPECT_DOUBLE_EQ(hwmodel::op_energy_pj(t, UnitClass::kFpMul, ElementType::kF32), 14.8);
}

// What Yosys synth_xilinx (0.23) builds for an unsigned n x n product kept to `out` bits,
// measured by scripts/calibrate_dsp.sh: the model must give the same slice count.
TEST(Target, DspSlicesMatchYosysMeasurements) {
  const Target& t = fpga_target();
  struct Row {
    int n, out, dsp;
  };
  for (const Row& r : {Row{8, 8, 0}, {8, 16, 1}, {16, 16, 1}, {16, 32, 1}, {17, 17, 1}, {17, 34, 1}, {18, 18, 2},
                       {18, 36, 2}, {24, 24, 2}, {24, 48, 2}, {25, 25, 3}, {25, 50, 4}, {32, 32, 3}, {32, 64, 4},
                       {40, 40, 5}, {40, 80, 6}, {48, 48, 6}, {48, 96, 9}, {64, 64, 10}, {64, 128, 16}})
    EXPECT_EQ(hwmodel::dsp_slices(t, r.n, r.n, r.out), r.dsp) << r.n << "x" << r.n << " -> " << r.out;
}

// An int_mac lane as rtl builds it (scripts/calibrate_datapath.sh mac_lane, Yosys 0.23):
// 8 x 8, 16 x 16 and 18 x 18 products into a 32-bit accumulator take 32 LUT (the adder; the
// first term's clear is the slot register's reset), 24 x 24 and 32 x 32 (several slices)
// 49. The ice40 target has no such row: int_mul + int_alu.
TEST(Target, IntMacLaneLutsMatchYosysMeasurements) {
  const Target& t = fpga_target();
  EXPECT_EQ(t.unit(hwmodel::UnitClass::kIntMac).split_product_lut, 17);
  EXPECT_EQ(hwmodel::int_mac_luts(t, 1, ir::ElementType::kS32), 32);
  EXPECT_EQ(hwmodel::int_mac_luts(t, 2, ir::ElementType::kS32), 49);
  EXPECT_EQ(hwmodel::int_mac_luts(t, 3, ir::ElementType::kS32), 49);
  EXPECT_EQ(hwmodel::int_mac_luts(t, 1, ir::ElementType::kS16), 16);
  const Target ice40 = hwmodel::load_target("ice40", target_dirs());
  EXPECT_FALSE(ice40.unit(hwmodel::UnitClass::kIntMac).split_product_lut.has_value());
  EXPECT_EQ(hwmodel::int_mac_luts(ice40, 1, ir::ElementType::kS32), 72);
}

// The signed form (a MAC's narrow operands, unit_model.h): $signed(a) * $signed(b) kept to
// `out` bits, measured with Yosys synth_xilinx 0.23 the same way; a signed operand uses
// the full 25 and 18 bits of a slice.
TEST(Target, SignedDspSlicesMatchYosysMeasurements) {
  const Target& t = fpga_target();
  struct Row {
    int n, out, dsp;
  };
  for (const Row& r : {Row{8, 16, 1}, {8, 32, 1}, {9, 18, 1}, {12, 32, 1}, {16, 32, 1}, {17, 32, 1}, {17, 34, 1},
                       {18, 32, 1}, {18, 36, 1}, {24, 32, 2}, {24, 48, 2}, {25, 32, 2}, {25, 50, 2}, {32, 32, 3},
                       {32, 64, 4}})
    EXPECT_EQ(hwmodel::dsp_slices(t, r.n, r.n, r.out, true), r.dsp) << r.n << "x" << r.n << " -> " << r.out;
  using ir::ElementType;
  // s16 x s16 -> s32: one slice; u16 operands get a zero bit (17 bits signed): one; s32: three.
  EXPECT_EQ(hwmodel::mac_dsp_slices(t, ElementType::kS16, ElementType::kS16, ElementType::kS32), 1);
  EXPECT_EQ(hwmodel::mac_dsp_slices(t, ElementType::kU16, ElementType::kS8, ElementType::kS32), 1);
  EXPECT_EQ(hwmodel::mac_dsp_slices(t, ElementType::kS32, ElementType::kS32, ElementType::kS32), 3);
  EXPECT_EQ(hwmodel::mac_dsp_slices(t, ElementType::kU32, ElementType::kU32, ElementType::kU32), 3);
}

// Register files: the LUTs Yosys synth_xilinx built in scripts/calibrate_memory.sh
// (depth, width, read ports -> LUTs), reproduced by the target's register_file within 2 %.
TEST(Target, RegisterFileLutsMatchYosysMeasurements) {
  const Target& t = fpga_target();
  struct Row {
    int64_t words;
    int bits, ports;
    double lut;
  };
  for (const Row& r : {Row{2, 8, 1, 10}, {2, 32, 2, 66}, {4, 32, 1, 36}, {4, 8, 2, 20}, {8, 32, 1, 110}, {8, 32, 2, 206},
                       {16, 8, 1, 56}, {16, 32, 1, 176}, {18, 8, 1, 90}, {18, 8, 2, 162}, {18, 32, 1, 306},
                       {18, 32, 2, 594}, {20, 8, 1, 96}, {20, 8, 2, 179}, {20, 32, 1, 339}, {20, 32, 2, 659},
                       {24, 8, 1, 126}, {24, 8, 2, 225}, {24, 32, 1, 432}, {24, 32, 2, 845}, {32, 8, 1, 149}, {32, 32, 1, 478}, {32, 32, 2, 906},
                       {64, 8, 1, 288}, {64, 8, 2, 487}, {64, 32, 1, 878}, {64, 32, 2, 1660}})
    EXPECT_NEAR(t.register_file.luts(r.words, r.bits, r.ports), r.lut, 0.02 * r.lut)
        << r.words << " x " << r.bits << ", " << r.ports << " read ports";
  EXPECT_EQ(t.register_file.luts(1, 32, 1), 0);  // one word: no multiplexer, no decode
}

// Register files with several read ports: every row scripts/calibrate_read_ports.sh
// measured with 2, 4 and 6 ports (depth, width, ports -> LUTs), reproduced within 9 % by the
// first port's row plus `further_port_luts_per_bit` per further port (one per port, the
// first port's row alone, was 15-25 % over at 10 words, 5 % at 12 and 6-12 % under at 14
// and 16), and every depth's rows together within 3 %.
TEST(Target, RegisterFileFurtherPortsMatchYosysMeasurements) {
  const Target& t = fpga_target();
  struct Row {
    int64_t words;
    int bits, ports;
    double lut;
  };
  const std::vector<Row> rows{
      {8, 8, 2, 62}, {8, 8, 4, 110}, {8, 8, 6, 158}, {8, 16, 2, 110}, {8, 16, 4, 206}, {8, 16, 6, 302},
      {8, 32, 2, 206}, {8, 32, 4, 398}, {8, 32, 6, 590}, {10, 8, 2, 74}, {10, 8, 4, 146}, {10, 8, 6, 207},
      {10, 16, 2, 154}, {10, 16, 4, 282}, {10, 16, 6, 410}, {10, 32, 2, 298}, {10, 32, 4, 586}, {10, 32, 6, 876},
      {12, 8, 2, 100}, {12, 8, 4, 190}, {12, 8, 6, 273}, {12, 16, 2, 191}, {12, 16, 4, 356}, {12, 16, 6, 536},
      {12, 32, 2, 355}, {12, 32, 4, 707}, {12, 32, 6, 1057}, {14, 8, 2, 118}, {14, 8, 4, 208}, {14, 8, 6, 308},
      {14, 16, 2, 216}, {14, 16, 4, 403}, {14, 16, 6, 627}, {14, 32, 2, 415}, {14, 32, 4, 794}, {14, 32, 6, 1206},
      {16, 8, 2, 96}, {16, 8, 4, 176}, {16, 8, 6, 269}, {16, 16, 2, 176}, {16, 16, 4, 372}, {16, 16, 6, 520},
      {16, 32, 2, 353}, {16, 32, 4, 694}, {16, 32, 6, 1105}};
  std::map<int64_t, std::pair<double, double>> per_depth;  // estimate, Yosys
  for (const Row& r : rows) {
    const double est = t.register_file.luts(r.words, r.bits, r.ports);
    EXPECT_NEAR(est, r.lut, 0.09 * r.lut) << r.words << " x " << r.bits << ", " << r.ports << " read ports";
    per_depth[r.words].first += est;
    per_depth[r.words].second += r.lut;
  }
  for (const auto& [words, sum] : per_depth) EXPECT_NEAR(sum.first, sum.second, 0.03 * sum.second) << words << " words";
  // a further port is priced by its own row: 12 x 16 with six ports 16 x 5.71 + 12 + 5 x 16 x 5.38
  EXPECT_NEAR(t.register_file.luts(12, 16, 6), 16 * 5.71 + 12 + 5 * 16 * 5.38, 1e-9);
  EXPECT_NEAR(t.register_file.further_port_luts(12, 16), 16 * 5.38, 1e-9);
}

// Between 32 and 64 words the line between the two rows (Yosys synth_xilinx, one read port:
// 36 x 16 292 LUT, 48 x 16 377); below 32 words the next larger row (22 x 16: the 24-word
// row's 16 x 12.75 + 24 = 228; 28 x 16: the 32-word row's 16 x 13.7 + 39 = 258.2).
TEST(Target, RegisterFileBetweenRows) {
  const Target& t = fpga_target();
  EXPECT_NEAR(t.register_file.luts(36, 16, 1), 292, 0.02 * 292);
  EXPECT_NEAR(t.register_file.luts(48, 16, 1), 377, 0.02 * 377);
  // 36 words: 16 x (13.7 + 10.9 x 4 / 32) + 39 + 52 x 4 / 32
  EXPECT_NEAR(t.register_file.luts(36, 16, 1), 16 * (13.7 + 10.9 / 8) + 39 + 52.0 / 8, 1e-9);
  EXPECT_NEAR(t.register_file.luts(22, 16, 1), 16 * 12.75 + 24, 1e-9);
  EXPECT_NEAR(t.register_file.luts(28, 16, 1), 16 * 13.7 + 39, 1e-9);
  // beyond the last row: the 64-word row scaled by the depth
  EXPECT_NEAR(t.register_file.luts(128, 16, 1), 2 * (16 * 24.6 + 91), 1e-9);
}

// Block RAM geometry: the best aspect ratio of a RAMB18E1 (16K x 1 ... 512 x 36), as Yosys
// synth_xilinx mapped the memories of designs/scale (conv3x3_64x64 49 in all, matmul_64x64 28).
TEST(Target, BramBlocksFollowTheAspectRatios) {
  const Target& t = fpga_target();
  struct Row {
    int64_t words;
    int bits;
    double blocks;
  };
  for (const Row& r : {Row{4096, 32, 8}, {4096, 16, 4}, {8192, 32, 16}, {16384, 32, 32}, {36, 32, 1}, {319, 16, 1},
                       {8192, 8, 4}, {1024, 32, 2}, {512, 32, 1}})
    EXPECT_EQ(hwmodel::bram_blocks(t, r.words * ((r.bits + 7) / 8), (r.bits + 7) / 8 * 8, 1), r.blocks)
        << r.words << " x " << r.bits;
}

TEST(Target, CpuIsOneCoreWithHorowitzEnergies) {
  const Target& t = cpu_target();
  EXPECT_TRUE(t.is_cpu());
  EXPECT_EQ(t.cores, 1);
  EXPECT_GT(t.overhead_cycles, 0);
  ASSERT_EQ(t.memory.size(), 3u);
  EXPECT_EQ(t.memory[0].pj_per_64bit, 20);   // 32 KB
  EXPECT_EQ(t.memory[1].pj_per_64bit, 100);  // 1 MB
  using ir::ElementType;
  EXPECT_DOUBLE_EQ(hwmodel::op_energy_pj(t, UnitClass::kIntAlu, ElementType::kS32), 0.1);
  EXPECT_DOUBLE_EQ(hwmodel::op_energy_pj(t, UnitClass::kIntMul, ElementType::kS32), 3.1);
  EXPECT_DOUBLE_EQ(hwmodel::op_energy_pj(t, UnitClass::kFpAdd, ElementType::kF32), 0.9);
  EXPECT_DOUBLE_EQ(hwmodel::op_energy_pj(t, UnitClass::kFpMac, ElementType::kF32), 4.6);
}

TEST(Target, ByNameOrPath) {
  const auto path = (source_dir() / "designs" / "targets" / "cpu.yaml").string();
  EXPECT_EQ(hwmodel::load_target(path, {}).name, "cpu");
  EXPECT_EQ(hwmodel::available_targets(target_dirs()), (std::vector<std::string>{"cpu", "fpga", "ice40"}));
  try {
    hwmodel::load_target("gpu", target_dirs());
    FAIL() << "unknown target accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown target 'gpu'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("available: cpu, fpga, ice40"), std::string::npos) << e.what();
  }
}

// Target files with CRLF or CR-only line ends load like LF ones, errors on the right line.
TEST(Target, CrAndCrlfLineEnds) {
  const std::filesystem::path dir = hlsgym::testing::scratch("hlsgym_target_line_ends");
  std::filesystem::create_directories(dir);
  const std::string lf = fpga_text();
  const std::string bad = replace(lf, "clock_mhz: 100", "clock_mhz: -100");
  const int line = 1 + static_cast<int>(std::count(lf.begin(), lf.begin() + lf.find("clock_mhz"), '\n'));
  for (const char* end : {"\r\n", "\r"}) {
    auto with = [&](const std::string& text) {
      std::string out;
      for (char c : text) out += c == '\n' ? std::string(end) : std::string(1, c);
      return out;
    };
    const std::filesystem::path good_path = dir / "good.yaml", bad_path = dir / "bad.yaml";
    std::ofstream(good_path, std::ios::binary) << with(lf);
    std::ofstream(bad_path, std::ios::binary) << with(bad);
    EXPECT_EQ(hwmodel::load_target(good_path.string(), {}).name, "fpga");
    try {
      hwmodel::load_target(bad_path.string(), {});
      ADD_FAILURE() << "accepted a negative clock";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("bad.yaml:" + std::to_string(line) + ":"), std::string::npos) << e.what();
    }
  }
}

TEST(Target, MissingField) {
  const std::string msg = error_of(replace(fpga_text(), "clock_mhz: 100\n", ""));
  EXPECT_TRUE(std::regex_search(msg, std::regex("^bad\\.yaml:[0-9]+:[0-9]+: missing field 'clock_mhz'"))) << msg;
}

TEST(Target, MissingNestedField) {
  const std::string msg = error_of(replace(fpga_text(), "fp_add:     {latency: 4,  ", "fp_add:     {"));
  EXPECT_NE(msg.find("missing field 'units.fp_add.latency'"), std::string::npos) << msg;
}

TEST(Target, NegativeClock) {
  const std::string msg = error_of(replace(fpga_text(), "clock_mhz: 100", "clock_mhz: -100"));
  // Line of clock_mhz in fpga.yaml, counted from the text.
  const std::string text = fpga_text();
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + text.find("clock_mhz"), '\n'));
  EXPECT_NE(msg.find("bad.yaml:" + std::to_string(line) + ":"), std::string::npos) << msg;
  EXPECT_NE(msg.find("field 'clock_mhz' must be a positive number no larger than 100000, got -100"), std::string::npos) << msg;
}

// The shifter table must be a calibration, not noise: positive, increasing, paired.
TEST(Target, VariableShiftTableIsChecked) {
  const std::string row = "variable_shift_luts: {bits: [8, 16, 32, 64], luts: [15, 53, 107, 243]}";
  ASSERT_NE(fpga_text().find(row), std::string::npos);
  const std::string down = error_of(replace(fpga_text(), row, "variable_shift_luts: {bits: [8, 16, 12, 64], luts: [15, 53, 107, 243]}"));
  EXPECT_NE(down.find("variable_shift_luts.bits' must increase"), std::string::npos) << down;
  const std::string unpaired = error_of(replace(fpga_text(), row, "variable_shift_luts: {bits: [8, 16], luts: [26, 60, 150]}"));
  EXPECT_NE(unpaired.find("bits and luts must have the same length"), std::string::npos) << unpaired;
  const std::string zero = error_of(replace(fpga_text(), row, "variable_shift_luts: {bits: [8, 16], luts: [0, 60]}"));
  EXPECT_NE(zero.find("must list positive numbers"), std::string::npos) << zero;
}

// The register-file rows: a further-port row, when given, pairs with the depths (a missing
// one prices further ports as the first).
TEST(Target, RegisterFileFurtherPortRowIsChecked) {
  const std::string row = "further_port_luts_per_bit: [1, 1, 3, 4.35, 5.38, 6.29, 5.62, 9, 10.1, 12.75, 13.7, 24.6], ";
  ASSERT_NE(fpga_text().find(row), std::string::npos);
  const std::string short_row = error_of(replace(fpga_text(), row, "further_port_luts_per_bit: [1, 1, 3], "));
  EXPECT_NE(short_row.find("further_port_luts_per_bit must have the same length"), std::string::npos) << short_row;
  const hwmodel::RegisterFileCost no_row;
  EXPECT_DOUBLE_EQ(no_row.further_port_luts(16, 8), no_row.port_luts(16, 8));
  EXPECT_DOUBLE_EQ(no_row.luts(16, 8, 3), 3 * no_row.port_luts(16, 8) + no_row.decode(16));
}

// The control table (scripts/calibrate_control.sh): bits increase, every row pairs with
// them; a width between rows interpolates, beyond the last one scales in proportion.
TEST(Target, ControlTableIsCheckedAndInterpolated) {
  const hwmodel::ControlCost& c = fpga_target().control;
  ASSERT_TRUE(c.present());
  EXPECT_DOUBLE_EQ(c.at(c.counter_ffs, 8), 8);
  EXPECT_DOUBLE_EQ(c.at(c.adder_luts, 6), (c.adder_luts[0] + c.adder_luts[1]) / 2);
  EXPECT_DOUBLE_EQ(c.at(c.counter_luts, 48), 2 * c.counter_luts.back());
  const size_t at = fpga_text().find("control: {bits: [4, 8, 12, 16, 24], ");
  ASSERT_NE(at, std::string::npos);
  const std::string row = fpga_text().substr(at, fpga_text().find('\n', at) - at);
  const std::string down = error_of(replace(fpga_text(), row, "control: {bits: [8, 4], counter_luts: [1, 2], counter_ffs: [1, 2], compare_luts: [1, 2], adder_luts: [1, 2], scale_luts: [1, 2]}"));
  EXPECT_NE(down.find("control.bits' must increase"), std::string::npos) << down;
  const std::string unpaired = error_of(replace(fpga_text(), row, "control: {bits: [4, 8], counter_luts: [1], counter_ffs: [1, 2], compare_luts: [1, 2], adder_luts: [1, 2], scale_luts: [1, 2]}"));
  EXPECT_NE(unpaired.find("every row must have as many entries as bits"), std::string::npos) << unpaired;
  // timer_luts is optional: absent, a timeline counter's increment is the carry chain's (0 LUT)
  EXPECT_DOUBLE_EQ(c.at(c.timer_luts, 12), 0);
  const std::string timer = error_of(replace(fpga_text(), row, "control: {bits: [4, 8], counter_luts: [1, 2], counter_ffs: [1, 2], compare_luts: [1, 2], adder_luts: [1, 2], scale_luts: [1, 2], timer_luts: [1]}"));
  EXPECT_NE(timer.find("every row must have as many entries as bits"), std::string::npos) << timer;
}

// The float units table: formats are f32, f16 or bf16, each with latency, lut, ff, dsp.
TEST(Target, FloatUnitsTableIsChecked) {
  const std::string row = "  fadd: {f32: {latency: 4,";
  ASSERT_NE(fpga_text().find(row), std::string::npos);
  const Target t = hwmodel::parse_target(fpga_text(), "fpga.yaml");
  ASSERT_NE(t.float_unit("fadd", ir::ElementType::kF32), nullptr);
  EXPECT_EQ(t.float_unit("fadd", ir::ElementType::kF32)->latency, 4);
  EXPECT_EQ(t.float_unit("fadd", ir::ElementType::kF64), nullptr);
  EXPECT_EQ(t.float_unit("facos", ir::ElementType::kF32), nullptr);  // no such unit
  const std::string format = error_of(replace(fpga_text(), row, "  fadd: {f64: {latency: 4,"));
  EXPECT_NE(format.find("field 'float_units.fadd.f64': the format must be f32, f16 or bf16"), std::string::npos) << format;
  const std::string missing = error_of(replace(fpga_text(), row, "  fadd: {f32: {"));
  EXPECT_NE(missing.find("missing field 'float_units.fadd.f32.latency'"), std::string::npos) << missing;
  const std::string zero = error_of(replace(fpga_text(), row, "  fadd: {f32: {latency: 0,"));
  EXPECT_NE(zero.find("field 'float_units.fadd.f32.latency' must be in [1, 10000], got 0"), std::string::npos) << zero;
}

TEST(Target, UnknownField) {
  const std::string msg = error_of(replace(fpga_text(), "static_mw: 120", "static_mw: 120\nclock_mzh: 3"));
  EXPECT_NE(msg.find("unknown field 'clock_mzh'; did you mean 'clock_mhz'?"), std::string::npos) << msg;
  const std::string nested = error_of(replace(fpga_text(), "fp_mul:     {latency: 3,", "fp_mul:     {latncy: 3,"));
  EXPECT_NE(nested.find("unknown field 'units.fp_mul.latncy'"), std::string::npos) << nested;
}

TEST(Target, NonsensicalValues) {
  EXPECT_NE(error_of(replace(fpga_text(), "dsp: 220", "dsp: 0")).find("field 'resources.dsp' must be a positive number"),
            std::string::npos);
  EXPECT_NE(error_of(replace(fpga_text(), "int_alu:    {latency: 1", "int_alu:    {latency: 0"))
                .find("field 'units.int_alu.latency' must be in [1, 10000], got 0"),
            std::string::npos);
  EXPECT_NE(error_of(replace(fpga_text(), "latency: 36", "latency: 2.5")).find("must be a whole number"),
            std::string::npos);
  EXPECT_NE(error_of(replace(fpga_text(), "fp_add:     {latency: 4,  lut: 390,  ff: 205,  dsp: 2,",
                             "fp_add:     {latency: 4,  lut: 390,  ff: 205,  dsp: packed,"))
                .find("only int_mul and fp_mul may be 'packed'"),
            std::string::npos);
  EXPECT_NE(error_of(replace(fpga_text(), "capacity_bytes: 645120", "capacity_bytes: 9645120"))
                .find("exceeds the part's BRAM"),
            std::string::npos);
  EXPECT_NE(error_of(replace(fpga_text(), "kind: fpga", "kind: gpu")).find("field 'kind' must be fpga or cpu"),
            std::string::npos);
  EXPECT_NE(error_of("[1, 2]").find("must be a YAML map"), std::string::npos);
  EXPECT_NE(error_of("target: x\nkind: fpga\n  bad: [").find("invalid YAML"), std::string::npos);
}

}  // namespace
}  // namespace hlsgym::testing
