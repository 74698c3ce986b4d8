// Operator chaining in the RTL: a matmul whose int16 and uint8 operands are widened by
// converts reads them narrow (no convert loop, no s32 copies) and multiplies them on one
// DSP48E1 per lane, exactly as the estimate says; cosim stays exact.
#include <fmt/core.h>

#include "frontend/yaml_design.h"
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

}  // namespace
}  // namespace hlsgym::testing
