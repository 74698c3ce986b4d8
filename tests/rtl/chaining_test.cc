// Operator chaining in the RTL: a matmul whose int16 and uint8 operands are widened by
// converts reads them narrow (no convert loop, no s32 copies) and multiplies them on one
// DSP48E1 per lane, exactly as the estimate says; cosim stays exact.
#include <fmt/core.h>

#include <map>

#include "frontend/yaml_design.h"
#include "hwmodel/chaining.h"
#include "tests/hwmodel/hwmodel_test_util.h"
#include "passes/registry.h"
#include "rtl/yosys.h"
#include "tests/rtl/rtl_test_util.h"

namespace hlsgym::testing {
namespace {

TEST(RtlChaining, NarrowMacOperandsCosimulateAndTakeOneDspPerLane) {
  const ir::Module m = frontend::load_yaml_design(R"(design: mm_narrow
inputs: {A: "s16[4,6]", B: "u8[6,3]"}
ops:
  - {name: A32, op: convert, args: [A], type: "s32[4,6]"}
  - {name: B32, op: convert, args: [B], type: "s32[6,3]"}
  - {name: C, op: dot, args: [A32, B32], lhs_contracting_dims: [1], rhs_contracting_dims: [0], frontend_attributes: '{lanes="2"}'}
outputs: [C]
)", "mm_narrow.yaml").module;
  const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga());
  EXPECT_EQ(e.verilog.find("A32"), std::string::npos) << "the converts have no loop and no memory";
  EXPECT_NE(e.verilog.find("$signed("), std::string::npos);
  rtl::SimOptions o;
  o.vectors = 6;
  const rtl::SimResult r = rtl::cosimulate(m, e, rtl_work_dir("chaining_mm"), o);
  EXPECT_TRUE(r.passed()) << (r.first ? rtl::describe(*r.first) : std::string("no mismatch recorded"));
  EXPECT_EQ(r.mismatches, 0);
  EXPECT_EQ(r.measured_cycles, r.estimated_cycles);
  EXPECT_EQ(e.estimate.area.dsp, 2);  // two lanes, s16 x u8 (9 bits signed) each on one slice
  const rtl::SynthReport s = rtl::synthesize(e, rtl::write_files(e, rtl_work_dir("chaining_mm_yosys")), true);
  ASSERT_TRUE(s.gate_level) << s.gate_skipped;
  EXPECT_EQ(s.dsp, e.estimate.area.dsp);
  EXPECT_EQ(s.bram18k, e.estimate.area.bram18k);
}

// fir8: multiply(convert s16 -> s32, convert s16 -> s32) is a signed 16 x 16 product.
TEST(RtlChaining, AnElementwiseProductOfWidenedOperandsTakesOneDsp) {
  const rtl::EmittedDesign e = rtl::emit(rtl_design("fir8").module, rtl_fpga());
  EXPECT_EQ(e.estimate.area.dsp, 1);
  const rtl::SynthReport s = rtl::synthesize(e, rtl::write_files(e, rtl_work_dir("chaining_fir8_yosys")), true);
  ASSERT_TRUE(s.gate_level) << s.gate_skipped;
  EXPECT_EQ(s.dsp, 1);
}

// A factor that is one constant is a literal in the Verilog: synthesis shifts by a power
// of two and keeps only the significant bits of any other value; the estimate agrees.
TEST(RtlChaining, ConstantFactorsAreLiterals) {
  for (const auto& [value, dsp] : {std::pair{3, 2}, std::pair{8, 0}}) {
    const ir::Module m = frontend::load_yaml_design(fmt::format(R"(design: times_const
inputs: {{x: "s32[8]"}}
ops:
  - {{name: k, op: constant, value: {}, type: "s32[8]"}}
  - {{name: y, op: multiply, args: [x, k]}}
outputs: [y]
)", value), "times_const.yaml").module;
    const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga());
    EXPECT_EQ(e.estimate.area.dsp, dsp) << value;
    const rtl::SynthReport s =
        rtl::synthesize(e, rtl::write_files(e, rtl_work_dir(fmt::format("chaining_const{}", value))), true);
    ASSERT_TRUE(s.gate_level) << s.gate_skipped;
    EXPECT_EQ(s.dsp, dsp) << value;
  }
}

}  // namespace
}  // namespace hlsgym::testing

namespace hlsgym::testing {
namespace {

// The 16-tap symmetric FIR written as slices, adds and products: op by op it is a pass
// over memory per op (~970 cycles); the `fusion` pass takes its slices and broadcasts
// into one loop whose body computes an output per cycle, so the design takes its trip
// count plus the loop's depth, and the RTL runs exactly that.
TEST(RtlChaining, FusionMakesTheSymmetricFirOnePipelinedLoop) {
  const ir::Module original = rtl_design("fir16_sym").module;
  ir::Module m = original;
  ASSERT_TRUE(passes::Registry::global().create("fusion")->run(m));
  const hwmodel::Estimate before = hwmodel::estimate(original, rtl_fpga());
  const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga());
  const int64_t outputs = 64;
  EXPECT_GT(before.cycles, 10 * outputs);
  EXPECT_LE(e.estimate.cycles, outputs + 16) << "one loop of 64 trips plus its depth";
  rtl::SimOptions o;
  o.vectors = 6;
  const rtl::SimResult r = rtl::cosimulate(m, e, rtl_work_dir("chaining_fir16"), o);
  EXPECT_TRUE(r.passed()) << (r.first ? rtl::describe(*r.first) : std::string("no mismatch recorded"));
  EXPECT_EQ(r.mismatches, 0);
  EXPECT_EQ(r.measured_cycles, r.estimated_cycles);
}

}  // namespace
}  // namespace hlsgym::testing

namespace hlsgym::testing {
namespace {

// The read ports the Verilog builds on each entry track are the ones the binding prices.
void expect_ports_agree(const rtl::EmittedDesign& e) {
  ASSERT_TRUE(e.estimate.details);
  const auto& tracks = e.estimate.details->binding.tracks;
  ASSERT_LE(tracks.size(), e.inventory.track_read_ports.size());
  for (size_t k = 0; k < tracks.size(); ++k)
    if (const int built = e.inventory.track_read_ports[k]; built > 0)
      EXPECT_EQ(built, tracks[k].read_ports) << "track " << k;
}

void expect_exact_cosim(const ir::Module& m, const rtl::EmittedDesign& e, const std::string& dir) {
  rtl::SimOptions o;
  o.vectors = 6;
  const rtl::SimResult r = rtl::cosimulate(m, e, rtl_work_dir(dir), o);
  EXPECT_TRUE(r.passed()) << (r.first ? rtl::describe(*r.first) : std::string("no mismatch recorded"));
  EXPECT_EQ(r.mismatches, 0);
  EXPECT_EQ(r.measured_cycles, r.estimated_cycles);
}

// saxpy: `ab = broadcast(a)` of the run-time scalar a is read where the multiply reads ab
// (hwmodel/chaining.h, chained_broadcast): no 16-word copy of a, no copy pass, no track
// of its own; the estimate and the Verilog agree and cosim stays exact.
TEST(RtlChaining, ABroadcastScalarIsReadInPlace) {
  const ir::Module m = rtl_design("float/saxpy").module;
  const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga());
  EXPECT_EQ(e.verilog.find("_ab_"), std::string::npos) << "ab has no copy task";
  ASSERT_TRUE(e.estimate.details);
  const hwmodel::EstimateDetails& d = *e.estimate.details;
  for (uint32_t t = 0; t < d.graph.size(); ++t) {
    if (m.name(d.graph.tasks[t].instr) != "ab") continue;
    EXPECT_TRUE(d.graph.tasks[t].alias);
    EXPECT_EQ(d.graph.tasks[t].busy, 0);
    EXPECT_EQ(d.binding.track_of_task[t], hwmodel::kNoInstance) << "no words hold a's copies";
  }
  EXPECT_EQ(e.estimate.cycles, 39) << "the multiply and the add only (57 with the copy pass)";
  expect_ports_agree(e);
  expect_exact_cosim(m, e, "chaining_saxpy");
}

// A vector broadcast along either dimension and a scalar one, read by elementwise ops;
// the same vector through two index maps is two reads of it (two ports), through the
// same map one. A broadcast a reduce or the output reads keeps its buffer.
TEST(RtlChaining, BroadcastsReadThroughTheirIndexMaps) {
  const ir::Module m = frontend::load_yaml_design(R"(design: outer
inputs: {v: "s16[4]", w: "s16[4]", s: "s16[]", p: "pred[]", z: "s16[4,4]"}
ops:
  - {name: rows, op: broadcast, args: [v], dimensions: [0], type: "s16[4,4]"}
  - {name: cols, op: broadcast, args: [v], dimensions: [1], type: "s16[4,4]"}
  - {name: cols2, op: broadcast, args: [v], dimensions: [1], type: "s16[4,4]"}
  - {name: sb, op: broadcast, args: [s], dimensions: [], type: "s16[4,4]"}
  - {name: pb, op: broadcast, args: [p], dimensions: [], type: "pred[4,4]"}
  - {name: o, op: add, args: [rows, cols]}
  - {name: q, op: multiply, args: [cols, cols2]}
  - {name: t, op: select, args: [pb, o, sb]}
  - {name: u, op: subtract, args: [t, q]}
  - {name: wb, op: broadcast, args: [w], dimensions: [1], type: "s16[4,4]"}
  - {name: zero, op: constant, value: 0, type: s16}
  - {name: r, op: reduce, args: [wb, zero], dimensions: [0], to_apply: add}
  - {name: out, op: broadcast, args: [s], dimensions: [], type: "s16[4,4]"}
  - {name: zz, op: add, args: [z, z]}
outputs: [u, r, out, zz]
)", "outer.yaml").module;
  for (const char* n : {"rows", "cols", "cols2", "sb", "pb"}) EXPECT_TRUE(hwmodel::chained_broadcast(m, named(m, n))) << n;
  EXPECT_FALSE(hwmodel::chained_broadcast(m, named(m, "wb")));   // a reduce reads its buffer
  EXPECT_FALSE(hwmodel::chained_broadcast(m, named(m, "out")));  // an output
  EXPECT_FALSE(hwmodel::chained_broadcast(m, named(m, "zz")));   // not a broadcast
  for (int lanes : {1, 2}) {
    rtl::EmitOptions o;
    o.estimate.lanes = lanes;
    const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga(), o);
    expect_ports_agree(e);
    // v: o reads it at two addresses (rows, cols), q at one (cols, cols2)
    const hwmodel::EstimateDetails& d = *e.estimate.details;
    std::map<std::string, int> reads_of_v;
    for (uint32_t t = 0; t < d.graph.size(); ++t) {
      const auto deps = d.graph.deps_of(t);
      const auto reads = d.graph.dep_reads_of(t);
      for (size_t q = 0; q < deps.size(); ++q) {
        uint32_t st = deps[q];  // the storage read, through the chained broadcasts
        while (d.graph.tasks[st].alias && d.graph.deps_of(st).size() == 1) st = d.graph.deps_of(st)[0];
        if (m.name(d.graph.tasks[st].instr) == "v") reads_of_v[m.name(d.graph.tasks[t].instr)] += reads[q];
      }
    }
    EXPECT_EQ(reads_of_v["o"], 2);
    EXPECT_EQ(reads_of_v["q"], 1);
    expect_exact_cosim(m, e, fmt::format("chaining_outer{}", lanes));
  }
}

}  // namespace
}  // namespace hlsgym::testing
