// `optimize -o OUT --check` writes OUT only when the check passed; when the check failed
// OUT is not written (before, it was, and a later step took it for a checked module), and
// when the check could not run OUT is written but the run says so and exits 1.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
namespace fs = std::filesystem;

fs::path work_dir() {
  const fs::path d = fs::temp_directory_path() / ("hlsgym_optimize_output_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

fs::path write(const std::string& name, const std::string& text) {
  const fs::path p = work_dir() / name;
  std::ofstream(p) << text;
  return p;
}

// A float sum scaled and converted to an integer: reassociating the sum moves its last
// bits, which the integer output shows exactly, so tree_reduction_rewriter fails --check
// (the checker's tolerance is for float outputs only).
const char* kIntegerOfFloatSum = R"(HloModule int_of_sum

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT r = f32[] add(a, b)
}

ENTRY e {
  x = f32[4096] parameter(0)
  z = f32[] constant(0)
  s = f32[] reduce(x, z), dimensions={0}, to_apply=add
  k = f32[] constant(1e+09)
  big = f32[] multiply(s, k)
  ROOT i = s64[] convert(big)
}
)";

TEST(OptimizeOutput, NotWrittenWhenTheCheckFails) {
  const fs::path in = write("int_of_sum.hlo", kIntegerOfFloatSum);
  const fs::path out = work_dir() / "failed.hlo";
  fs::remove(out);
  const CliResult r = run_cli("optimize " + in.string() + " --order tree_reduction_rewriter --check -o " + out.string());
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("check FAILED"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(out.string() + " was not written"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  const CliResult j = run_cli("optimize " + in.string() + " --order tree_reduction_rewriter --check --json -o " + out.string());
  EXPECT_EQ(j.exit_code, 1);
  EXPECT_EQ(nlohmann::json::parse(j.out)["output_written"], false);
  EXPECT_FALSE(fs::exists(out));
}

TEST(OptimizeOutput, WrittenWhenTheCheckPassesOrIsNotAsked) {
  const std::string fir8 = (source_dir() / "designs" / "fir8.yaml").string();
  const fs::path out = work_dir() / "fir8.hlo";
  fs::remove(out);
  const CliResult r = run_cli("optimize " + fir8 + " --check -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(out));
  fs::remove(out);
  const fs::path in = write("int_of_sum2.hlo", kIntegerOfFloatSum);
  const CliResult unchecked = run_cli("optimize " + in.string() + " --order tree_reduction_rewriter -o " + out.string());
  ASSERT_EQ(unchecked.exit_code, 0) << unchecked.err;
  EXPECT_TRUE(fs::exists(out));
}

TEST(OptimizeOutput, WrittenButFailingWhenTheCheckIsSkipped) {
  // 400 MB of inputs: more than the checker materializes, so the check is skipped.
  const fs::path in = write("big.hlo", "HloModule big\n\nENTRY e {\n  x = f32[100000000] parameter(0)\n"
                                       "  y = f32[100000000] negate(x)\n  ROOT z = f32[100000000] negate(y)\n}\n");
  const fs::path out = work_dir() / "big.opt.hlo";
  fs::remove(out);
  const CliResult r = run_cli("optimize " + in.string() + " --order algsimp --check -o " + out.string());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("--check was skipped"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(out.string() + " is written but unchecked"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(out));
  const CliResult no_output = run_cli("optimize " + in.string() + " --order algsimp --check");
  EXPECT_EQ(no_output.exit_code, 0) << no_output.err;  // nothing unchecked was written
}

}  // namespace
}  // namespace hlsgym::testing
