// Every integer design of designs/ through Verilator against the interpreter: zero
// mismatching output elements over 16 random vectors, the cycles from start to done equal
// to the hardware model's estimate, and the restart interval the report states. One
// Verilator build per design.
#include <fmt/core.h>

#include "ir/error.h"
#include "rtl/fixed_point.h"
#include "tests/rtl/rtl_test_util.h"

namespace hlsgym::testing {
namespace {

class DesignCosim : public ::testing::TestWithParam<std::string> {};

TEST_P(DesignCosim, MatchesInterpreterAndEstimatedCycles) {
  const frontend::Design d = rtl_design(GetParam());
  const rtl::EmittedDesign e = rtl::emit(d.module, rtl_fpga());
  rtl::SimOptions o;
  o.vectors = 16;
  o.seed = 7;
  const rtl::SimResult r = rtl::cosimulate(d.module, e, rtl_work_dir("cosim_" + GetParam()), o);
  EXPECT_EQ(r.mismatches, 0) << (r.first ? rtl::describe(*r.first) : "");
  EXPECT_EQ(r.timeouts, 0);
  EXPECT_EQ(r.measured_cycles, r.estimated_cycles);
  EXPECT_EQ(r.min_measured_cycles, r.estimated_cycles);
  EXPECT_TRUE(r.passed());
  // The report's interval (hwmodel/report.cc): a new start the cycle after done.
  EXPECT_EQ(r.restart_interval, r.estimated_cycles + 1);
  fmt::print("{}: estimated {} cycles, measured {}; {} lines; build {:.2f} s, run {:.3f} s\n", GetParam(),
             r.estimated_cycles, r.measured_cycles, e.inventory.lines, r.build_seconds, r.run_seconds);
}

INSTANTIATE_TEST_SUITE_P(IntegerDesigns, DesignCosim, ::testing::ValuesIn(integer_designs()),
                         [](const auto& info) { return info.param; });


// The float designs under --fixed 16,8: a design whose ops all have a fixed-point form
// cosimulates bit-exactly against its quantized interpretation; one with an op that has
// none is refused with the op named (transcendentals are tables now: none is refused).
class FixedDesignCosim : public ::testing::TestWithParam<std::string> {};

TEST_P(FixedDesignCosim, QuantizedMatchesOrIsRefusedByName) {
  const frontend::Design d = rtl_design(GetParam());
  ir::Module q;
  try {
    q = rtl::quantize(d.module, rtl::parse_fixed("16,8"));
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("fixed-point"), std::string::npos) << msg;
    EXPECT_NE(msg.find(GetParam()), std::string::npos) << "the message names the design file: " << msg;
    return;
  }
  EXPECT_TRUE(integer_only(q));
  // black_scholes's tables and 64-bit lines exceed the FPGA's LUTs by the estimate: emitted anyway
  rtl::EmitOptions eo;
  eo.estimate.lenient = true;
  const rtl::EmittedDesign e = rtl::emit(q, rtl_fpga(), eo);
  rtl::SimOptions o;
  o.vectors = 8;
  o.seed = 11;
  const rtl::SimResult r = rtl::cosimulate(q, e, rtl_work_dir("cosim_fixed_" + GetParam()), o);
  EXPECT_EQ(r.mismatches, 0) << (r.first ? rtl::describe(*r.first) : "");
  EXPECT_TRUE(r.passed()) << "measured " << r.measured_cycles << ", estimated " << r.estimated_cycles;
  fmt::print("{} (fixed 16,8): estimated {} cycles, measured {}\n", GetParam(), r.estimated_cycles, r.measured_cycles);
}

INSTANTIATE_TEST_SUITE_P(FloatDesigns, FixedDesignCosim, ::testing::ValuesIn(float_designs()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace hlsgym::testing
