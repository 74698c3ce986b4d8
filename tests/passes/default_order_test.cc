// The default order (XLA's CPU pipeline, restricted to hlsgym's passes): its shape follows
// XLA's, it keeps every real file verifiable, it preserves the outputs of every real file
// small enough to interpret, and it reduces the instruction count of the real files.
#include <gtest/gtest.h>

#include <algorithm>

#include "frontend/hlo_parser.h"
#include "frontend/source_text.h"
#include "ir/error.h"
#include "ir/verifier.h"
#include "passes/default_order.h"
#include "passes/equivalence.h"
#include "passes/order.h"
#include "passes/registry.h"
#include "tests/support/test_data.h"

namespace hlsgym::passes {
namespace {

TEST(DefaultOrder, FollowsXlasCpuPipeline) {
  const auto& stages = xla_cpu_default_stages();
  ASSERT_GE(stages.size(), 5u);
  EXPECT_EQ(stages.front().name, "sharding-removal");
  const auto simp = std::find_if(stages.begin(), stages.end(), [](const OrderStage& s) { return s.name == "simplification"; });
  ASSERT_NE(simp, stages.end());
  EXPECT_TRUE(simp->fixed_point);
  EXPECT_EQ(simp->passes.size(), 14u);  // XLA 2023: 35a..35n
  EXPECT_EQ(simp->passes.front(), "algsimp");
  const auto names = default_order_names();
  for (const auto& n : names) EXPECT_NE(Registry::global().find(n), nullptr) << n;
  EXPECT_NE(std::find(names.begin(), names.end(), "algsimp"), names.end());
  EXPECT_EQ(std::find(names.begin(), names.end(), "fusion"), names.end());  // target-dependent
  const auto missing = default_order_missing();
  EXPECT_NE(std::find(missing.begin(), missing.end(), "layout-assignment"), missing.end());
}

TEST(Order, ParsesListsFilesAndRejectsUnknownNames) {
  Order o = parse_order("cse,dce");
  EXPECT_EQ(o.names, (std::vector<std::string>{"cse", "dce"}));
  EXPECT_EQ(parse_order("default").names, default_order_names());
  try {
    parse_order("cse,dcee");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'dce'?"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_order(""), Error);
}

TEST(DefaultOrder, EveryRealFileVerifiesAndShrinks) {
  int64_t before_total = 0, after_total = 0;
  int shrunk = 0;
  for (const auto& f : testing::all_hlo_files()) {
    ir::Module m = frontend::parse_hlo(frontend::read_file(f.string()), f.string());
    const int64_t before = static_cast<int64_t>(m.instruction_count());
    make_default_order()->run(m);
    auto issues = ir::verify_all(m);
    ASSERT_TRUE(issues.empty()) << f << ": " << issues.front().message;
    const int64_t after = static_cast<int64_t>(m.instruction_count());
    before_total += before;
    after_total += after;
    shrunk += after < before;
    std::printf("%-80s %7lld -> %7lld\n", f.filename().string().c_str(), static_cast<long long>(before),
                static_cast<long long>(after));
  }
  std::printf("total %lld -> %lld instructions; %d files shrink\n", static_cast<long long>(before_total),
              static_cast<long long>(after_total), shrunk);
  EXPECT_LT(after_total, before_total);
  EXPECT_GE(shrunk, 50);
}

TEST(DefaultOrder, PreservesOutputsOfRealFilesSmallEnoughToInterpret) {
  int passed = 0;
  for (const auto& f : testing::all_hlo_files()) {
    const ir::Module original = frontend::parse_hlo(frontend::read_file(f.string()), f.string());
    if (evaluation_work(original) > 2e6) continue;
    ir::Module m = original;
    PassPtr order = make_default_order();
    order->run(m);
    EquivalenceOptions o;
    o.float_tolerance = order->reassociates_floats();
    const EquivalenceResult r = check_equivalence(original, m, o);
    EXPECT_NE(r.status, CheckStatus::kFailed) << f << ": " << r.detail;
    passed += r.status == CheckStatus::kPassed;
  }
  EXPECT_GE(passed, 40);
}

}  // namespace
}  // namespace hlsgym::passes
