// `hlsgym rtl`: files written, --sim --json fields, refusals with a non-zero exit.
#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>

#include "tests/rtl/fixed_overflow_designs.h"
#include "tests/rtl/rtl_test_util.h"
#include "tests/support/run_cli.h"

namespace hlsgym::testing {
namespace {

std::string design_path(const std::string& name) { return (source_dir() / "designs" / (name + ".yaml")).string(); }

TEST(RtlCli, SimJson) {
  const auto dir = rtl_work_dir("cli_sim");
  const CliResult r = run_cli("rtl " + design_path("matvec") + " -o " + dir.string() + " --sim --vectors 5 --seed 3 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["vectors"], 5);
  EXPECT_EQ(j["mismatches"], 0);
  EXPECT_EQ(j["estimated_cycles"], 41);  // two tasks on the critical path, each with its read stage
  EXPECT_EQ(j["measured_cycles"], 41);
  EXPECT_TRUE(std::filesystem::exists(j["verilog"].get<std::string>()));
  EXPECT_TRUE(std::filesystem::exists(dir / "tb_matvec.cpp"));
}

TEST(RtlCli, EmitOnlyAndTrace) {
  const auto dir = rtl_work_dir("cli_trace");
  const CliResult r = run_cli("rtl " + design_path("saturating_add") + " -o " + dir.string() + " --trace --vectors 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("measured 27 (agree)"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::exists(dir / "trace.vcd"));
  EXPECT_GT(std::filesystem::file_size(dir / "trace.vcd"), 1000u);
}

// An f32 design reaches RTL through its IEEE-754 units and cosimulates bit for bit with
// the hardware-order reference, and so does one with a transcendental (softmax's exp,
// through its unit) and gelu (x^3 through the integer power unit); an op without a unit
// (gelu's tanh made tan) is refused by op, type and line.
TEST(RtlCli, FloatDesignCosimulates) {
  const CliResult r = run_cli("rtl " + design_path("mlp_layer") + " --target fpga --sim --vectors 2 -o " +
                              rtl_work_dir("cli_float").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("0 mismatching output elements"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(agree)"), std::string::npos) << r.out;
  const CliResult x = run_cli("rtl " + design_path("softmax") + " --target fpga --sim --vectors 2 -o " +
                              rtl_work_dir("cli_softmax").string());
  ASSERT_EQ(x.exit_code, 0) << x.err;
  EXPECT_NE(x.out.find("0 mismatching output elements"), std::string::npos) << x.out;
  EXPECT_NE(x.out.find("(agree)"), std::string::npos) << x.out;
  const CliResult g = run_cli("rtl " + design_path("gelu") + " --target fpga --sim --vectors 2 -o " +
                              rtl_work_dir("cli_gelu").string());
  ASSERT_EQ(g.exit_code, 0) << g.err;
  EXPECT_NE(g.out.find("0 mismatching output elements"), std::string::npos) << g.out;
  EXPECT_NE(g.out.find("(agree)"), std::string::npos) << g.out;
  std::ifstream in(design_path("gelu"));
  std::string gelu((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t tanh = gelu.find("op: tanh,");
  ASSERT_NE(tanh, std::string::npos);
  gelu.replace(tanh, 9, "op: tan,");
  const std::filesystem::path dir = rtl_work_dir("cli_gelu_tan"), no_unit = dir / "gelu.yaml";
  std::ofstream(no_unit) << gelu;
  const CliResult t = run_cli("rtl " + no_unit.string() + " --target fpga -o " + (dir / "out").string());
  EXPECT_EQ(t.exit_code, 1);
  EXPECT_NE(t.err.find("gelu.yaml:15"), std::string::npos) << t.err;
  EXPECT_NE(t.err.find("tan ('t')"), std::string::npos) << t.err;
  EXPECT_NE(t.err.find("on f32 is not supported by the RTL emitter"), std::string::npos) << t.err;
}

TEST(RtlCli, BadFixedFormat) {
  // any ap_fixed width from 2 to 64 is accepted now; an unsupported mode names what is supported
  const CliResult r = run_cli("rtl " + design_path("mlp_layer") + " --target fpga --fixed 'ap_fixed<12,4,AP_RND_ZERO>' -o " +
                              rtl_work_dir("cli_fixed").string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("quantization mode AP_RND_ZERO is not supported; supported: ap_fixed<W,I"), std::string::npos) << r.err;
}

// rtl --fixed SPEC --sim: the accuracy against the float design (hls4ml-style profiling),
// and a format the vectors overflow is an error naming the first value, unless the
// overflow mode is named (then a warning line).
TEST(RtlCli, FixedPointAccuracyAndOverflow) {
  const CliResult r = run_cli("rtl " + design_path("float/saxpy") + " --fixed 'ap_fixed<16,6,AP_RND,AP_SAT>' --sim --vectors 2 --json -o " +
                              rtl_work_dir("cli_fixed_acc").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mismatches"], 0);
  EXPECT_EQ(j["accuracy"]["format"], "ap_fixed<16,6,AP_RND,AP_SAT>");
  EXPECT_GT(j["accuracy"]["snr_db"].get<double>(), 60);
  EXPECT_LT(j["accuracy"]["max_abs_error"].get<double>(), 0.01);
  EXPECT_EQ(j["accuracy"]["overflows"], 0);
  const CliResult o = run_cli("rtl " + design_path("mlp_layer") + " --fixed 8,3 --sim --vectors 2 -o " +
                              rtl_work_dir("cli_fixed_ovf").string());
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_NE(o.err.find("values overflow (first: op '"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("is outside ap_fixed<8,3,AP_TRN,AP_WRAP>"), std::string::npos) << o.err;
  const CliResult w = run_cli("rtl " + design_path("mlp_layer") + " --fixed 'ap_fixed<8,3,AP_TRN,AP_WRAP>' --sim --vectors 2 -o " +
                              rtl_work_dir("cli_fixed_wrap").string());
  EXPECT_EQ(w.exit_code, 0) << w.err;
  EXPECT_NE(w.out.find("warning: "), std::string::npos) << w.out;
  EXPECT_NE(w.out.find("accuracy vs float (ap_fixed<8,3,AP_TRN,AP_WRAP>)"), std::string::npos) << w.out;
}

// The same report for a value computed inside a called computation: kEntryReduce's
// values in the entry stay in ap_fixed<8,4>'s range (the reduce of 32 values of 1.5 and
// 32 of -1.5 is 0, and AP_WRAP even computes it exactly), its combiner's partial sums
// (up to 48) do not, in the text report and in --json. (A reduce inside a call or
// fusion is tests/rtl/fixed_overflow_test.cc's: the RTL emitter needs them inlined.)
TEST(RtlCli, FixedPointOverflowInsideAReduce) {
  const std::filesystem::path dir = rtl_work_dir("cli_fixed_reduce"), hlo = dir / "partial_sums.hlo";
  std::ofstream(hlo) << kEntryReduce;
  // per vector, the partial sums 9 .. 48 .. 9 (27 + 26), each read again as `a` (53)
  const std::string first = "op 'acc' in computation 'sum' element 0 of vector 0: 9 is outside ap_fixed<8,4,AP_TRN,AP_WRAP>";
  const CliResult e = run_cli("rtl " + hlo.string() + " --target fpga --fixed 8,4 --sim --vectors 2 -o " + (dir / "e").string());
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_NE(e.err.find("values overflow (first: " + first), std::string::npos) << e.err;
  const CliResult w = run_cli("rtl " + hlo.string() + " --target fpga --fixed 'ap_fixed<8,4,AP_TRN,AP_WRAP>' --sim --vectors 2 -o " +
                              (dir / "w").string());
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_NE(w.out.find("warning: 212 values overflow their format; first: " + first), std::string::npos) << w.out;
  const CliResult j = run_cli("rtl " + hlo.string() + " --target fpga --fixed 'ap_fixed<8,4,AP_TRN,AP_WRAP>' --sim --vectors 2 --json -o " +
                              (dir / "j").string());
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const nlohmann::json r = nlohmann::json::parse(j.out);
  EXPECT_EQ(r["accuracy"]["overflows"], 212);
  EXPECT_EQ(r["accuracy"]["first_overflow"].get<std::string>().rfind(first, 0), 0u) << r.dump();
  const CliResult c = run_cli("rtl " + hlo.string() + " --target fpga --fixed 'ap_fixed<12,8>' --sim --vectors 2 --json -o " +
                              (dir / "c").string());
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(nlohmann::json::parse(c.out)["accuracy"]["overflows"], 0);
}

}  // namespace
}  // namespace hlsgym::testing
