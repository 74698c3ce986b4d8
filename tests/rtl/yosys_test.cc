// Yosys on two small designs: its word-level operator counts are the emitter's (one
// multiplier per multiplier or MAC lane, one adder per add/sub/accumulator plus the
// counters), its flip-flops are the storage, pipeline and control registers the emitter
// declared (less what Yosys proves constant), and synth_xilinx maps the MAC to DSPs.
#include <fmt/core.h>

#include <algorithm>

#include "rtl/yosys.h"
#include "tests/rtl/rtl_test_util.h"

namespace hlsgym::testing {
namespace {

void expect_word_counts(const std::string& name, bool gate_level) {
  const rtl::EmittedDesign e = rtl::emit(rtl_design(name).module, rtl_fpga());
  const rtl::Files f = rtl::write_files(e, rtl_work_dir("yosys_" + name));
  const rtl::SynthReport s = rtl::synthesize(e, f, gate_level);
  const rtl::Inventory& v = e.inventory;
  EXPECT_EQ(s.multipliers, v.multipliers + v.address_multipliers) << name;
  EXPECT_EQ(s.adders, v.adders + v.control_adders) << name;
  EXPECT_EQ(s.dividers, v.dividers) << name;
  const int64_t declared = v.register_bits + v.bram_bits + v.read_bits + v.pipeline_bits + v.control_bits;
  EXPECT_LE(s.ff_bits, declared) << name;
  EXPECT_GE(s.ff_bits, declared * 8 / 10) << name;
  if (gate_level) {
    ASSERT_TRUE(s.gate_level) << s.gate_skipped;
    EXPECT_GE(s.dsp, 1) << name;  // the 32-bit multiplier lands on DSP48E1s
    EXPECT_LE(s.dsp, e.estimate.area.dsp) << name;
    EXPECT_GT(s.lut, 0);
    EXPECT_GT(s.ff, 0);
  }
  fmt::print("{}", rtl::synth_text(e, s));
}

TEST(Yosys, DotProductCountsAndGates) { expect_word_counts("dot_product", true); }
TEST(Yosys, SaturatingAddCounts) { expect_word_counts("saturating_add", false); }

}  // namespace
}  // namespace hlsgym::testing

namespace hlsgym::testing {
namespace {

// fir16_sym op by op: 8 elementwise products on the 2 int_mul instances the binding
// prices. The RTL selects each instance's operands by task and multiplies once, so Yosys
// finds one multiplier per instance (one per task would be a DSP block each).
TEST(Yosys, TasksSharingAMultiplierShareItsProduct) {
  const rtl::EmittedDesign e = rtl::emit(rtl_design("fir16_sym").module, rtl_fpga());
  const auto& units = e.estimate.details->binding.units;
  const int64_t multipliers = std::count_if(units.begin(), units.end(), [](const hwmodel::UnitInstance& u) {
    return u.unit == static_cast<uint8_t>(hwmodel::UnitClass::kIntMul);
  });
  ASSERT_EQ(multipliers, 2);
  const rtl::SynthReport s = rtl::synthesize(e, rtl::write_files(e, rtl_work_dir("yosys_fir16_sym")), false);
  EXPECT_EQ(s.multipliers, multipliers);
  EXPECT_EQ(e.inventory.multipliers, multipliers);
}

}  // namespace
}  // namespace hlsgym::testing
