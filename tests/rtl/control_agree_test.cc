// One structure, two views, for the control logic: the index wires the Verilog builds per
// lane are exactly the nodes hwmodel::built_index_nodes counts (the control estimate's
// adders and strides come from those), and the entry's cycle counter is as wide as the
// inventory's first timer. Every integer design, the loop and indexing designs, 1 to 3
// lanes. Emission only: no Verilator.
#include <fmt/core.h>

#include <map>
#include <regex>

#include "frontend/load.h"
#include "hwmodel/microarch_control.h"
#include "tests/rtl/rtl_test_util.h"

namespace hlsgym::testing {
namespace {

int64_t count_matches(const std::string& text, const std::regex& re) {
  return std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator());
}

TEST(ControlAgree, IndexWiresAndCycleCounterOnEveryDesign) {
  // a constant index a port reads whole is a wire too, but no logic (ix_ref_wire)
  const std::regex index_wire(R"(wire signed \[\d+:0\] \w+_q\d+_x\d+ = (?!-?\d+'sd\d+;))");
  const std::regex cycle_counter(R"(reg \[(\d+):0\] cyc;)");
  for (const std::string& f : integer_and_control_design_files()) {
    const ir::Module m = frontend::load_design(f).module;
    for (int lanes : {1, 2, 3}) {
      const std::string what = fmt::format("{} on {} lane(s)", f, lanes);
      rtl::EmitOptions o;
      o.estimate.lanes = lanes;
      o.estimate.lenient = true;
      const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga(), o);
      const hwmodel::Plan plan = hwmodel::make_plan(m, rtl_fpga(), e.estimate, e.module_name);
      int64_t built = 0;
      for (const hwmodel::TaskPlan& tp : plan.tasks) {
        const std::vector<bool> nodes = hwmodel::built_index_nodes(tp);
        built += tp.lanes * std::count(nodes.begin(), nodes.end(), true);
      }
      EXPECT_EQ(count_matches(e.verilog, index_wire), built) << what;
      std::smatch cyc;
      ASSERT_TRUE(std::regex_search(e.verilog, cyc, cycle_counter)) << what;
      ASSERT_FALSE(e.control.timers.empty()) << what;
      EXPECT_EQ(std::stoi(cyc[1]) + 1, e.control.timers.front()) << what;
      EXPECT_GT(e.control_area.lut, 0) << what;
      EXPECT_GE(e.control_area.ff, e.control.timers.front()) << what;
    }
  }
}

// A register-file read whose address is counter bits out of their nesting order reads
// through a register of its own (hwmodel::next_address_bits): the Verilog declares exactly
// the bits the control inventory prices, on every design and lane count; maxpool's 2 x 2
// window read ({oy, ky, ox, kx} over 64 words) is one such 6-bit register, kept apart from
// the counters by `keep`, and reads in nesting order (stencil_3pt, dot_product) have none.
TEST(ControlAgree, NextAddressRegistersOnEveryDesign) {
  const std::regex address_register(R"(reg \[(\d+):0\] (\w+_l\d+a\d+_ra);)");
  std::map<std::string, int64_t> one_lane;
  for (const std::string& f : integer_and_control_design_files()) {
    const ir::Module m = frontend::load_design(f).module;
    for (int lanes : {1, 2, 3}) {
      rtl::EmitOptions o;
      o.estimate.lanes = lanes;
      o.estimate.lenient = true;
      const rtl::EmittedDesign e = rtl::emit(m, rtl_fpga(), o);
      int64_t declared = 0;
      for (auto it = std::sregex_iterator(e.verilog.begin(), e.verilog.end(), address_register); it != std::sregex_iterator(); ++it) {
        declared += std::stoi((*it)[1]) + 1;
        EXPECT_NE(e.verilog.find(fmt::format("(* keep *) always @(posedge clk) {} <= ", (*it)[2].str())), std::string::npos) << f;
      }
      EXPECT_EQ(declared, e.control.address_registers) << f << " on " << lanes << " lane(s)";
      if (lanes == 1) one_lane[e.module_name] = declared;
    }
  }
  EXPECT_EQ(one_lane.at("maxpool"), 6);
  EXPECT_EQ(one_lane.at("stencil_3pt"), 0);
  EXPECT_EQ(one_lane.at("dot_product"), 0);
}

}  // namespace
}  // namespace hlsgym::testing
