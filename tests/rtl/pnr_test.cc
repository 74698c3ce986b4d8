// --pnr on the iCE40 UltraPlus target (designs/targets/ice40.yaml): Yosys synth_ice40 and
// nextpnr-ice40 on a small design, whose SB_MAC16 and EBR counts are the estimate's and
// whose achieved clock is reported; the RTL built for that target still cosimulates
// exactly; a missing tool, a target without a device and a run out of time are refused.
#include <fmt/core.h>
#include <stdlib.h>

#include "ir/error.h"
#include "rtl/pnr.h"
#include "tests/rtl/rtl_test_util.h"
#include "tests/support/run_cli.h"

namespace hlsgym::testing {
namespace {

const hwmodel::Target& ice40() {
  static const hwmodel::Target t = hwmodel::load_target("ice40", {source_dir() / "designs" / "targets"});
  return t;
}

TEST(Pnr, Fir8OnUp5kMatchesDspAndEbrAndReportsFmax) {
  const rtl::EmittedDesign e = rtl::emit(rtl_design("fir8").module, ice40());
  const rtl::Files f = rtl::write_files(e, rtl_work_dir("pnr_fir8"));
  const rtl::PnrReport r = rtl::place_and_route(e, f, ice40(), 300);
  fmt::print("{}", rtl::pnr_text(e, r));
  EXPECT_EQ(r.device, "up5k");
  EXPECT_GE(r.dsp, 1);  // the 16 x 16 MAC's product is an SB_MAC16
  EXPECT_EQ(static_cast<double>(r.dsp), e.estimate.area.dsp);
  EXPECT_EQ(static_cast<double>(r.bram), e.estimate.area.bram18k);
  EXPECT_GT(r.lut, 0);
  EXPECT_GT(r.ff, 0);
  EXPECT_GT(r.fmax_mhz, 0);
  EXPECT_EQ(r.constraint_mhz, ice40().clock_mhz);
  EXPECT_EQ(r.used.at("ICESTORM_DSP"), r.dsp);  // the harness adds no DSP
  EXPECT_EQ(r.used.at("SB_IO"), 4);             // clk, sin, cap, sout
  EXPECT_GE(r.logic_cells, r.lut);
  const nlohmann::json j = rtl::pnr_json(e, r);
  EXPECT_EQ(j["nextpnr"]["fmax_mhz"].get<double>(), r.fmax_mhz);
  EXPECT_EQ(j["synth"]["dsp"].get<int64_t>(), r.dsp);
}

// The iCE40 target's one-cycle multiplier builds a different pipeline than the xc7z020's:
// it must still run the estimated schedule exactly.
TEST(Pnr, Fir8OnUp5kCosimulatesExactly) {
  const ir::Module& m = rtl_design("fir8").module;
  const rtl::EmittedDesign e = rtl::emit(m, ice40());
  const rtl::SimResult r = rtl::cosimulate(m, e, rtl_work_dir("pnr_fir8_sim"), {4, 1, false});
  EXPECT_TRUE(r.passed()) << r.mismatches << " mismatches, measured " << r.measured_cycles << " estimated "
                          << r.estimated_cycles;
}

TEST(Pnr, HarnessHasFourPinsAndEveryPortBit) {
  const rtl::EmittedDesign e = rtl::emit(rtl_design("fir8").module, ice40());
  const std::string h = rtl::pnr_harness(e);
  EXPECT_NE(h.find("module hlsgym_pnr_top(input wire clk, input wire sin, input wire cap, output wire sout);"),
            std::string::npos);
  EXPECT_NE(h.find(".clk(clk)"), std::string::npos);
  EXPECT_NE(h.find(".start(in_bits["), std::string::npos);
  EXPECT_NE(h.find(".done(out_bits["), std::string::npos);
}

TEST(Pnr, TargetWithoutDeviceIsRefused) {
  const rtl::EmittedDesign e = rtl::emit(rtl_design("saturating_add").module, rtl_fpga());
  const rtl::Files f = rtl::write_files(e, rtl_work_dir("pnr_no_device"));
  try {
    rtl::place_and_route(e, f, rtl_fpga(), 60);
    FAIL() << "expected an error";
  } catch (const Error& x) {
    EXPECT_NE(std::string(x.what()).find("--target ice40"), std::string::npos) << x.what();
  }
}

// PATH holding yosys but not nextpnr-ice40: the error names the Debian package.
TEST(Pnr, MissingNextpnrNamesItsPackage) {
  const rtl::EmittedDesign e = rtl::emit(rtl_design("saturating_add").module, ice40());
  const std::filesystem::path dir = rtl_work_dir("pnr_missing_tool");
  const rtl::Files f = rtl::write_files(e, dir / "out");
  std::filesystem::create_directories(dir / "bin");
  std::filesystem::create_symlink(rtl::require_tool("yosys", "yosys"), dir / "bin" / "yosys");
  const std::string old_path = getenv("PATH");
  setenv("PATH", (dir / "bin").c_str(), 1);
  std::string what;
  try {
    rtl::place_and_route(e, f, ice40(), 60);
  } catch (const Error& x) {
    what = x.what();
  }
  setenv("PATH", old_path.c_str(), 1);
  EXPECT_NE(what.find("nextpnr-ice40"), std::string::npos) << what;
  EXPECT_NE(what.find("package"), std::string::npos) << what;
}

TEST(Pnr, TimeoutStopsTheRun) {
  const rtl::EmittedDesign e = rtl::emit(rtl_design("fir8").module, ice40());
  const rtl::Files f = rtl::write_files(e, rtl_work_dir("pnr_timeout"));
  try {
    rtl::place_and_route(e, f, ice40(), 0.05);
    FAIL() << "expected the run to be stopped";
  } catch (const Error& x) {
    EXPECT_NE(std::string(x.what()).find("did not finish within --timeout"), std::string::npos) << x.what();
  }
}

// The design with its harness must fit the part's logic cells (a LUT4 and a flip-flop
// each) before minutes of Yosys and nextpnr are spent: here a part one cell too small for
// fir8 with its harness (42 input + 33 output bits), though large enough for fir8 alone.
TEST(Pnr, DesignAndHarnessBeyondTheLogicCellsAreRefusedBeforeAnyTool) {
  const rtl::EmittedDesign e = rtl::emit(rtl_design("fir8").module, ice40());
  EXPECT_EQ(rtl::harness_logic_cells(e), 42 + 33);
  hwmodel::Target small = ice40();
  small.resources.logic_cells = e.estimate.area.lut + e.estimate.area.ff + 75 - 1;
  const rtl::Files f = rtl::write_files(e, rtl_work_dir("pnr_too_small"));
  std::filesystem::remove(f.dir / "yosys_pnr_cells.log");
  try {
    rtl::place_and_route(e, f, small, 60);
    FAIL() << "expected an error";
  } catch (const Error& x) {
    const std::string w = x.what();
    // the numbers as the message rounds them (the LUT4 estimate is fractional)
    const double need = e.estimate.area.lut + e.estimate.area.ff + 75;
    EXPECT_NE(w.find(fmt::format("does not fit the up5k: needs {:.0f} logic cells of {:.0f}", need, small.resources.logic_cells)),
              std::string::npos)
        << w;
    EXPECT_NE(w.find("75 for the harness"), std::string::npos) << w;
  }
  EXPECT_FALSE(std::filesystem::exists(f.dir / "yosys_pnr_cells.log"));  // Yosys never ran
}

// nextpnr-ice40 0.4's log of stencil_3pt (stop 32), which it could not place: the bel type
// over its count is named.
TEST(Pnr, NextpnrOveruseNamesTheBelType) {
  const std::string log =
      "ERROR: Unable to place cell 'design.t2_c2_LC', no BELs remaining to implement cell type 'ICESTORM_LC'\n"
      "Info: Device utilisation:\n"
      "Info: \t         ICESTORM_LC:  6051/ 5280   114%\n"
      "Info: \t        ICESTORM_RAM:     0/   30     0%\n"
      "Info: \t               SB_IO:     4/   96     4%\n"
      "Info: \t               SB_GB:     5/    8    62%\n";
  EXPECT_EQ(rtl::nextpnr_overuse(log), "needs 6051 ICESTORM_LC of 5280 (114%)");
  EXPECT_EQ(rtl::nextpnr_overuse("Info: \t         ICESTORM_LC:  3888/ 5280    73%\n"), "");
}

// `hlsgym rtl --target ice40 --pnr --json`: the "pnr" object beside the estimate.
TEST(Pnr, CliJson) {
  const auto dir = rtl_work_dir("pnr_cli");
  const CliResult r = run_cli("rtl " + (source_dir() / "designs" / "saturating_add.yaml").string() + " -o " +
                              dir.string() + " --target ice40 --pnr --json --timeout 300");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out)["pnr"];
  EXPECT_EQ(j["device"], "up5k");
  EXPECT_EQ(j["synth"]["dsp"].get<double>(), j["estimate"]["dsp"].get<double>());
  EXPECT_EQ(j["synth"]["bram"].get<double>(), j["estimate"]["bram"].get<double>());
  EXPECT_GT(j["synth"]["lut"].get<int64_t>(), 0);
  EXPECT_GT(j["nextpnr"]["fmax_mhz"].get<double>(), 0);
  EXPECT_TRUE(std::filesystem::exists(dir / "nextpnr_report.json"));
}

TEST(Pnr, CliRefusesATargetWithoutDevice) {
  const CliResult r = run_cli("rtl " + (source_dir() / "designs" / "saturating_add.yaml").string() + " -o " +
                              rtl_work_dir("pnr_cli_fpga").string() + " --target fpga --pnr");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("names no device"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace hlsgym::testing
