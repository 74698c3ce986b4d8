// The clock model (hwmodel/clock.h): which path is critical and how its delay follows the
// structure; the check against nextpnr itself is `hlsgym rtl --pnr` (tests/rtl/pnr_test.cc).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "frontend/hlo_parser.h"
#include "hwmodel/clock.h"
#include "hwmodel/clock_address.h"
#include "hwmodel/estimate.h"
#include "hwmodel/timing.h"
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

// Every integer op on one int_alu instance: its tasks share it.
hwmodel::ClockEstimate on_one_alu(const std::string& yaml) {
  hwmodel::EstimateOptions o;
  o.unit_limits["int_alu"] = 1;
  return hwmodel::estimate(load_yaml(yaml), ice40(), o).clock;
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
  EXPECT_DOUBLE_EQ(c.critical_ns, ice40().timing.read_port(8, 8) * c.route_factor);
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
  // Shared, the instance's one result net reaches both tracks its tasks store into (s's
  // and y's, two words each).
  const hwmodel::ClockEstimate shared = on_one_alu(two), alone = on_one_alu(one);
  const auto& tm = ice40().timing;
  const double store = tm.write_port(2);
  EXPECT_NEAR(alone.critical_ns, std::max(tm.op("add", 32) + store, tm.read_port(2, 32)) * alone.route_factor, 1e-9);
  EXPECT_NEAR(shared.critical_ns,
              (tm.op("add", 32) + tm.shared_unit(2) + tm.lut_ns + tm.write_port(4)) * shared.route_factor, 1e-9)
      << shared.path;
}

TEST(Clock, ALaterTaskPassesFewerSelects) {
  // rtl selects a shared unit's result by ifs in start order, the last nearest the
  // register: a task passes its own select and every later task's. Two adds, then a
  // clamp, on one instance: the clamp (critical) is last and pays the select of two
  // tasks, not the three the first add passes.
  const std::string adds =
      "design: e\ninputs:\n  a: s16[2]\n  b: s16[2]\nops:\n  - {name: s, op: add, args: [a, b]}\n"
      "  - {name: t, op: add, args: [s, b]}\n  - {name: y, op: clamp, args: [a, t, b]}\noutputs: [y]\n";
  const hwmodel::ClockEstimate c = on_one_alu(adds);
  ASSERT_TRUE(c.modeled) << c.unmodeled;
  const auto& tm = ice40().timing;
  ASSERT_NE(c.path.find("clamp"), std::string::npos) << c.path;
  // y's track has no other writer: no write select; the instance's result net reaches the
  // word registers of every track its three tasks store into (4 words in this binding)
  EXPECT_NEAR(c.critical_ns, (tm.op("clamp", 16) + tm.shared_unit(2) + tm.write_port(4)) * c.route_factor, 1e-9);
  EXPECT_LT(tm.shared_unit(2), tm.shared_unit(3));
}

TEST(Clock, AnUnsignedCompareHasNoSignFix) {
  auto compare = [](const std::string& type) {
    return "design: e\ninputs:\n  a: " + type + "\n  b: " + type +
           "\nops:\n  - {name: y, op: compare, args: [a, b], direction: LT}\noutputs: [y]\n";
  };
  const hwmodel::ClockEstimate uc = clock_of(compare("u32[2]")), sc = clock_of(compare("s32[2]"));
  ASSERT_NE(sc.path.find("compare"), std::string::npos) << sc.path;
  ASSERT_NE(uc.path.find("compare"), std::string::npos) << uc.path;
  const double u = uc.critical_ns, s = sc.critical_ns;
  EXPECT_LT(u, s);
  EXPECT_LT(ice40().timing.op("compare_unsigned", 32), ice40().timing.op("compare", 32));
}

TEST(Clock, AReadPortIsAsDeepAsItsAddressIsWide) {
  // 36 words take a 6-bit address, as 64 do; 16-bit words are measured apart from 32-bit.
  const auto& tm = ice40().timing;
  EXPECT_EQ(tm.read_port(36, 16), tm.read_port(64, 16));
  EXPECT_GT(tm.read_port(36, 16), tm.read_port(32, 16));
  EXPECT_LT(tm.read_port(64, 16), tm.read_port(64, 32));
  EXPECT_EQ(tm.read_port(64, 8), tm.read_port(64, 16));  // held at the measured widths
}

TEST(Clock, WindowAddressesAddOnlyOverlappingTerms) {
  // maxpool: (2 o + t) per dimension of an 8 x 8 image: 16 o0 + 8 t0 + 2 o1 + t1, every term
  // on bits of its own: no adder. A 3x3 convolution of a 6 x 6 image at stride 1: 6 (o0 + t0)
  // + (o1 + t1): three adders. A dot over 3 terms: i x 3 + k, one.
  const ir::Module pool = frontend::load_design((source_dir() / "designs/maxpool.yaml").string()).module;
  const ir::Module conv = frontend::load_design((source_dir() / "designs/conv2d.yaml").string()).module;
  auto first = [](const ir::Module& m, ir::Opcode op) {
    for (ir::InstrId i : m.computation(m.entry()).order)
      if (m.instr(i).opcode == op) return i;
    return ir::kNoId;
  };
  const ir::InstrId rw = first(pool, ir::Opcode::kReduceWindow);
  EXPECT_EQ(hwmodel::address_adders(pool, rw, pool.operand(rw, 0)), 0);
  const ir::InstrId cv = first(conv, ir::Opcode::kConvolution);
  EXPECT_EQ(hwmodel::address_adders(conv, cv, conv.operand(cv, 0)), 3);
  EXPECT_EQ(hwmodel::address_adders(conv, cv, conv.operand(cv, 1)), 1);  // 6 ky + 2 kx + o: only 6 ky adds
  const ir::Module dot = load_yaml(
      "design: d\ninputs:\n  a: s32[4,3]\n  b: s32[3]\nops:\n  - {name: y, op: dot, args: [a, b], "
      "lhs_contracting_dims: [1], rhs_contracting_dims: [0]}\noutputs: [y]\n");
  const ir::InstrId d = first(dot, ir::Opcode::kDot);
  EXPECT_EQ(hwmodel::address_adders(dot, d, dot.operand(d, 0)), 1);
  EXPECT_EQ(hwmodel::address_adders(dot, d, dot.operand(d, 1)), 0);
  EXPECT_EQ(hwmodel::address_adders(dot, d, ir::kNoId), std::nullopt);  // not its operand
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

// A dot of two s32[2] into one output, on `lanes` lanes.
hwmodel::Estimate small_dot(int lanes) {
  hwmodel::EstimateOptions o;
  o.lanes = lanes;
  return hwmodel::estimate(
      load_yaml("design: d\ninputs:\n  a: s32[2]\n  b: s32[2]\nops:\n  - {name: y, op: dot, args: [a, b], "
                "lhs_contracting_dims: [0], rhs_contracting_dims: [0]}\noutputs: [y]\n"),
      ice40(), o);
}

TEST(Clock, AnIntegerMacAddsNoInitSelect) {
  // rtl clears an integer mac's slot register by its flip-flops' reset the cycle before an
  // output's first term (rtl/verilog_units.cc clear_slots), so the accumulator stage is its
  // adder alone, `accr + p`: no init select in front of it (the clock priced one until the
  // Verilog dropped it).
  const hwmodel::Estimate e = small_dot(1);
  const hwmodel::ClockEstimate& c = e.clock;
  ASSERT_TRUE(c.modeled) << c.unmodeled;
  ASSERT_NE(c.path.find("int_mac"), std::string::npos) << c.path;
  const auto& tm = ice40().timing;
  // the scalar's register is one word; nothing else writes it. The stage is the `mac` row,
  // measured on the lane as rtl writes it: the adder behind the SB_MAC16's output register,
  // whose net out of the DSP block is longer than a fabric register's (dot_product's path)
  EXPECT_NEAR(c.critical_ns, tm.op("mac", 32) * c.route_factor, 1e-9) << c.path;
  EXPECT_GT(tm.op("mac", 32), tm.op("add", 32));
}

TEST(Clock, ASplitMacClearsItsPartialSumInFrontOfTheAdder) {
  // Two lanes for one output split its terms (timing.h): each lane's partial sum starts
  // from zero by a select in front of its adder (rtl emit_accumulate), a LUT level.
  const hwmodel::Estimate e = small_dot(2);
  const hwmodel::ClockEstimate& c = e.clock;
  ASSERT_TRUE(c.modeled) << c.unmodeled;
  ASSERT_NE(c.path.find("int_mac"), std::string::npos) << c.path;
  const auto& tm = ice40().timing;
  EXPECT_NEAR(c.critical_ns, (tm.op("mac", 32) + tm.lut_ns) * c.route_factor, 1e-9) << c.path;
  EXPECT_EQ(hwmodel::accumulate_shape(1, 2, 2, 1).split, 2);
}

TEST(Clock, AFloatMacIsNotMeasured) {
  const hwmodel::ClockEstimate c =
      clock_of("design: d\ninputs:\n  a: f32[4]\n  b: f32[4]\nops:\n  - {name: y, op: dot, args: [a, b], "
               "lhs_contracting_dims: [0], rhs_contracting_dims: [0]}\noutputs: [y]\n");
  EXPECT_FALSE(c.modeled);
  EXPECT_NE(c.unmodeled.find("dot on f32"), std::string::npos) << c.unmodeled;
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

TEST(Clock, AShiftByARunTimeAmountIsItsMeasuredRow) {
  // rtl compares the amount against the width (a carry chain over the amount's bits) and
  // selects the sign fill or the masked shifter: measured as written (cordic's xs, ys),
  // not composed from LUT levels. A splat amount is wiring.
  const auto& tm = ice40().timing;
  const hwmodel::ClockEstimate c = clock_of(elementwise("shift-right-arithmetic", "s32[2]"));
  ASSERT_TRUE(c.modeled) << c.unmodeled;
  EXPECT_NE(c.path.find("shift-right-arithmetic"), std::string::npos) << c.path;
  EXPECT_NEAR(c.critical_ns, (tm.op("shift", 32) + tm.write_port(2)) * c.route_factor, 1e-9) << c.path;
  EXPECT_LT(tm.op("shift", 8), tm.op("shift", 32));
}

// The first instruction of `op` in any computation of `m`.
ir::InstrId first_of(const ir::Module& m, ir::Opcode op) {
  for (ir::CompId c : m.computation_post_order())
    for (ir::InstrId i : m.computation(c).order)
      if (m.instr(i).opcode == op) return i;
  return ir::kNoId;
}

TEST(Clock, AGathersStartIsClampedInFrontOfItsReadPort) {
  // A gather reads its start index, clamps it to the last start (its sign and a carry-chain
  // compare), and adds it at its stride to the row's offset counter: 6 rows of 3 words need
  // an adder (stride 3), rows of 4 words are wired beside the offset (stride 4 above 0..3).
  const auto gather = [](int cols) {
    const std::string c = std::to_string(cols);
    return frontend::parse_hlo("HloModule g\nENTRY e {\n t = s32[6," + c + "] parameter(0)\n i = s32[2] parameter(1)\n"
                               " iv = s32[2,1] reshape(i)\n ROOT r = s32[2," + c +
                               "] gather(t, iv), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, "
                               "index_vector_dim=1, slice_sizes={1," + c + "}\n}\n",
                               "g.hlo");
  };
  const ir::Module three = gather(3), four = gather(4);
  const ir::InstrId g3 = first_of(three, ir::Opcode::kGather), g4 = first_of(four, ir::Opcode::kGather);
  EXPECT_EQ(hwmodel::address_adders(three, g3, three.operand(g3, 0)), 1);
  EXPECT_EQ(hwmodel::address_adders(four, g4, four.operand(g4, 0)), 0);
  EXPECT_EQ(hwmodel::address_adders(four, g4, four.operand(g4, 1)), 0);  // item j's start: its counter
  const auto& tm = ice40().timing;
  const hwmodel::ClockEstimate c = hwmodel::estimate(four, ice40()).clock;
  ASSERT_TRUE(c.modeled) << c.unmodeled;
  EXPECT_NE(c.path.find("gather"), std::string::npos) << c.path;
  EXPECT_NEAR(c.critical_ns, (tm.read_port(24, 32) + tm.gather_start(32)) * c.route_factor, 1e-9) << c.path;
  EXPECT_LT(tm.gather_start(8), tm.gather_start(32));
}

TEST(Clock, ALoopBodyReadsItsCallersStateTrack) {
  // gather_in_loop's body gathers rows of the loop state t (6 x 3 words), which its caller
  // holds in a register track (rtl: lp_w_s_2): the body's read port is that track's,
  // behind the clamped start and the stride-3 adder.
  const ir::Module m = frontend::load_design((source_dir() / "designs/indexing/gather_in_loop.hlo").string()).module;
  const hwmodel::ClockEstimate c = hwmodel::estimate(m, ice40()).clock;
  ASSERT_TRUE(c.modeled) << c.unmodeled;
  EXPECT_NE(c.path.find("read port of the caller's t (18 words) by gather"), std::string::npos) << c.path;
  const auto& tm = ice40().timing;
  EXPECT_NEAR(c.critical_ns,
              (tm.read_port(18, 32) + tm.lut_ns + tm.carry_ns * 5 + tm.gather_start(32)) * c.route_factor, 1e-9);
}

TEST(Clock, AnInstancesResultReachesEveryTrackItsTasksStore) {
  // dot_loop's body shares one int_alu between the counter's add (i1, a one-word state)
  // and the shift (v1, written in place into the caller's 4-word state track): after the
  // select the one result net reaches all five word registers, so the add pays it too.
  const ir::Module m = frontend::load_design((source_dir() / "designs/loops/dot_loop.hlo").string()).module;
  const hwmodel::ClockEstimate c = hwmodel::estimate(m, ice40()).clock;
  ASSERT_TRUE(c.modeled) << c.unmodeled;
  const auto& tm = ice40().timing;
  const double add = (tm.op("add", 32) + tm.shared_unit(2) + tm.write_port(5)) * c.route_factor;
  EXPECT_GE(c.critical_ns, add - 1e-9) << c.path;
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
