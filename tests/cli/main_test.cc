// End-to-end tests of the hlsgym executable: the subcommands, --help, --json contracts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
using nlohmann::json;

std::string design(const std::string& name) {
  return (source_dir() / "designs" / name).string();
}

TEST(Cli, HelpListsSubcommands) {
  CliResult r = run_cli("--help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* sub : {"stats", "print", "run"}) EXPECT_NE(r.out.find(sub), std::string::npos);
  for (const char* sub : {"stats", "print", "run"}) {
    CliResult h = run_cli(std::string(sub) + " --help");
    EXPECT_EQ(h.exit_code, 0) << sub;
    EXPECT_NE(h.out.find("DESIGN"), std::string::npos) << sub;
  }
}

TEST(Cli, StatsJsonOfFir8) {
  CliResult r = run_cli("stats --json " + design("fir8.yaml"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  // fir8: 2 parameters, 2 converts, multiply, constant, reduce in the entry, plus the
  // 3-instruction add computation the reduce applies.
  EXPECT_EQ(j["entry_instructions"], 7);
  EXPECT_EQ(j["instructions"], 10);
  EXPECT_EQ(j["opcodes"]["convert"], 2);
  EXPECT_EQ(j["opcodes"]["reduce"], 1);
  // multiply: 8 flops; convert: 8 + 8; reduce: 1 add per (8 - 1) elements.
  EXPECT_DOUBLE_EQ(j["flops"].get<double>(), 8 + 16 + 7);
  EXPECT_DOUBLE_EQ(j["transcendentals"].get<double>(), 0);
  EXPECT_GT(j["bytes_accessed"].get<double>(), 0);
  EXPECT_TRUE(j["features"].is_object());
}

TEST(Cli, StatsOnRealHloFile) {
  auto files = all_hlo_files();
  ASSERT_FALSE(files.empty());
  CliResult r = run_cli("stats --json " + files.front().string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_GT(j["instructions"].get<int>(), 0);
}

TEST(Cli, PrintIsAFixedPoint) {
  CliResult first = run_cli("print " + design("fir8.yaml"));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const auto tmp = hlsgym::testing::scratch("hlsgym_fir8_print.hlo");
  {
    std::ofstream(tmp) << first.out;
  }
  CliResult second = run_cli("print " + tmp.string());
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(first.out, second.out);
  std::filesystem::remove(tmp);
}

TEST(Cli, RunIsDeterministicPerSeedAndMatchesGivenInputs) {
  CliResult a = run_cli("run --json --seed 7 " + design("fir8.yaml"));
  CliResult b = run_cli("run --json --seed 7 " + design("fir8.yaml"));
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(json::parse(a.out)["output"], json::parse(b.out)["output"]);

  // Given inputs: y = sum(x[i] * h[i]) = 1*8 + 2*7 + ... + 8*1 = 120.
  const auto inputs = hlsgym::testing::scratch("hlsgym_fir8_inputs.json");
  {
    std::ofstream(inputs) << R"({"x": [1,2,3,4,5,6,7,8], "h": [8,7,6,5,4,3,2,1]})";
  }
  CliResult r = run_cli("run --json --inputs " + inputs.string() + " " + design("fir8.yaml"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["output"], 120);
  std::filesystem::remove(inputs);
}

TEST(Cli, ErrorsAreOneLineWithExitCodeOne) {
  CliResult missing = run_cli("stats /nonexistent/x.yaml");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err.rfind("error: /nonexistent/x.yaml", 0), 0u) << missing.err;

  const auto bad = hlsgym::testing::scratch("hlsgym_bad.hlo");
  {
    std::ofstream(bad) << "HloModule m\n\nENTRY e {\n  ROOT x = f32[2] frobnicate()\n}\n";
  }
  CliResult r = run_cli("stats " + bad.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("error: " + bad.string() + ":4:", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("frobnicate"), std::string::npos) << r.err;
  std::filesystem::remove(bad);

  CliResult unknown = run_cli("frobnicate");
  EXPECT_NE(unknown.exit_code, 0);
  CliResult ext = run_cli("stats " + (source_dir() / "README.md").string());
  EXPECT_EQ(ext.exit_code, 1);
  EXPECT_NE(ext.err.find("README.md"), std::string::npos);
}

}  // namespace
}  // namespace hlsgym::testing
