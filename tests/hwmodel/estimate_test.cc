// Estimates computed by hand for three small designs, the lowering's special cases
// (loops, lanes attributes, ops without a cost model, designs that do not fit) and
// monotonicity in lanes.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "hwmodel/control_flow.h"
#include "hwmodel/estimate.h"
#include "hwmodel/lowering.h"
#include "hwmodel/schedule_verifier.h"
#include "hwmodel/unit_model.h"
#include "ir/error.h"
#include "tests/hwmodel/hwmodel_test_util.h"

namespace hlsgym::testing {
namespace {
using namespace hwmodel;

// fir8 on the fpga, lanes 1, list schedule. Every task starts with its read stage
// (R = 1, hwmodel/timing.h).
//   xw, hw = convert s16[8] -> s32[8]: chained into the multiply (hwmodel/chaining.h):
//     no task, no buffer; the multiply reads x and h and extends them.
//   p = multiply s32[8]: int_mul, depth R + 3: 4 + 8 - 1 = 11 cycles, 0..11.
//   y = reduce 8 terms -> 1 output, int add (A = 1) after the read (M' = R = 1), one
//     lane: issue (8-1)*1 + 1 = 8, latency 1 + 1 + 8 - 1 = 9, 11..20.  => cycles = 20
//   ii: int_mul.0 runs p (8 busy), int_alu.0 runs y (8 busy)            => ii = 8
//   live bytes at 0..11: x 16 + h 16 + p 32 + zero 4                    => 68
//   energy: compute = 8 mul x 3.1 x 4 (DSP) + 8 adds x 1.4 = 99.2 + 11.2 = 110.4 pJ;
//     on-chip = bytes (x 16 + h 16 + p 32 for p, p 32 + zero 4 + y 4 for y) / 8
//     x 10 pJ x 4 = 104 / 8 x 40 = 520 pJ; static = 120 mW x 0.20 us = 24000 pJ.
//   area: int_alu 32 LUT + 0 FF, int_mul 40 LUT + 64 FF + 1 DSP (its factors are the
//     chained s16 converts: a signed 16 x 16 product kept to 32 bits is one DSP48E1
//     slice, unit_model.h, where a 32 x 32 one takes 3); no shared unit, no multiplexer;
//     registers by left-edge: tracks x then y (8 words: word 0 holds x[0] and the 32-bit
//     y, words 1..7 only 16-bit x: 32 + 7 x 16 = 144 bits; binding.cc), h (8 x 16),
//     p (8 x 32), one read port each (y, a scalar output, is a wire); zero is a literal
//     in the Verilog (a constant of one value: no storage):
//     FF = storage + a read register as wide as the word: 176 + 144 + 288 = 608;
//     LUT (Target::register_file, 8 words: 3 per read bit + 14 decode; per band of bits,
//     binding.cc: the x/y track's upper 16 bits are held by word 0 alone, no multiplexer)
//     (14 + 16 x 3) + 62 + 110 = 234.
//     => DSP 1, LUT 72 + 234 = 306, FF 64 + 608 = 672, BRAM 0, plus the control logic
//     (microarch_control.h, counted from the plan for the whole nest: 7.5 LUT, 28 FF).
TEST(Estimate, Fir8OnFpgaByHand) {
  const Estimate e = estimate(load_named_design("fir8"), fpga_target());
  EXPECT_EQ(e.cycles, 20);
  EXPECT_EQ(e.ii, 8);
  EXPECT_EQ(e.memory_bytes, 68);
  EXPECT_NEAR(e.energy.compute_pj, 110.4, 1e-9);
  EXPECT_NEAR(e.energy.onchip_pj, 520, 1e-9);
  EXPECT_EQ(e.energy.dram_pj, 0);
  EXPECT_NEAR(e.energy.static_pj, 24000, 1e-6);
  EXPECT_NEAR(e.energy_pj, 110.4 + 520 + 24000, 1e-6);
  EXPECT_EQ(e.area.dsp, 1);
  EXPECT_EQ(e.area.lut - e.control.lut, 306);
  EXPECT_EQ(e.area.ff - e.control.ff, 672);
  EXPECT_EQ(e.control.lut, 7.5);
  EXPECT_EQ(e.control.ff, 28);
  EXPECT_EQ(e.control_unmodeled, "");
  EXPECT_EQ(e.area.bram18k, 0);
  EXPECT_NEAR(e.utilization.dsp, 1.0 / 220, 1e-12);
  EXPECT_TRUE(e.fits);
  EXPECT_EQ(e.element_ops, 16);
}

// matvec on the fpga: A s32[4,8] . x s32[8] + b.
//   Ax = dot, 4 outputs x 8 terms on one int_mac lane (read 1 + mul 3 = M' 4, add A 1):
//     groups of min(4, A) = 1 output, 4 groups of 8 rounds of 1 cycle: issue
//     4 * 7 * 1 + 4 = 32, latency 4 + 1 + 32 - 1 = 36.
//   y = add s32[4]: depth R + 1 = 2: 2 + 4 - 1 = 5, 36..41.             => cycles = 41
//   ii = int_mac.0 busy 32. Live 0..36: A 128 + x 32 + b 16 + Ax 16    => 192 bytes
//   compute = 32 MACs x (3.1 x 4 + 0.1 x 14) + 4 adds x 1.4 = 447.2 pJ
//   on-chip = (160 + 16 + 32 + 16) bytes / 8 x 40 = 1120 pJ; static 120 mW x 0.41 us.
//   area: MAC lane = int_alu's adder (32 LUT) + int_mac's split_product_lut (17: the
//     s32 product takes 3 DSP slices) and int_mul's 64 FF; the add's
//     int_alu 32 + 0; registers: A then y (32 words x 32 bits, two read ports: the dot
//     reads A through all 32 words, the output port y through its 2-bit address, 4
//     words, and a register file's port serves one reader: 1024 + 2 x 32 FF,
//     32 x 13.7 + 32 x 1 + 39 = 509.4 LUT), x (8 words: 288 FF, 110 LUT), b and Ax
//     (4 words: 160 FF, 32 + 4 = 36 LUT each).
//                                 => DSP 3, LUT 81 + 691.4, FF 64 + 1696 = 1760, plus
//     the control logic (10.75 LUT, 25 FF).
TEST(Estimate, MatvecOnFpgaByHand) {
  const Estimate e = estimate(load_named_design("matvec"), fpga_target());
  EXPECT_EQ(e.cycles, 41);
  EXPECT_EQ(e.ii, 32);
  EXPECT_EQ(e.memory_bytes, 192);
  EXPECT_NEAR(e.energy.compute_pj, 447.2, 1e-9);
  EXPECT_NEAR(e.energy.onchip_pj, 1120, 1e-9);
  EXPECT_NEAR(e.energy.static_pj, 49200, 1e-6);
  EXPECT_EQ(e.area.dsp, 3);
  EXPECT_NEAR(e.area.lut - e.control.lut, 772.4, 1e-9);
  EXPECT_EQ(e.area.ff - e.control.ff, 1760);
  EXPECT_NEAR(e.control.lut, 10.75, 1e-9);
  EXPECT_EQ(e.control.ff, 25);
}

// dot_product on the cpu: one dot of 16 s32 terms.
//   compute: 16 MACs / (256 / 32 = 8 per vector) = 2 vectors x 1 cycle = 2 cycles;
//   memory: 64 + 64 + 4 = 132 bytes in L1 (64 B/cycle) = 2.06 cycles;
//   latency = 30 (overhead) + ceil(max(2, 2.06)) = 33; one core: ii = 33.
//   energy: 16 x (3.1 + 0.1) = 51.2 pJ compute; 132 / 8 x 20 pJ (32 KB) = 330 pJ;
//   static 1000 mW x 33 / 3 GHz = 11 ns -> 11000 pJ.
TEST(Estimate, DotProductOnCpuByHand) {
  const Estimate e = estimate(load_named_design("dot_product"), cpu_target());
  EXPECT_EQ(e.cycles, 33);
  EXPECT_EQ(e.ii, 33);
  EXPECT_EQ(e.memory_bytes, 132);
  EXPECT_NEAR(e.energy.compute_pj, 51.2, 1e-9);
  EXPECT_NEAR(e.energy.onchip_pj, 330, 1e-9);
  EXPECT_NEAR(e.energy.static_pj, 11000, 1e-6);
  EXPECT_EQ(e.area.dsp, 0);
}

// More lanes: never fewer resources (DSP, LUT, FF, BRAM each), on every design.
TEST(Estimate, MoreLanesNeverFewerResources) {
  for (const auto& path : all_designs()) {
    const ir::Module m = frontend::load_design(path.string()).module;
    Area previous;
    for (int lanes = 1; lanes <= 64; lanes *= 2) {
      EstimateOptions o;
      o.lanes = lanes;
      o.lenient = true;  // wide designs may outgrow the part; still compare
      const Area a = estimate(m, fpga_target(), o).area;
      EXPECT_GE(a.dsp, previous.dsp) << path << " lanes " << lanes;
      EXPECT_GE(a.lut, previous.lut) << path << " lanes " << lanes;
      EXPECT_GE(a.ff, previous.ff) << path << " lanes " << lanes;
      EXPECT_GE(a.bram18k, previous.bram18k) << path << " lanes " << lanes;
      previous = a;
    }
  }
}

TEST(Estimate, LanesAttributeOverridesTheGlobalKnob) {
  const std::string base = R"(
design: scale
inputs: {x: "f32[64]", y: "f32[64]"}
ops:
  - {name: p, op: multiply, args: [x, y]LANES}
outputs: [p]
)";
  const ir::Module plain = load_yaml(std::string(base).replace(base.find("LANES"), 5, ""));
  const ir::Module wide =
      load_yaml(std::string(base).replace(base.find("LANES"), 5, ", frontend_attributes: '{lanes=\"4\"}'"));
  ASSERT_EQ(lanes_attribute(wide, wide.computation(wide.entry()).root), 4);
  EXPECT_EQ(estimate(plain, fpga_target()).cycles, 1 + 3 + 64 - 1);  // read 1 + fp_mul depth 3
  EXPECT_EQ(estimate(wide, fpga_target()).cycles, 1 + 3 + 16 - 1);
}

constexpr const char* kCountedLoop = R"(HloModule loop
cond {
  p = (s32[], f32[16]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  n = s32[] constant(10)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  p = (s32[], f32[16]) parameter(0)
  i = s32[] get-tuple-element(p), index=0
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  v = f32[16] get-tuple-element(p), index=1
  v2 = f32[16] multiply(v, v)
  ROOT t = (s32[], f32[16]) tuple(i1, v2)
}
ENTRY main {
  x = f32[16] parameter(0)
  zero = s32[] constant(START)
  init = (s32[], f32[16]) tuple(zero, x)
  w = (s32[], f32[16]) while(init), condition=cond, body=body
  ROOT r = f32[16] get-tuple-element(w), index=1
}
)";

ir::Module loop_module(const std::string& start) {
  std::string text = kCountedLoop;
  text.replace(text.find("START"), 5, start);
  return frontend::parse_hlo(text, "loop.hlo");
}

// The loop of hwmodel/control_flow.h. Condition: compare on int_alu after its read, 2
// cycles; body: add (2) and a 16-element fp multiply (1 + 3 + 16 - 1 = 19) in parallel:
// 19 cycles. State copies are memory moves of depth 1 + 2 (read stage, memory latency):
// the scalar 3 cycles, the vector 3 + 16 - 1 = 18; both leaves change, so copy-in and
// copy-back take 18. 10 trips: 18 + 11 x (2 + 1) + 10 x (19 + 18) = 421.
// Pipelined (hwmodel/loop_pipelining.h), the multiply holds its fp_mul instance 16 cycles
// per iteration (ResMII 16; it rewrites v in place, each element 4 cycles after reading
// it) and the counter its adder 1: iterations start every 16 cycles, each 19 long, no
// condition or copy-back: 18 + 9 x 16 + 19 = 181.
TEST(Estimate, CountedWhileLoop) {
  const ir::Module m = loop_module("0");
  const ir::InstrId w = m.operand(m.computation(m.entry()).root, 0);
  ASSERT_EQ(while_trip_count(m, w), 10);
  EstimateOptions sequential;
  sequential.pipeline_loops = false;
  const Estimate e = estimate(m, fpga_target(), sequential);
  EXPECT_EQ(e.cycles, 421);
  EXPECT_EQ(e.ii, 421);  // the loop's own datapath is busy the whole time
  EXPECT_EQ(e.area.dsp, 2);  // the body's fp32 multiplier (24-bit mantissa: 2 DSPs)
  EXPECT_EQ(estimate(loop_module("4"), fpga_target(), sequential).cycles, 18 + 7 * 3 + 6 * 37);
  const Estimate p = estimate(m, fpga_target());
  EXPECT_EQ(p.cycles, 18 + 9 * 16 + 19);
  EXPECT_EQ(p.ii, p.cycles);
  EXPECT_EQ(p.area.dsp, 2);
  EXPECT_EQ(estimate(loop_module("4"), fpga_target()).cycles, 18 + 5 * 16 + 19);
}

// The loop's state memories and copy lanes (control_flow.h state_area) as Yosys keeps them:
// a copy lane is its value register (read stage + memory latency 2: one, D - 2) and nothing
// else (its valid bits, index tags and element counter are the control inventory's, which
// counts every lane of the plan), and a copy-in of a one-value constant carries a literal
// whose value register synthesis removes (mixed_state, cordic, zero_trip: 32 FF per s32).
TEST(Estimate, LoopStateFlipFlopsAreThoseSynthesisKeeps) {
  const ir::Module m = loop_module("0");
  const ir::InstrId w = m.operand(m.computation(m.entry()).root, 0);
  const Target& t = fpga_target();
  WhileLoop l = while_loop(m, w, t, 10, 2, 19, 0);
  ASSERT_EQ(l.leaves.size(), 2u);
  EXPECT_TRUE(l.leaves[0].literal_init);   // i = constant(0)
  EXPECT_FALSE(l.leaves[1].literal_init);  // v = the parameter x
  const Area sequential = state_area(t, l);
  l.ii = 16;  // pipelined: no copy-back lanes
  const Area pipelined = state_area(t, l);
  EXPECT_DOUBLE_EQ(sequential.ff - pipelined.ff, 32 + 32);  // one value register per leaf's copy-back lane
  l.leaves[0].literal_init = false;
  EXPECT_DOUBLE_EQ(state_area(t, l).ff - pipelined.ff, 32);  // i's copy-in now carries a value
  // the scalar i alone: its word and its read register, a literal copy-in, a copy-back
  WhileLoop scalar = while_loop(m, w, t, 10, 2, 19, 0);
  scalar.leaves.resize(1);
  EXPECT_DOUBLE_EQ(state_area(t, scalar).ff, 32 + 32 + 0 + 32);
}

// rtl instantiates each float unit in its `_chain` form (rtl/float_units.h): no result
// register, the reader's register or the memory write holds it; Yosys counts the row's FF
// less the result's bits on every unit (hwmodel/README.md). A compare's result is 1 bit; a
// reduction's result sits in its accumulator registers, priced as such.
TEST(Estimate, FloatUnitsArePricedInTheirChainForm) {
  auto unit_ff = [](const std::string& op, const std::string& type) {
    const ir::Module m = frontend::parse_hlo("HloModule f\nENTRY main {\n  x = f32[8] parameter(0)\n  y = f32[8] parameter(1)\n"
                                             "  ROOT z = " + type + "[8] " + op + "(x, y)" +
                                             (type == "pred" ? ", direction=LT" : "") + "\n}\n", "f.hlo");
    EstimateOptions o;
    o.keep_details = true;
    return estimate(m, fpga_target(), o).details->binding.unit_area.ff;
  };
  const Target& t = fpga_target();
  ASSERT_NE(t.float_unit("fadd", ir::ElementType::kF32), nullptr);
  EXPECT_DOUBLE_EQ(unit_ff("add", "f32"), t.float_unit("fadd", ir::ElementType::kF32)->ff - 32);
  EXPECT_DOUBLE_EQ(unit_ff("multiply", "f32"), t.float_unit("fmul", ir::ElementType::kF32)->ff - 32);
  EXPECT_DOUBLE_EQ(unit_ff("compare", "pred"), t.float_unit("fcmp_lt", ir::ElementType::kF32)->ff - 1);
  // a float reduction's result register is its accumulators: 8 outputs on one lane through
  // an fadd of depth A = 4 keep g = min(8, 4) partial sums (timing.h), 4 x 32 FF
  const ir::Module r = frontend::parse_hlo(
      "HloModule r\nadd {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n"
      "ENTRY main {\n  x = f32[8,16] parameter(0)\n  z = f32[] constant(0)\n"
      "  ROOT y = f32[8] reduce(x, z), dimensions={1}, to_apply=add\n}\n", "r.hlo");
  EstimateOptions o;
  o.keep_details = true;
  const Estimate e = estimate(r, t, o);
  ASSERT_EQ(t.float_unit("fadd", ir::ElementType::kF32)->latency, 4);
  ASSERT_EQ(e.details->graph.tasks.back().lanes, 1);
  EXPECT_DOUBLE_EQ(e.details->binding.unit_area.ff, t.float_unit("fadd", ir::ElementType::kF32)->ff - 32 + 4 * 32);
}

// float/elementwise_bf16's seven register files, all 12 words, every port reaching all 12
// (scripts/calibrate_memory.sh, scripts/calibrate_read_ports.sh): write decode 12 LUT, the
// first read port 5.71 LUT per bit, each further port 5.38 per bit (rtl builds them all
// alike, Yosys 12 x 16 with six ports: 536 LUT, this 533.76; one per port at the first
// port's row was 560). A port is as wide as the file rtl prints: lt's pred file is 12 x 1
// (its storage byte is not built), two ports: 12 + 5.71 + 5.38 = 23.09, where 8 bits
// priced 103.36.
TEST(Estimate, TwelveWordFilesPriceTheirFurtherPortsByTheirRow) {
  EstimateOptions o;
  o.keep_details = true;
  const Estimate e = estimate(load_named_design("float/elementwise_bf16"), fpga_target(), o);
  const Binding& b = e.details->binding;
  int files = 0, preds = 0;
  for (const BufferTrack& tr : b.tracks) {
    if (!tr.registers) continue;
    ++files;
    ASSERT_EQ(tr.words, 12);
    const bool pred = tr.area.ff == 12 + tr.read_ports;  // 1-bit words and read registers
    preds += pred;
    const int bits = pred ? 1 : tr.bits;
    EXPECT_NEAR(tr.area.lut, 12 + bits * 5.71 + (tr.read_ports - 1) * bits * 5.38, 1e-9)
        << tr.bits << " bits, " << tr.read_ports << " ports";
    if (tr.read_ports == 6 && tr.bits == 16) EXPECT_NEAR(tr.area.lut, 533.76, 1e-9);
  }
  EXPECT_EQ(files, 7);
  EXPECT_EQ(preds, 1);
}

TEST(Estimate, UnknownTripCountIsAnErrorUnlessLenient) {
  std::string text = kCountedLoop;
  text.replace(text.find("n = s32[] constant(10)"), 22, "n = s32[] get-tuple-element(p), index=0");
  text.replace(text.find("START"), 5, "0");
  const ir::Module m = frontend::parse_hlo(text, "loop.hlo");
  try {
    estimate(m, fpga_target());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("loop.hlo:21:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("while w: trip count not statically known"), std::string::npos) << e.what();
  }
  EstimateOptions o;
  o.lenient = true;
  const Estimate e = estimate(m, fpga_target(), o);
  EXPECT_EQ(e.unknown_trip_counts, 1);
  EXPECT_EQ(e.cycles, 18 + 2 * 3 + 1 * 37);
}

TEST(Estimate, CustomCallHasNoCostModelUnlessLenient) {
  const ir::Module m = frontend::parse_hlo(R"(HloModule cc
ENTRY main {
  x = f32[8] parameter(0)
  ROOT y = f32[8] custom-call(x), custom_call_target="foo"
}
)", "cc.hlo");
  try {
    estimate(m, fpga_target());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "cc.hlo:4: op custom-call 'foo' (y) has no cost model; --lenient costs such ops as memory moves");
  }
  EstimateOptions o;
  o.lenient = true;
  const Estimate e = estimate(m, fpga_target(), o);
  ASSERT_EQ(e.uncosted_ops.size(), 1u);
  EXPECT_EQ(e.uncosted_ops[0], std::make_pair(std::string("custom-call"), 1));
  EXPECT_EQ(e.cycles, 1 + 2 + 8 - 1);  // a move: read 1 + on-chip memory latency 2, 8 elements
}

TEST(Estimate, DesignThatDoesNotFitIsAnErrorUnlessLenient) {
  EstimateOptions o;
  o.lanes = 4096;
  try {
    estimate(load_named_design("softmax"), fpga_target(), o);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("design 'softmax' does not fit target fpga: needs"), std::string::npos)
        << e.what();
  }
  o.lenient = true;
  const Estimate e = estimate(load_named_design("softmax"), fpga_target(), o);
  EXPECT_FALSE(e.fits);
  EXPECT_GT(e.utilization.dsp, 1.0);
}

TEST(Estimate, UnitLimitsAreChecked) {
  EstimateOptions o;
  o.unit_limits["fp_mull"] = 2;
  EXPECT_THROW(estimate(load_named_design("softmax"), fpga_target(), o), Error);
  o.unit_limits = {{"core", 0}};
  EXPECT_THROW(estimate(load_named_design("softmax"), cpu_target(), o), Error);
}

TEST(Estimate, DetailsHoldAVerifiedSchedule) {
  for (SchedulerKind k : {SchedulerKind::kAsap, SchedulerKind::kAlap, SchedulerKind::kList, SchedulerKind::kExact}) {
    EstimateOptions o;
    o.scheduler = k;
    o.keep_details = true;
    const Estimate e = estimate(load_named_design("layernorm"), fpga_target(), o);
    ASSERT_TRUE(e.details);
    VerifyOptions vo;
    vo.check_resources = respects_resources(k);
    EXPECT_TRUE(verify_schedule(e.details->problem, e.details->schedule, vo).empty()) << scheduler_name(k);
    EXPECT_EQ(e.details->schedule.length, e.cycles);
    if (k == SchedulerKind::kExact) {
      EXPECT_TRUE(e.schedule_optimal);
    }
  }
}

// A shift by a run-time amount is a barrel shifter (the target's calibrated
// variable_shift_luts, scripts/calibrate_shift.sh); by a literal, or a broadcast constant
// (its words only ever hold that value, which synthesis folds), it is wiring: the
// int_alu_literal_luts row (0 LUT, scripts/calibrate_datapath.sh).
TEST(Estimate, ShiftByARunTimeAmountIsABarrelShifter) {
  auto unit_luts = [](const std::string& amount) {
    const ir::Module m = frontend::parse_hlo("HloModule s\nENTRY main {\n  x = s32[8] parameter(0)\n  " + amount +
                                             "\n  ROOT y = s32[8] shift-right-arithmetic(x, k)\n}\n", "s.hlo");
    EstimateOptions o;
    o.keep_details = true;
    return estimate(m, fpga_target(), o).details->binding.unit_area.lut;
  };
  const Target& t = fpga_target();
  ASSERT_FALSE(t.variable_shift.bits.empty());
  EXPECT_DOUBLE_EQ(unit_luts("k = s32[8] parameter(1)"), t.variable_shift.luts_for(32));
  const std::optional<double> by_literal = t.alu_literal_ops.luts_for(ir::Opcode::kShiftRightArithmetic, 32);
  ASSERT_TRUE(by_literal.has_value());
  EXPECT_DOUBLE_EQ(*by_literal, 0);  // wiring
  EXPECT_DOUBLE_EQ(unit_luts("k = s32[8] constant({3, 3, 3, 3, 3, 3, 3, 3})"), *by_literal);
  // a broadcast of a constant is that constant, a literal (no mem task)
  const double broadcast = unit_luts("c = s32[] constant(3)\n  k = s32[8] broadcast(c), dimensions={}");
  EXPECT_DOUBLE_EQ(broadcast, *by_literal);
  EXPECT_DOUBLE_EQ(t.variable_shift.luts_for(12), t.variable_shift.luts_for(16));  // the next row up
  EXPECT_DOUBLE_EQ(t.variable_shift.luts_for(128), 2 * t.variable_shift.luts_for(64));
}

// An integer divide is an array divider, growing with the square of its width (the
// target's int_divide_luts, scripts/calibrate_divide.sh), not the int_div row in proportion.
// On one instance rtl builds every task's expression (rtl/verilog_units.cc first_values):
// two divides in series on the one int_div instance are two dividers.
TEST(Estimate, DividersAreMeasuredPerWidthAndEachTaskBuildsItsOwn) {
  auto unit_area = [](const std::string& type, bool two) {
    const std::string t = type + "[8]";
    const ir::Module m = frontend::parse_hlo("HloModule d\nENTRY main {\n  x = " + t + " parameter(0)\n  k = " + t +
                                             " parameter(1)\n  " + (two ? "q = " + t + " divide(x, k)\n  ROOT y = " + t +
                                             " remainder(q, k)" : "ROOT y = " + t + " divide(x, k)") + "\n}\n", "d.hlo");
    EstimateOptions o;
    o.keep_details = true;
    return estimate(m, fpga_target(), o).details->binding;
  };
  const Target& t = fpga_target();
  ASSERT_FALSE(t.int_divide.bits.empty());
  EXPECT_DOUBLE_EQ(unit_area("s32", false).unit_area.lut, t.int_divide.luts_for(32));
  EXPECT_DOUBLE_EQ(unit_area("s64", false).unit_area.lut, t.int_divide.luts_for(64));
  EXPECT_GT(t.int_divide.luts_for(64), 3 * t.int_divide.luts_for(32));  // Yosys: 13,436 vs 3,616
  const Binding two = unit_area("s32", true);
  ASSERT_EQ(two.units.size(), 1u);
  EXPECT_EQ(two.units[0].tasks, 2);
  EXPECT_DOUBLE_EQ(two.unit_area.lut, 2 * t.int_divide.luts_for(32));
  EXPECT_DOUBLE_EQ(two.mux_area.lut, 32);  // the result select: 32 bits of 2 tasks, a LUT each
}

// A divide whose operands' ranges need fewer bits than its type (a clamped value widened to
// s64 and shifted up: -2^23 .. 1023 << 13, by a small constant) is priced at the width rtl
// builds its divider at (value_bits.h divider_bits: 25 bits), not at 64.
TEST(Estimate, NarrowDividerIsPricedAtItsWidth) {
  const ir::Module m = frontend::parse_hlo(
      "HloModule n\nENTRY main {\n  x = s32[8] parameter(0)\n  lo = s32[] constant(-1024)\n  hi = s32[] constant(1023)\n"
      "  c = s32[8] clamp(lo, x, hi)\n  w = s64[8] convert(c)\n  s = s64[] constant(13)\n  k = s64[8] broadcast(s), dimensions={}\n"
      "  n = s64[8] shift-left(w, k)\n  d = s64[8] constant({1, 2, 3, 100, -7, 0, -1, 9})\n  ROOT q = s64[8] divide(n, d)\n}\n",
      "n.hlo");
  EstimateOptions o;
  o.keep_details = true;
  const Binding b = estimate(m, fpga_target(), o).details->binding;
  const Target& t = fpga_target();
  double div_lut = -1;
  for (const UnitInstance& u : b.units)
    if (u.unit == static_cast<uint8_t>(UnitClass::kIntDiv)) div_lut = u.area.lut;
  EXPECT_DOUBLE_EQ(div_lut, t.int_divide.luts_for(25));
  EXPECT_LT(div_lut, t.int_divide.luts_for(64) / 3);
}

// Fused integer bodies on one int_mul instance each build their products (DSPs add);
// lone multiplies of the same types share one product, their operands selected by the
// task's tag (rtl/verilog_units.cc shared_product): priced once.
TEST(Estimate, FusedBodiesOnOneInstanceEachBuildTheirProducts) {
  auto dsp = [](bool fused) {
    const std::string body = fused ? "fused {\n  p0 = s32[8] parameter(0)\n  p1 = s32[8] parameter(1)\n"
                                     "  m = s32[8] multiply(p0, p1)\n  ROOT a = s32[8] add(m, p1)\n}\n"
                                   : "";
    const std::string op = fused ? "fusion(x, k), kind=kLoop, calls=fused" : "multiply(x, k)";
    const std::string op2 = fused ? "fusion(y, k), kind=kLoop, calls=fused" : "multiply(y, k)";
    const ir::Module m = frontend::parse_hlo("HloModule f\n" + body + "ENTRY main {\n  x = s32[8] parameter(0)\n"
                                             "  k = s32[8] parameter(1)\n  y = s32[8] " + op + "\n  ROOT z = s32[8] " +
                                             op2 + "\n}\n", "f.hlo");
    EstimateOptions o;
    o.keep_details = true;
    const Binding b = estimate(m, fpga_target(), o).details->binding;
    EXPECT_EQ(b.units.size(), 1u);  // the second reads the first: one instance, two tasks
    return b.unit_area.dsp;
  };
  EXPECT_DOUBLE_EQ(dsp(false), 3);   // a 32-bit product kept to 32 bits: 3 DSPs, shared
  EXPECT_DOUBLE_EQ(dsp(true), 6);    // two bodies, two products
}

// fpga.yaml's int_alu_literal_luts (scripts/calibrate_datapath.sh): an op with a literal
// operand costs what synthesis builds for it (an add of one is its carry chain, 0 LUT; a
// compare with one about a LUT per four bits) where the same op on two values costs the
// int_alu row; a select is not in the row (on a shared int_alu a select of a literal is a
// full select in Yosys), so it keeps the int_alu row either way.
TEST(Estimate, AnOpWithALiteralOperandCostsItsMeasuredForm) {
  const Target& t = fpga_target();
  const double alu = t.unit(UnitClass::kIntAlu).lut;
  const auto lane = [&](ir::Opcode op, bool literal) {
    return op_lane_area(t, UnitClass::kIntAlu, op, ir::ElementType::kS32, literal).lut;
  };
  EXPECT_DOUBLE_EQ(lane(ir::Opcode::kAdd, false), alu);
  EXPECT_DOUBLE_EQ(lane(ir::Opcode::kAdd, true), 0);
  EXPECT_DOUBLE_EQ(lane(ir::Opcode::kCompare, true), 7.9);
  EXPECT_LT(lane(ir::Opcode::kCompare, true), lane(ir::Opcode::kCompare, false));
  EXPECT_DOUBLE_EQ(lane(ir::Opcode::kSelect, true), lane(ir::Opcode::kSelect, false));
  EXPECT_FALSE(t.alu_literal_ops.luts_for(ir::Opcode::kSelect, 32).has_value());
  // at 8 bits the compare row's first entry, linear between 8 and 32
  EXPECT_DOUBLE_EQ(*t.alu_literal_ops.luts_for(ir::Opcode::kCompare, 8), 1.9);
  EXPECT_DOUBLE_EQ(*t.alu_literal_ops.luts_for(ir::Opcode::kCompare, 16), 1.9 + (7.9 - 1.9) / 3);
}

// A loop whose state scalar starts at a literal: the copy-in carries a constant (its value
// registers are trimmed) and its write into the one-word state memory is the word's
// set/reset, not a multiplexer against the copy-back (scripts/calibrate_write_port.sh).
TEST(Estimate, ALiteralCopyInIsTheStateWordsSetReset) {
  const ir::Module m = frontend::parse_hlo(R"(HloModule z
cond {
  s = (s32[], s32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(7)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], s32[]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = s32[] get-tuple-element(s), index=1
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  x1 = s32[] add(x, x)
  ROOT t = (s32[], s32[]) tuple(i1, x1)
}
ENTRY main {
  x = s32[] parameter(0)
  z = s32[] constant(0)
  init = (s32[], s32[]) tuple(z, x)
  w = (s32[], s32[]) while(init), condition=cond, body=body
  ROOT r = s32[] get-tuple-element(w), index=1
}
)", "z.hlo");
  const ir::InstrId w = m.operand(m.computation(m.entry()).root, 0);
  const Target& t = fpga_target();
  WhileLoop loop = while_loop(m, w, t, 7, 3, 4);
  ASSERT_EQ(loop.leaves.size(), 2u);
  EXPECT_TRUE(loop.leaves[0].literal_init);   // i starts at the literal 0
  EXPECT_FALSE(loop.leaves[1].literal_init);  // x at a parameter
  const Area literal = state_area(t, loop);
  loop.leaves[0].literal_init = false;
  const Area value = state_area(t, loop);
  EXPECT_DOUBLE_EQ(value.lut - literal.lut, 32 - 1);  // a 32-bit write multiplexer against the set/reset's LUT
  EXPECT_DOUBLE_EQ(value.ff - literal.ff, 32 * (state_copy_depth(t) - 2));  // the copy lane's value registers
}

// A leaf whose next value is another leaf's current one (a swap) is copied back out of that
// leaf's memory through a read port of its own, as rtl builds it (swap_loop: b's memory has
// 3 read ports: the output, the body's add, a's copy-back); the body's root tuple that
// re-packs b is not itself a reader.
TEST(Estimate, ASwappedLeafIsReadByTheCopyBack) {
  const ir::Module m = frontend::parse_hlo(R"(HloModule s
cond {
  s = (s32[], s16[4], s16[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(5)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], s16[4], s16[4]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  a = s16[4] get-tuple-element(s), index=1
  b = s16[4] get-tuple-element(s), index=2
  one = s32[] constant(1)
  i1 = s32[] add(i, one)
  ab = s16[4] add(a, b)
  ROOT t = (s32[], s16[4], s16[4]) tuple(i1, b, ab)
}
ENTRY main {
  x = s16[4] parameter(0)
  y = s16[4] parameter(1)
  z = s32[] constant(0)
  init = (s32[], s16[4], s16[4]) tuple(z, x, y)
  w = (s32[], s16[4], s16[4]) while(init), condition=cond, body=body
  ra = s16[4] get-tuple-element(w), index=1
  rb = s16[4] get-tuple-element(w), index=2
  ROOT out = (s16[4], s16[4]) tuple(ra, rb)
}
)", "s.hlo");
  const ir::InstrId w = m.operand(m.operand(m.computation(m.entry()).root, 0), 0);
  const Target& t = fpga_target();
  const WhileLoop loop = while_loop(m, w, t, 5, 2, 5, 0);
  ASSERT_EQ(loop.leaves.size(), 3u);
  EXPECT_EQ(loop.leaves[0].readers, 2);  // i: the condition's compare, the body's add
  EXPECT_EQ(loop.leaves[1].readers, 2);  // a: the output ra, the body's add
  EXPECT_EQ(loop.leaves[2].readers, 3);  // b: the output rb, the body's add, a's copy-back
  EXPECT_TRUE(loop.leaves[1].copy_back);
  EXPECT_TRUE(loop.leaves[2].copy_back);  // from the body's ab
}

// FPGA: a broadcast (or slice, transpose, ...) of a one-value constant is a literal in its
// readers, as rtl prints it: no memory track, no task time; a CPU still moves it.
TEST(Estimate, BroadcastOfAConstantIsALiteral) {
  const ir::Module m = frontend::parse_hlo(
      "HloModule b\nENTRY main {\n  x = s32[8] parameter(0)\n  c = s32[] constant(3)\n"
      "  k = s32[8] broadcast(c), dimensions={}\n  s = s32[4] slice(k), slice={[0:4]}\n"
      "  xs = s32[4] slice(x), slice={[0:4]}\n  ROOT y = s32[4] multiply(xs, s)\n}\n",
      "b.hlo");
  EstimateOptions o;
  o.keep_details = true;
  const Estimate e = estimate(m, fpga_target(), o);
  const EstimateDetails& d = *e.details;
  for (uint32_t t = 0; t < d.graph.size(); ++t) {
    const std::string name = m.name(d.graph.tasks[t].instr);
    if (name != "k" && name != "s") continue;
    EXPECT_TRUE(d.graph.tasks[t].literal) << name;
    EXPECT_EQ(d.graph.tasks[t].latency, 0) << name;
    EXPECT_EQ(d.binding.track_of_task[t], kNoInstance) << name;
  }
  const Estimate cpu = estimate(m, cpu_target(), o);
  for (const Task& k : cpu.details->graph.tasks) {
    if (m.name(k.instr) == "k") {
      EXPECT_GT(k.latency, 0);  // a memory move on a CPU
    }
  }
}

}  // namespace
}  // namespace hlsgym::testing
