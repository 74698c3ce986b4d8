// Errors a user can cause on the command line are one `error:` line and exit 1, with the
// right file and line, whatever the files' line endings; values the user gives are
// refused rather than silently changed; options that would be ignored are refused.
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
namespace fs = std::filesystem;

std::string design(const std::string& name) { return (source_dir() / "designs" / name).string(); }

fs::path work_dir() {
  const fs::path d = fs::temp_directory_path() / ("hlsgym_user_errors_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

fs::path write(const std::string& name, const std::string& text) {
  const fs::path p = work_dir() / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

std::string with_line_ends(std::string text, const std::string& end) {
  std::string out;
  for (char c : text) out += c == '\n' ? end : std::string(1, c);
  return out;
}

// One line, starting "error: ", exit code 1.
void expect_one_error_line(const CliResult& r, const std::string& expected) {
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line: " << r.err;
  EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
}

TEST(UserErrors, CommandLineOptionErrorsAreOneLineAndExitOne) {
  // Before: CLI11's two lines ("...\nRun with --help for more information.") and exit 104-109.
  expect_one_error_line(run_cli("optimize " + design("fir8.yaml") + " --input-sets 0"), "--input-sets");
  expect_one_error_line(run_cli("stats"), "DESIGN");
  expect_one_error_line(run_cli("stats " + design("fir8.yaml") + " --frobnicate"), "--frobnicate");
  expect_one_error_line(run_cli("frobnicate"), "subcommand");
  const CliResult help = run_cli("stats --help");
  EXPECT_EQ(help.exit_code, 0);
  const CliResult version = run_cli("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_NE(version.out.find("hlsgym"), std::string::npos);
}

// A message that quotes input with a line break in it (found by scripts/fuzz_cli.py: an
// opcode "consta\nt") is still one `error:` line.
TEST(UserErrors, QuotedLineBreaksStayOnOneLine) {
  const fs::path p = write("broken_op.yaml", "design: d\ninputs: {x: s32}\nops:\n  - {name: a, op: \"consta\\nt\", args: [x]}\n"
                                             "outputs: [a]\n");
  const CliResult r = run_cli("print " + p.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
}

TEST(UserErrors, PolicyFilesWithCrlfOrCrLineEnds) {
  // Before: "policy file version 'hlsgym-policy 1' not supported (reads 'hlsgym-policy 1')".
  const std::string policy = slurp(source_dir() / "designs" / "policies" / "learned.policy");
  const CliResult plain = run_cli("optimize " + design("fir8.yaml") + " --order learned --json");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  for (const char* end : {"\r\n", "\r"}) {
    const fs::path p = write(std::string("windows") + (end[1] ? "crlf" : "cr") + ".policy", with_line_ends(policy, end));
    const CliResult r = run_cli("optimize " + design("fir8.yaml") + " --order " + p.string() + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["order"], nlohmann::json::parse(plain.out)["order"]);
  }
}

TEST(UserErrors, CrOnlyLineEndsReportTheRightLine) {
  // Before: every error of a CR-only file was at line 1.
  const std::string yaml = "design: d\ninputs:\n  x: f32[4]\nops:\n  - {name: y, op: frobnicate, args: [x]}\noutputs: [y]\n";
  const std::string hlo = "HloModule m\n\nENTRY e {\n  x = f32[4] parameter(0)\n  ROOT y = f32[4] frobnicate(x)\n}\n";
  for (const char* end : {"\r", "\r\n"}) {
    const std::string tag = end[1] ? "crlf" : "cr";
    const fs::path y = write(tag + ".yaml", with_line_ends(yaml, end));
    const CliResult ry = run_cli("stats " + y.string());
    expect_one_error_line(ry, y.string() + ":5:");
    const fs::path h = write(tag + ".hlo", with_line_ends(hlo, end));
    const CliResult rh = run_cli("stats " + h.string());
    expect_one_error_line(rh, h.string() + ":5:");
    // And a CR-only file that is right loads.
    const fs::path ok = write(tag + "_ok.hlo", with_line_ends("HloModule m\n\nENTRY e {\n  x = f32[4] parameter(0)\n"
                                                             "  ROOT y = f32[4] negate(x), metadata={op_name=\"n\"}\n}\n",
                                                             end));
    EXPECT_EQ(run_cli("stats " + ok.string()).exit_code, 0);
  }
}

// Issue 21 (fuzzing): a constant whose element count overflows 64 bits (2^63-1 x 8
// wrapped to -8) passed the "too large" checks and ended in "internal: cannot create
// std::vector larger than max_size()", in a YAML design and in HLO text alike.
TEST(UserErrors, ShapesWhoseSizeOverflowsAreRefused) {
  std::string yaml = slurp(source_dir() / "designs" / "attention_head.yaml");
  const size_t at = yaml.find("type: \"f32[8,8]\"");
  ASSERT_NE(at, std::string::npos);
  yaml.replace(at, 16, "type: \"f32[9223372036854775807,8]\"");
  const fs::path y = write("overflow.yaml", yaml);
  for (const std::string cmd : {"stats", "run", "report", "optimize --check --order constant_folding"})
    expect_one_error_line(run_cli(cmd + " '" + y.string() + "'"), "constant f32[9223372036854775807,8] is too large");
  const fs::path h = write("overflow.hlo", "HloModule m\n\nENTRY e {\n  ROOT c = f32[9223372036854775807,8] constant(0)\n}\n");
  expect_one_error_line(run_cli("stats '" + h.string() + "'"), "overflow.hlo:4:");
}

TEST(UserErrors, OutOfRangeInputsAreRefused) {
  // fir8 takes x: s16[8], h: s16[8]. Before: 40000 became -25536.
  const fs::path big = write("big.json", "{\"x\": [40000, 0, 0, 0, 0, 0, 0, 0], \"h\": [1, 1, 1, 1, 1, 1, 1, 1]}");
  expect_one_error_line(run_cli("run " + design("fir8.yaml") + " --inputs " + big.string()), "40000 is out of range for s16");
  const fs::path low = write("low.json", "[[-32769, 0, 0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1, 1, 1]]");
  expect_one_error_line(run_cli("run " + design("fir8.yaml") + " --inputs " + low.string()), "-32769 is out of range for s16");
  const fs::path edge = write("edge.json", "[[32767, -32768, 0, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0, 0, 0]]");
  const CliResult ok = run_cli("run " + design("fir8.yaml") + " --inputs " + edge.string() + " --json");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("-1"), std::string::npos) << ok.out;  // 32767 - 32768
  // Floats: a finite number the type cannot hold would become infinity.
  const fs::path f16 = write("f16.hlo", "HloModule m\n\nENTRY e {\n  ROOT x = f16[2] parameter(0)\n}\n");
  const fs::path huge = write("huge.json", "[[1e6, 1]]");
  expect_one_error_line(run_cli("run " + f16.string() + " --inputs " + huge.string()), "out of range for f16");
  const fs::path inf = write("inf.json", "[[\"inf\", 1]]");
  EXPECT_EQ(run_cli("run " + f16.string() + " --inputs " + inf.string()).exit_code, 0);
}

TEST(UserErrors, TrainHiddenSizesThatAreNotNumbers) {
  // Before: "error: internal: stoi", exit 2.
  const std::string out = (work_dir() / "h.policy").string();
  for (const char* bad : {"abc", "64,x", "64,,64", "0", "99999999999"})
    expect_one_error_line(run_cli("train --graphs " + design("fir8.yaml") + " --steps 10 --hidden " + bad + " -o " + out),
                          "--hidden");
}

TEST(UserErrors, MappingWithAnInfiniteDistance) {
  // Before: "error: out of memory" (an out-of-bounds read of cluster -1).
  const fs::path map = work_dir() / "m.yaml";
  const CliResult d = run_cli("distill --policy learned --graphs " + design("fir8.yaml") + " --clusters 1 -o " + map.string());
  ASSERT_EQ(d.exit_code, 0) << d.err;
  std::string text = slurp(map);
  const size_t at = text.find("centroid: [");
  ASSERT_NE(at, std::string::npos) << text;
  const size_t end = text.find(']', at);
  std::string centroid = text.substr(at, end - at);
  centroid = std::regex_replace(centroid, std::regex("[-0-9.e+]+(,|$)"), "1e300$1");
  text = text.substr(0, at) + centroid + text.substr(end);
  const fs::path bad = write("inf_distance.yaml", text);
  expect_one_error_line(run_cli("optimize " + design("fir8.yaml") + " --order " + bad.string()),
                        bad.string() + ": no cluster is at a finite distance");
}

TEST(UserErrors, MappingFilesWithCrlfOrCrLineEnds) {
  const fs::path map = work_dir() / "plain.yaml";
  const CliResult d = run_cli("distill --policy learned --graphs " + design("fir8.yaml") + " --clusters 1 -o " + map.string());
  ASSERT_EQ(d.exit_code, 0) << d.err;
  const CliResult plain = run_cli("optimize " + design("fir8.yaml") + " --order " + map.string() + " --json");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  for (const char* end : {"\r\n", "\r"}) {
    const fs::path p = write(std::string("mapping_") + (end[1] ? "crlf" : "cr") + ".yaml", with_line_ends(slurp(map), end));
    const CliResult r = run_cli("optimize " + design("fir8.yaml") + " --order " + p.string() + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["order"], nlohmann::json::parse(plain.out)["order"]);
  }
}

TEST(UserErrors, DatasetsWithCrlfOrCrLineEnds) {
  // Before: "column n: '0' is not a number" (CRLF) and a JSON error in the header (CR).
  const fs::path data = work_dir() / "data.csv";
  const CliResult c = run_cli("collect --graphs " + design("fir8.yaml") + " -o " + data.string() +
                              " --episodes 2 --episode-len 4");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  for (const char* end : {"\r\n", "\r"}) {
    const fs::path p = write(std::string("data_") + (end[1] ? "crlf" : "cr") + ".csv", with_line_ends(slurp(data), end));
    const CliResult r = run_cli("train --dataset " + p.string() + " --algo dqn --steps 10 --hidden 8 -o " +
                                (work_dir() / "q.policy").string());
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
}

TEST(UserErrors, FixedOnAnIntegerDesignIsRefused) {
  // Before: accepted and ignored.
  expect_one_error_line(run_cli("rtl " + design("fir8.yaml") + " --fixed 16,8 -o " + (work_dir() / "rtl").string()),
                        "--fixed 16,8 quantizes floats, and the design has none");
}

}  // namespace
}  // namespace hlsgym::testing
