// End-to-end tests of `hlsgym passes` and `hlsgym optimize`: the JSON contracts, the
// order forms (default, list, file), --check, -o, and the errors a user meets.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
using nlohmann::json;
namespace fs = std::filesystem;

std::string design(const std::string& name) { return (source_dir() / "designs" / name).string(); }

fs::path temp_file(const std::string& name) { return hlsgym::testing::scratch("hlsgym_cli_" + name); }

TEST(CliPasses, JsonListsEveryPassAndTheDefaultOrder) {
  CliResult r = run_cli("passes --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  std::set<std::string> names;
  for (const auto& p : j["passes"]) {
    EXPECT_FALSE(p["description"].get<std::string>().empty()) << p["name"];
    EXPECT_EQ(p["action"].get<size_t>(), names.size());  // action indices are 0..n-1 in order
    names.insert(p["name"].get<std::string>());
  }
  EXPECT_GE(names.size(), 53u);
  for (const char* n : {"algsimp", "cse", "dce", "tuple-simplifier", "call-inliner", "constant_folding"})
    EXPECT_TRUE(names.count(n)) << n;
  ASSERT_FALSE(j["default_order"].empty());
  for (const auto& n : j["default_order"]) EXPECT_TRUE(names.count(n.get<std::string>())) << n;
  // Text form: one line per pass.
  CliResult text = run_cli("passes");
  ASSERT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("tuple-simplifier"), std::string::npos);
}

TEST(CliOptimize, DefaultOrderWithCheckOnADesign) {
  CliResult r = run_cli("optimize " + design("stencil_3pt.yaml") + " --order default --check --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["check"], "passed");
  EXPECT_GT(j["check_compared"].get<int>(), 0);
  // XLA's algsimp turns the splat constant {2, 2, ...} into broadcast(2): one instruction
  // more, fewer constant bytes (op count and XLA's own order genuinely disagree here).
  EXPECT_EQ(j["before"]["opcodes"].value("broadcast", 0), 0);
  EXPECT_EQ(j["after"]["opcodes"]["broadcast"], 1);
  EXPECT_EQ(j["after"]["instructions"].get<int>(), j["before"]["instructions"].get<int>() + 1);
  CliResult list = run_cli("passes --json");
  EXPECT_EQ(j["order"], json::parse(list.out)["default_order"]);
  for (const char* k : {"flops", "transcendentals", "bytes_accessed", "opcodes"}) {
    EXPECT_TRUE(j["before"].contains(k)) << k;
    EXPECT_TRUE(j["after"].contains(k)) << k;
  }
  EXPECT_GE(j["seconds"].get<double>(), 0.0);
}

TEST(CliOptimize, WritesTheOptimizedModuleThatStatsReadsBack) {
  const fs::path out = temp_file("opt.hlo");
  CliResult r = run_cli("optimize " + design("layernorm.yaml") + " --order algsimp,cse,dce -o " + out.string() +
                        " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["order"], json::array({"algsimp", "cse", "dce"}));
  CliResult s = run_cli("stats --json " + out.string());
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_EQ(json::parse(s.out)["instructions"], j["after"]["instructions"]);
  fs::remove(out);
}

TEST(CliOptimize, ReadsAnOrderFileWithComments) {
  const fs::path order = temp_file("order.txt");
  std::ofstream(order) << "# simplify, then clean up\nalgsimp, cse\n\ndce  # last\n";
  CliResult r = run_cli("optimize " + design("fir8.yaml") + " --order " + order.string() + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["order"], json::array({"algsimp", "cse", "dce"}));
  std::ofstream(order) << "algsimp\ncsee\n";
  CliResult bad = run_cli("optimize " + design("fir8.yaml") + " --order " + order.string());
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find(order.string() + ":2"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("did you mean 'cse'?"), std::string::npos) << bad.err;
  fs::remove(order);
}

TEST(CliOptimize, UnknownPassAndMissingDesignAreClearErrors) {
  CliResult r = run_cli("optimize " + design("fir8.yaml") + " --order algsimp,tupel-simplifier");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("did you mean 'tuple-simplifier'?"), std::string::npos) << r.err;
  CliResult missing = run_cli("optimize /nonexistent/design.yaml");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("/nonexistent/design.yaml"), std::string::npos) << missing.err;
  CliResult help = run_cli("optimize --help");
  EXPECT_EQ(help.exit_code, 0);
  for (const char* flag : {"--order", "--check", "--json", "-o"}) EXPECT_NE(help.out.find(flag), std::string::npos) << flag;
}

TEST(CliOptimize, ChecksARealHloFile) {
  // The smallest real module with a while loop and tuples: the default order rewrites it.
  fs::path smallest;
  uintmax_t size = UINTMAX_MAX;
  for (const auto& f : all_hlo_files()) {
    std::ifstream in(f);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.find(" while(") != std::string::npos && fs::file_size(f) < size) size = fs::file_size(f), smallest = f;
  }
  ASSERT_FALSE(smallest.empty());
  CliResult r = run_cli("optimize " + smallest.string() + " --check --json");
  ASSERT_EQ(r.exit_code, 0) << smallest << ": " << r.err;
  EXPECT_EQ(json::parse(r.out)["check"], "passed") << smallest;
}

}  // namespace
}  // namespace hlsgym::testing
