// `hlsgym report`: the JSON contract, the text report, the Gantt chart, and bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
using nlohmann::json;
namespace fs = std::filesystem;

std::string design(const std::string& name) { return (source_dir() / "designs" / name).string(); }

fs::path temp_file(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("hlsgym_report_" + std::to_string(::getpid()) + "_" + name);
  std::ofstream(p) << text;
  return p;
}

// Names quoted in the tables are escaped like the rest of the report (a tab in a YAML
// name is a control character JSON does not allow raw).
TEST(ReportCli, TableNamesAreEscaped) {
  const fs::path p = temp_file("tab.yaml", "design: d\ninputs: {x: \"s32[64]\"}\nops:\n"
                                           "  - {name: \"neg\\tated\", op: negate, args: [x]}\noutputs: [\"neg\\tated\"]\n");
  CliResult r = run_cli("report --json " + p.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j;
  ASSERT_NO_THROW(j = json::parse(r.out)) << r.out;
  EXPECT_EQ(j["loops"][0]["name"], "neg\tated");
}

// A while loop has a row of its own: its trips, one iteration (condition, decide, body,
// copy-back) and not pipelined; the loop's trips x iteration plus copy-in and the last
// condition is the whole design here (control_flow.h).
TEST(ReportCli, WhileLoopRow) {
  CliResult r = run_cli("report --json --no-pipeline " + design("loops/cordic.yaml"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["loops"].size(), 1u) << j["loops"].dump();  // scalar state: no other loop nests in the entry
  const json& w = j["loops"][0];
  EXPECT_EQ(w["op"], "while");
  EXPECT_EQ(w["trips"], 16);
  EXPECT_EQ(w["pipelined"], false);
  EXPECT_EQ(w["issue_cycles"], j["cycles"]);
  const int64_t iteration = w["iteration_latency"];
  // 3 (copy-in of scalars) + 17 x (condition + 1) + 16 x (body + copy-back), condition 2
  EXPECT_EQ(3 + 17 * 3 + 16 * (iteration - 3), j["cycles"].get<int64_t>());
  EXPECT_EQ(w["not_pipelined_because"], "pipelining turned off (directive pipeline: off)");
  CliResult text = run_cli("report --no-pipeline " + design("loops/cordic.yaml"));
  EXPECT_NE(text.out.find("while         own datapath         16"), std::string::npos) << text.out;
  // pipelined (hwmodel/loop_pipelining.h): the recurrence through x and y every 2 trips
  CliResult p = run_cli("report --json " + design("loops/cordic.yaml"));
  ASSERT_EQ(p.exit_code, 0) << p.err;
  const json pj = json::parse(p.out);
  const json& pw = pj["loops"][0];
  EXPECT_EQ(pw["pipelined"], true);
  EXPECT_EQ(pw["pipeline_ii"], 6);
  EXPECT_EQ(pw["ii"], 6);
  EXPECT_EQ(pw["not_pipelined_because"], nullptr);
  EXPECT_NE(pw["pipeline_limit"].get<std::string>().find("recurrence"), std::string::npos);
  // 3 (copy-in) + 15 x II + one iteration
  EXPECT_EQ(3 + 15 * 6 + pw["iteration_latency"].get<int64_t>(), pj["cycles"].get<int64_t>());
  CliResult ptext = run_cli("report " + design("loops/cordic.yaml"));
  EXPECT_NE(ptext.out.find("loop: pipelined at II 6 (16 trips, iteration latency 7; II above 1: recurrence"),
            std::string::npos) << ptext.out;
}

TEST(ReportCli, JsonOfFir8) {
  CliResult r = run_cli("report --json " + design("fir8.yaml"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["target"], "fpga");
  EXPECT_EQ(j["cycles"], 20);  // hand-computed in estimate_test.cc
  EXPECT_EQ(j["ii"], 8);
  EXPECT_EQ(j["memory_bytes"], 68);
  EXPECT_NEAR(j["energy_pj"].get<double>(), 110.4 + 520 + 24000, 1e-6);
  EXPECT_EQ(j["area"]["dsp"], 1);
  for (const char* k : {"lut", "ff", "bram18k"}) EXPECT_TRUE(j["area"].contains(k)) << k;
  const json& s = j["schedule"];
  ASSERT_EQ(s.size(), 7u);
  std::map<std::string, json> by_name;
  for (const json& t : s) {
    for (const char* k : {"name", "start", "latency", "unit", "deps"}) EXPECT_TRUE(t.contains(k)) << t.dump();
    by_name[t["name"]] = t;
  }
  EXPECT_EQ(by_name["p"]["start"], 0);  // the converts are chained into it: no latency
  EXPECT_EQ(by_name["xw"]["latency"], 0);
  EXPECT_EQ(by_name["p"]["latency"], 11);
  EXPECT_EQ(by_name["p"]["unit"], "int_mul.0");
  EXPECT_EQ(by_name["p"]["deps"], json::array({"xw", "hw"}));
  EXPECT_EQ(by_name["y"]["start"], 11);
  EXPECT_TRUE(by_name["x"]["unit"].is_null());
}

TEST(ReportCli, TextReportAndGantt) {
  const fs::path svg = fs::temp_directory_path() / ("hlsgym_gantt_" + std::to_string(::getpid()) + ".svg");
  CliResult r = run_cli("report " + design("softmax.yaml") + " --target fpga --schedule exact --gantt " + svg.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* s : {"Latency:", "Interval", "Utilization (%)", "Available", "DSP", "static", "proven optimal"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  std::ifstream in(svg);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.rfind("<svg", 0), 0u);
  EXPECT_NE(text.find("<title>e (exponential)"), std::string::npos);
  EXPECT_NE(text.find("</svg>"), std::string::npos);
  fs::remove(svg);
}

TEST(ReportCli, CpuTargetAndOptions) {
  CliResult r = run_cli("report --json --target cpu --schedule asap " + design("dot_product.yaml"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["cycles"], 33);
  r = run_cli("report --json --lanes 4 --units int_mac=2 " + design("matmul_4x4.yaml"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["lanes"], 4);
}

TEST(ReportCli, BadTargetFilesExitOne) {
  const fs::path bad = temp_file("bad_target.yaml", "target: t\nkind: fpga\nclock_mhz: -5\n");
  CliResult r = run_cli("report " + design("fir8.yaml") + " --target " + bad.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("error: " + bad.string() + ":1:1: missing field"), std::string::npos) << r.err;
  fs::remove(bad);
  r = run_cli("report " + design("fir8.yaml") + " --target gpu");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("unknown target 'gpu'"), std::string::npos) << r.err;
  r = run_cli("report " + design("fir8.yaml") + " --schedule fastest");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--schedule: expected asap, alap, list or exact"), std::string::npos) << r.err;
  r = run_cli("report " + design("fir8.yaml") + " --units int_alu");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--units: expected CLASS=N"), std::string::npos) << r.err;
}

TEST(ReportCli, OpWithoutCostModelExitsOneUnlessLenient) {
  const fs::path hlo = temp_file("cc.hlo", "HloModule cc\nENTRY main {\n  x = f32[8] parameter(0)\n"
                                           "  ROOT y = f32[8] custom-call(x), custom_call_target=\"foo\"\n}\n");
  CliResult r = run_cli("report " + hlo.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("error: " + hlo.string() + ":4: op custom-call 'foo' (y) has no cost model"), std::string::npos)
      << r.err;
  r = run_cli("report --lenient --json " + hlo.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["uncosted_ops"]["custom-call"], 1);
  fs::remove(hlo);
}

TEST(ReportCli, DesignThatDoesNotFitExitsOne) {
  CliResult r = run_cli("report " + design("softmax.yaml") + " --target fpga --lanes 4096");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("does not fit target fpga"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace hlsgym::testing

namespace hlsgym::testing {
namespace {

// The HLS tables: a loop per computing task, a memory per binding track whose costs add
// up to the estimate's BRAM, and the interface with its transfer cycles.
TEST(ReportCli, LoopMemoryAndInterfaceTables) {
  CliResult r = run_cli("report --json " + (source_dir() / "designs" / "conv2d.yaml").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  std::map<std::string, nlohmann::json> loops;
  for (const auto& l : j["loops"]) loops[l["name"]] = l;
  ASSERT_TRUE(loops.count("y"));
  EXPECT_EQ(loops["y"]["op"], "convolution");
  EXPECT_EQ(loops["y"]["trips"], 4 * 4 * 2 * 9);  // 4x4x2 outputs, 9 taps of one input feature
  EXPECT_FALSE(loops.count("img32"));  // a widening convert read by the MAC: chained, no loop
  double bram = 0;
  for (const auto& mem : j["memories"]) {
    bram += mem["bram18k"].get<double>();
    EXPECT_GE(mem["read_ports"].get<int>(), 1);
    EXPECT_FALSE(mem["holds"].empty());
  }
  EXPECT_EQ(bram, j["area"]["bram18k"].get<double>());
  EXPECT_EQ(j["interface"]["transfer_in_cycles"], 36 + 18);
  EXPECT_EQ(j["interface"]["transfer_out_cycles"], 32 + 1);
  CliResult text = run_cli("report " + (source_dir() / "designs" / "conv2d.yaml").string());
  for (const char* s : {"+ Loops", "+ Memories", "+ Interface", "words x bits", "transfer: 54 cycles in"})
    EXPECT_NE(text.out.find(s), std::string::npos) << s;
}

}  // namespace
}  // namespace hlsgym::testing
