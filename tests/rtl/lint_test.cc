// `verilator --lint-only -Wall` passes with no warning on the Verilog of every integer
// design; and the check is not vacuous: lint does flag a planted unused register.
#include "tests/rtl/rtl_test_util.h"

namespace hlsgym::testing {
namespace {

TEST(Lint, EveryIntegerDesignIsWarningFree) {
  for (const std::string& name : integer_designs()) {
    const rtl::EmittedDesign e = rtl::emit(rtl_design(name).module, rtl_fpga());
    const rtl::Files f = rtl::write_files(e, rtl_work_dir("lint_" + name));
    const rtl::LintResult r = rtl::lint(f, e.module_name);
    EXPECT_TRUE(r.clean) << name << ":\n" << r.output;
    EXPECT_EQ(r.output.find("%Warning"), std::string::npos) << name;
  }
}

TEST(Lint, FlagsAPlantedWarning) {
  rtl::EmittedDesign e = rtl::emit(rtl_design("dot_product").module, rtl_fpga());
  const size_t at = e.verilog.find("  reg running;");
  ASSERT_NE(at, std::string::npos);
  e.verilog.insert(at, "  reg [3:0] planted;\n");  // never driven, never read
  const rtl::Files f = rtl::write_files(e, rtl_work_dir("lint_planted"));
  const rtl::LintResult r = rtl::lint(f, e.module_name);
  EXPECT_FALSE(r.clean);
  EXPECT_NE(r.output.find("planted"), std::string::npos) << r.output;
}

// The emitted text stays inside Verilog-2005 (Yosys reads it without -sv).
TEST(Lint, NoSystemVerilogConstructs) {
  for (const std::string& name : integer_designs()) {
    const std::string v = rtl::emit(rtl_design(name).module, rtl_fpga()).verilog;
    for (const char* sv : {"logic ", "always_comb", "always_ff", "'0", "int ", "bit "})
      EXPECT_EQ(v.find(sv), std::string::npos) << name << " uses " << sv;
  }
}

}  // namespace
}  // namespace hlsgym::testing
