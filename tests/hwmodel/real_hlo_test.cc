// Every real XLA HLO file (shared/data/hlo/{train,test}) estimates in lenient mode on
// both targets, with a schedule the verifier accepts; strict mode names the first op
// without a cost model.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "hwmodel/estimate.h"
#include "hwmodel/schedule_verifier.h"
#include "ir/error.h"
#include "tests/hwmodel/hwmodel_test_util.h"

namespace hlsgym::testing {
namespace {
using namespace hwmodel;

TEST(RealHlo, EveryFileEstimatesInLenientMode) {
  const auto files = all_hlo_files();
  ASSERT_GE(files.size(), 100u);
  double slowest_ms = 0;
  std::string slowest;
  int strict_ok = 0;
  for (const auto& f : files) {
    const ir::Module m = frontend::load_design(f.string()).module;
    for (const Target* t : {&fpga_target(), &cpu_target()}) {
      EstimateOptions o;
      o.lenient = true;
      o.keep_details = true;
      const auto t0 = std::chrono::steady_clock::now();
      const Estimate e = estimate(m, *t, o);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (ms > slowest_ms) slowest_ms = ms, slowest = f.filename().string() + " on " + t->name;
      EXPECT_GT(e.cycles, 0) << f;
      EXPECT_TRUE(std::isfinite(e.energy_pj) && e.energy_pj > 0) << f;
      EXPECT_GT(e.memory_bytes, 0) << f;
      EXPECT_LE(e.ii, e.cycles) << f;
      const auto issues = verify_schedule(e.details->problem, e.details->schedule);
      EXPECT_TRUE(issues.empty()) << f << " on " << t->name << ": " << issues.front();
    }
    try {
      estimate(m, fpga_target());
      ++strict_ok;
    } catch (const Error& e) {
      const std::string msg = e.what();
      const bool known = msg.find("has no cost model") != std::string::npos ||
                         msg.find("trip count not statically known") != std::string::npos ||
                         msg.find("does not fit target") != std::string::npos;
      EXPECT_TRUE(known) << f << ": " << msg;
      EXPECT_EQ(msg.rfind(f.string(), 0), 0u) << "the message starts with the file: " << msg;
    }
  }
  // Timing is for information (benchmarks measure it properly): bench/hwmodel_bench.cc.
  RecordProperty("slowest_estimate_ms", std::to_string(slowest_ms) + " (" + slowest + ")");
  RecordProperty("strict_mode_ok_files", strict_ok);
}

}  // namespace
}  // namespace hlsgym::testing
