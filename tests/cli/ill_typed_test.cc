// Issue 17: nothing that fails the verifier reaches a pass, the interpreter, the estimate
// or the RTL. Every ill-typed module of tests/data/ill_typed/ (and a YAML alias bomb) is,
// for every subcommand that reads a design, exit 1 and one `error: FILE:LINE:COL: ...`
// line: no signal, no hang, no internal error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
namespace fs = std::filesystem;

void expect_one_located_error(const std::string& args, const std::string& file) {
  SCOPED_TRACE(args);
  const CliResult r = run_cli(args);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  // One line: "error: <file>:<line>:<col>: <message>\n".
  const std::regex one_line("error: [^\n]*" + file + ":[0-9]+:[0-9]+: [^\n]+\n");
  EXPECT_TRUE(std::regex_match(r.err, one_line)) << r.err;
  EXPECT_EQ(r.err.find("internal"), std::string::npos) << r.err;
}

TEST(IllTypedCli, EverySubcommandRefusesWithOneLocatedError) {
  const fs::path dir = source_dir() / "tests/data/ill_typed";
  int files = 0;
  for (const auto& f : fs::directory_iterator(dir)) {
    const std::string p = f.path().string(), name = f.path().filename().string();
    for (const char* cmd : {"stats", "run", "optimize --check", "report", "rtl"})
      expect_one_located_error(std::string(cmd) + " '" + p + "'" +
                                   (std::string(cmd) == "rtl" ? " -o '" + (hlsgym::testing::scratch("ill_typed_rtl")).string() + "'" : ""),
                               name);
    ++files;
  }
  EXPECT_GE(files, 20);
}

TEST(IllTypedCli, YamlAliasBombIsRefusedQuickly) {
  // Nine levels of ten aliases: 10^9 nodes when expanded (minutes and gigabytes before).
  std::string text = "design: bomb\ninputs:\n  x: f32[4]\nops:\n  - {name: c1, op: constant, type: 'f32[10]', value: &a1 [1,1,1,1,1,1,1,1,1,1]}\n";
  for (int k = 2; k <= 9; ++k) {
    std::string type = "f32[10", refs = "*a" + std::to_string(k - 1);
    for (int j = 1; j < k; ++j) type += ",10";
    std::string list = refs;
    for (int j = 1; j < 10; ++j) list += "," + refs;
    text += "  - {name: c" + std::to_string(k) + ", op: constant, type: '" + type + "]', value: &a" + std::to_string(k) +
            " [" + list + "]}\n";
  }
  text += "  - {name: y, op: negate, args: [x]}\noutputs: [y]\n";
  const fs::path p = fs::temp_directory_path() / ("alias_bomb_" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(p) << text;
  const CliResult r = run_cli("stats '" + p.string() + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("aliases expand to more nodes"), std::string::npos) << r.err;
  fs::remove(p);
}

}  // namespace
}  // namespace hlsgym::testing
