// Issue 21 (fuzzing): `run --json` on a real LLM graph (700 MB of inputs, a 65M-element
// placeholder, dots of hundreds of millions of products, and every input printed as JSON)
// ran for minutes and took 11 GB. `run` has a work budget (--max-steps) that counts the
// interpretation's work, the inputs it generates and the values it prints, checked
// before the work is done: past it, one `error:` line and exit 1, at once.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/support/run_cli.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {
namespace {
namespace fs = std::filesystem;

fs::path write(const std::string& name, const std::string& text) {
  const fs::path d = fs::temp_directory_path() / ("hlsgym_run_budget_" + std::to_string(::getpid()));
  fs::create_directories(d);
  const fs::path p = d / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

void expect_one_error_line(const CliResult& r, const std::string& says) {
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
}

// The CPU seconds (user + system) of every child process waited for so far: `run_cli`'s
// shell and the hlsgym it starts.
double children_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_CHILDREN, &u);
  auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return seconds(u.ru_utime) + seconds(u.ru_stime);
}

// Runs `args`, returning the result and the CPU seconds it took. CPU time, not wall time:
// "refused at once" means no work was done, and on a loaded machine the wall clock says
// more about the other processes than about this one (the check failed at load 20).
std::pair<CliResult, double> timed(const std::string& args) {
  const double before = children_cpu_seconds();
  CliResult r = run_cli(args);
  return {r, children_cpu_seconds() - before};
}

TEST(RunBudget, TheFuzzedLlamaGraphIsRefusedAtOnce) {
  const fs::path f = hlo_data_dir() / "train" / "llama_1layer_neuron_tp2_decode.before_opt.hlo";
  ASSERT_TRUE(fs::exists(f)) << f;
  const auto [json, js] = timed("run '" + f.string() + "' --seed 22 --json");
  expect_one_error_line(json, "over the budget of 3e+08 (--max-steps)");
  EXPECT_LT(js, 10.0);
  const auto [table, ts] = timed("run '" + f.string() + "' --seed 22");
  expect_one_error_line(table, "--max-steps");
  EXPECT_LT(ts, 10.0);
}

TEST(RunBudget, ABigDotIsRefusedBeforeItRuns) {
  // 512 x 512 outputs of 16384-term sums: 4.3e9 products (tens of seconds); inputs 16.8M.
  const fs::path p = write("dot.hlo",
                           "HloModule m\n\nENTRY e {\n  a = f32[512,16384] parameter(0)\n  b = f32[16384,512] parameter(1)\n"
                           "  ROOT d = f32[512,512] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n");
  const auto [r, s] = timed("run '" + p.string() + "'");
  expect_one_error_line(r, "dot.hlo:6:3: the interpretation exceeded its budget of 3e+08 steps");
  EXPECT_NE(r.err.find("--sample K"), std::string::npos) << r.err;
  EXPECT_LT(s, 10.0);
  // Sampled elements of the same dot are cheap.
  const CliResult sampled = run_cli("run '" + p.string() + "' --sample 4");
  EXPECT_EQ(sampled.exit_code, 0) << sampled.err;
}

TEST(RunBudget, PrintingEveryElementAsJsonCounts) {
  // 100K inputs and 100K outputs: 16 printed per array in the table, all 200K as JSON.
  const fs::path p = write("neg.hlo", "HloModule m\n\nENTRY e {\n  a = f32[100000] parameter(0)\n"
                                      "  ROOT n = f32[100000] negate(a)\n}\n");
  const CliResult table = run_cli("run '" + p.string() + "' --max-steps 1e6");
  EXPECT_EQ(table.exit_code, 0) << table.err;
  expect_one_error_line(run_cli("run '" + p.string() + "' --json --max-steps 1e6"),
                        "generating the inputs and printing 2e+05 values take 3.1e+06 steps, over the budget of 1e+06");
  const CliResult raised = run_cli("run '" + p.string() + "' --json --max-steps 4e6");
  EXPECT_EQ(raised.exit_code, 0) << raised.err;
}

TEST(RunBudget, TheBudgetIsAnOption) {
  const std::string fir8 = (source_dir() / "designs" / "fir8.yaml").string();
  expect_one_error_line(run_cli("run " + fir8 + " --max-steps 10"), "over the budget of 10 (--max-steps)");
  EXPECT_EQ(run_cli("run " + fir8).exit_code, 0);
}

}  // namespace
}  // namespace hlsgym::testing
