// Operator chaining in the RTL: a matmul whose int16 and uint8 operands are widened by
// converts reads them narrow (no convert loop, no s32 copies) and multiplies them on one
// DSP48E1 per lane, exactly as the estimate says; cosim stays exact.
#include <fmt/core.h>

#include "frontend/yaml_design.h"
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
