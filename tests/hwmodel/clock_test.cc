// The clock model (hwmodel/clock.h): which path is critical and how its delay follows the
// structure; the check against nextpnr itself is `hlsgym rtl --pnr` (tests/rtl/pnr_test.cc).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "frontend/hlo_parser.h"
#include "hwmodel/clock.h"
#include "hwmodel/estimate.h"
#include "ir/error.h"
#include "tests/hwmodel/hwmodel_test_util.h"

namespace hlsgym::testing {
namespace {

const hwmodel::Target& ice40() {
  static const hwmodel::Target t = hwmodel::load_target("ice40", target_dirs());
  return t;
}

hwmodel::ClockEstimate clock_of(const std::string& yaml, const hwmodel::Target& t = ice40()) {
  return hwmodel::estimate(load_yaml(yaml), t).clock;
}

std::string elementwise(const std::string& op, const std::string& type) {
  return "design: e\ninputs:\n  a: " + type + "\n  b: " + type + "\nops:\n  - {name: y, op: " + op +
         ", args: [a, b]}\noutputs: [y]\n";
}

TEST(Clock, TargetWithoutTimingModelSaysSo) {
  const hwmodel::ClockEstimate c = clock_of(elementwise("add", "s32[8]"), fpga_target());
  EXPECT_FALSE(c.modeled);
  EXPECT_NE(c.unmodeled.find("no timing model"), std::string::npos) << c.unmodeled;
}

TEST(Clock, TheTablesCompose) {
  // A register-file read of 8 words against an 8-bit add: the read port is slower.
  const hwmodel::ClockEstimate c = clock_of(elementwise("add", "s8[8]"));
  ASSERT_TRUE(c.modeled) << c.unmodeled;
  EXPECT_DOUBLE_EQ(c.critical_ns, ice40().timing.read_port(8) * c.route_factor);
  EXPECT_NE(c.path.find("read port"), std::string::npos) << c.path;
  EXPECT_NEAR(c.fmax_mhz(), 1000 / c.critical_ns, 1e-9);
}

TEST(Clock, WiderArithmeticIsSlower) {
  const double narrow = clock_of(elementwise("maximum", "s8[2]")).critical_ns;
  const double wide = clock_of(elementwise("maximum", "s32[2]")).critical_ns;
  EXPECT_LT(narrow, wide);
  EXPECT_NE(clock_of(elementwise("maximum", "s32[2]")).path.find("maximum"), std::string::npos);
}

TEST(Clock, SharingAUnitAddsItsSelect) {
  // Two adds on one int_alu instance: the stage gains the operand gates and the result
  // select (measured for two tasks); the result goes to the track of input a, whose write
  // port also serves the host (one more level), and reaches its two word registers.
  const std::string one = elementwise("add", "s32[2]");
  const std::string two =
      "design: e\ninputs:\n  a: s32[2]\n  b: s32[2]\nops:\n  - {name: s, op: add, args: [a, b]}\n"
      "  - {name: y, op: add, args: [s, b]}\noutputs: [y]\n";
  hwmodel::EstimateOptions o;
  o.unit_limits["int_alu"] = 1;
  const hwmodel::ClockEstimate shared = hwmodel::estimate(load_yaml(two), ice40(), o).clock;
  const hwmodel::ClockEstimate alone = hwmodel::estimate(load_yaml(one), ice40(), o).clock;
  const auto& tm = ice40().timing;
  const double store = tm.write_port(2);
  EXPECT_NEAR(alone.critical_ns, std::max(tm.op("add", 32) + store, tm.read_port(2)) * alone.route_factor, 1e-9);
  EXPECT_NEAR(shared.critical_ns, (tm.op("add", 32) + tm.shared_unit(2) + tm.lut_ns + store) * shared.route_factor, 1e-9)
      << shared.path;
}

TEST(Clock, AFusedBodyIsOneStageOfChainedOps) {
  // The RTL computes a fused body in one cycle: the first add pays its carry chain, the
  // second (ripple adders in series overlap) one LUT level more.
  const ir::Module m = frontend::parse_hlo(
      "HloModule f\nfused {\n p0 = s32[2] parameter(0)\n p1 = s32[2] parameter(1)\n s = s32[2] add(p0, p1)\n"
      " ROOT t = s32[2] add(s, p1)\n}\nENTRY e {\n a = s32[2] parameter(0)\n b = s32[2] parameter(1)\n"
      " ROOT f = s32[2] fusion(a, b), kind=kLoop, calls=fused\n}\n",
      "f.hlo");
  const hwmodel::ClockEstimate c = hwmodel::estimate(m, ice40()).clock;
  ASSERT_TRUE(c.modeled) << c.unmodeled;
  const auto& tm = ice40().timing;
  EXPECT_NEAR(c.critical_ns, (tm.op("add", 32) + tm.lut_ns + tm.write_port(2)) * c.route_factor, 1e-9) << c.path;
  EXPECT_NE(c.path.find("fusion"), std::string::npos) << c.path;
}

TEST(Clock, MeasuredCurvesGrowAndHoldAtTheirEnds) {
  const auto& tm = ice40().timing;
  EXPECT_EQ(tm.shared_unit(1), 0);
  EXPECT_EQ(tm.write_port(1), 0);
  EXPECT_LT(tm.shared_unit(2), tm.shared_unit(8));
  EXPECT_LT(tm.write_port(4), tm.write_port(64));
  // the route factor is measured between its smallest and largest placement, held beyond
  EXPECT_EQ(tm.route_factor(1), tm.route_factor(tm.route_cells.front()));
  EXPECT_EQ(tm.route_factor(1e6), tm.route_factor(tm.route_cells.back()));
}

TEST(Clock, TheDesignsSizeStretchesItsPath) {
  // The route factor is applied once, at the whole design's LUT4s + flip-flops.
  const hwmodel::Estimate e = hwmodel::estimate(load_yaml(elementwise("add", "s8[8]")), ice40());
  ASSERT_TRUE(e.clock.modeled) << e.clock.unmodeled;
  EXPECT_DOUBLE_EQ(e.clock.route_factor, ice40().timing.route_factor(e.area.lut + e.area.ff));
}

TEST(Clock, UnmeasuredOperationsNameThemselves) {
  const hwmodel::ClockEstimate c = clock_of(elementwise("divide", "s32[4]"));
  EXPECT_FALSE(c.modeled);
  EXPECT_NE(c.unmodeled.find("divide"), std::string::npos) << c.unmodeled;
  EXPECT_FALSE(clock_of(elementwise("add", "f32[4]")).modeled);
}

TEST(Clock, LoopBodiesCount) {
  // A counted loop's body runs on its own datapath: its slowest path is the design's.
  const ir::Module m = frontend::load_design((source_dir() / "designs/loops/cordic.yaml").string()).module;
  const hwmodel::ClockEstimate c = hwmodel::estimate(m, ice40()).clock;
  ASSERT_TRUE(c.modeled) << c.unmodeled;
  EXPECT_GT(c.critical_ns, 0);
}

TEST(Clock, TimingBlockIsValidated) {
  std::ifstream in(source_dir() / "designs/targets/ice40.yaml");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  const std::string key = "lut_ns: 3.34";
  ASSERT_NE(text.find(key), std::string::npos);
  text.replace(text.find(key), key.size(), "lut_ns: -1");
  EXPECT_THROW(hwmodel::parse_target(text, "bad.yaml"), hlsgym::Error);
}

}  // namespace
}  // namespace hlsgym::testing
