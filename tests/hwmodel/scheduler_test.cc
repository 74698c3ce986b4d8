// Every scheduler gives a schedule the verifier accepts, on every design, on random IR
// modules and on random task graphs; list >= exact >= the lower bounds; more units
// never give more cycles.
#include <gtest/gtest.h>

#include "hwmodel/estimate.h"
#include "hwmodel/lowering.h"
#include "hwmodel/random_graph.h"
#include "hwmodel/schedule_verifier.h"
#include "hwmodel/schedulers/schedulers.h"
#include "ir/random_module.h"
#include "tests/hwmodel/hwmodel_test_util.h"

namespace hlsgym::testing {
namespace {
using namespace hwmodel;

constexpr SchedulerKind kAll[] = {SchedulerKind::kAsap, SchedulerKind::kAlap, SchedulerKind::kList,
                                  SchedulerKind::kExact};

EstimateOptions all_limits(int n) {
  EstimateOptions o;
  for (int c = 0; c < kUnitClassCount; ++c) o.unit_limits[std::string(unit_class_name(static_cast<UnitClass>(c)))] = n;
  return o;
}

// Verifies every scheduler on one problem; returns the schedules by kind.
std::vector<Schedule> check_all(const ScheduleProblem& p, const std::string& what) {
  std::vector<Schedule> out;
  for (SchedulerKind k : kAll) {
    Schedule s = run_scheduler(k, p, 200'000);
    VerifyOptions vo;
    vo.check_resources = respects_resources(k);
    const auto issues = verify_schedule(p, s, vo);
    EXPECT_TRUE(issues.empty()) << what << " " << scheduler_name(k) << ": " << issues.front();
    EXPECT_GE(s.length, critical_path_bound(p)) << what << " " << scheduler_name(k);
    out.push_back(std::move(s));
  }
  EXPECT_EQ(out[0].length, out[1].length) << what << ": alap keeps the asap length";
  EXPECT_EQ(out[0].length, critical_path_bound(p)) << what;
  return out;
}

TEST(Schedulers, EveryDesignOnBothTargets) {
  for (const auto& path : all_designs()) {
    const ir::Module m = frontend::load_design(path.string()).module;
    for (const Target* t : {&fpga_target(), &cpu_target()}) {
      for (int units : {1, 2, 8}) {
        const EstimateOptions o = t->is_fpga() ? all_limits(units) : EstimateOptions{};
        const TaskGraph g = lower_entry(m, *t, o);
        const ScheduleProblem p = make_target_problem(g, *t, o);
        const auto s = check_all(p, path.stem().string() + " on " + t->name);
        EXPECT_GE(s[2].length, s[3].length) << path << ": list >= exact";
        EXPECT_GE(s[3].length, std::max(critical_path_bound(p), resource_bound(p))) << path;
      }
    }
  }
}

TEST(Schedulers, RandomModules) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    ir::RandomModuleOptions ro;
    ro.seed = seed;
    ro.instructions = 30;
    const ir::Module m = ir::random_module(ro);
    for (const Target* t : {&fpga_target(), &cpu_target()}) {
      EstimateOptions o = t->is_fpga() ? all_limits(1 + static_cast<int>(seed % 3)) : EstimateOptions{};
      o.lenient = true;  // random modules may hold loops whose bound is not a constant
      const TaskGraph g = lower_entry(m, *t, o);
      check_all(make_target_problem(g, *t, o), "random module " + std::to_string(seed) + " on " + t->name);
    }
  }
}

TEST(Schedulers, RandomTaskGraphs) {
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    RandomGraphOptions ro;
    ro.seed = seed;
    ro.tasks = 50 + 20 * seed;
    ro.window = 2 + static_cast<int>(seed % 20);
    const TaskGraph g = random_task_graph(fpga_target(), ro);
    const ScheduleProblem p = make_target_problem(g, fpga_target(), all_limits(1 + static_cast<int>(seed % 4)));
    check_all(p, "random graph " + std::to_string(seed));
  }
}

// list >= exact >= max(critical path, resource bound), exact proven optimal, on small
// graphs with tight limits (where scheduling decisions matter).
TEST(Schedulers, ExactBetweenBoundsAndList) {
  int proven = 0, strictly_better = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    RandomGraphOptions ro;
    ro.seed = seed;
    ro.tasks = 10 + seed % 14;
    ro.window = 3 + static_cast<int>(seed % 6);
    ro.max_items = 6;
    ro.classes = 1 + static_cast<int>(seed % 3);
    const TaskGraph g = random_task_graph(fpga_target(), ro);
    const ScheduleProblem p = make_target_problem(g, fpga_target(), all_limits(1 + static_cast<int>(seed % 2)));
    const Schedule list = schedule_list(p);
    const Schedule exact = schedule_exact(p);
    EXPECT_TRUE(verify_schedule(p, exact).empty()) << seed;
    EXPECT_GE(list.length, exact.length) << seed;
    EXPECT_GE(exact.length, critical_path_bound(p)) << seed;
    EXPECT_GE(exact.length, resource_bound(p)) << seed;
    proven += exact.optimal;
    strictly_better += exact.length < list.length;
  }
  EXPECT_EQ(proven, 60) << "every small graph should be solved within the node limit";
  RecordProperty("exact_strictly_better_than_list", strictly_better);
}

// Optimal lengths cannot grow with more instances (every schedule for c units is one
// for c + 1); the list scheduler is checked on the designs, where it holds too.
TEST(Schedulers, MoreUnitsNeverMoreCycles) {
  for (uint64_t seed = 1; seed <= 25; ++seed) {
    RandomGraphOptions ro;
    ro.seed = 100 + seed;
    ro.tasks = 12 + seed % 8;
    ro.window = 4;
    ro.max_items = 5;
    const TaskGraph g = random_task_graph(fpga_target(), ro);
    int64_t previous = INT64_MAX;
    for (int units = 1; units <= 4; ++units) {
      const Schedule s = schedule_exact(make_target_problem(g, fpga_target(), all_limits(units)));
      ASSERT_TRUE(s.optimal) << seed;
      EXPECT_LE(s.length, previous) << "seed " << seed << " units " << units;
      previous = s.length;
    }
  }
  for (const auto& path : all_designs()) {
    const ir::Module m = frontend::load_design(path.string()).module;
    int64_t previous = INT64_MAX;
    for (int units = 1; units <= 8; ++units) {
      EstimateOptions o = all_limits(units);
      o.lenient = true;
      const int64_t cycles = estimate(m, fpga_target(), o).cycles;
      EXPECT_LE(cycles, previous) << path << " units " << units;
      previous = cycles;
    }
  }
}

TEST(Schedulers, ExactSaysWhenItHitsTheNodeLimit) {
  RandomGraphOptions ro;
  ro.tasks = 24;
  ro.window = 12;
  ro.free_percent = 0;
  const ScheduleProblem p = make_target_problem(random_task_graph(fpga_target(), ro), fpga_target(), all_limits(1));
  const Schedule s = schedule_exact(p, 5);
  EXPECT_TRUE(s.hit_limit);
  EXPECT_FALSE(s.optimal);
  EXPECT_TRUE(verify_schedule(p, s).empty());
  EXPECT_LE(s.length, schedule_list(p).length);
}

TEST(Schedulers, VerifierCatchesViolations) {
  ScheduleProblem p;
  p.limits = {1};
  p.resource_names = {"fp_add"};
  const uint32_t dep0[] = {0};
  p.add_task(4, 2, 0, {});
  p.add_task(4, 2, 0, dep0);
  p.add_task(4, 2, 0, {});
  Schedule s;
  s.start = {0, 3, 1};  // task 1 starts before task 0 ends; task 2 overlaps task 0's busy time
  s.length = 7;
  const auto issues = verify_schedule(p, s);
  ASSERT_EQ(issues.size(), 2u);
  EXPECT_NE(issues[0].find("before its dependence 0 ends at 4"), std::string::npos) << issues[0];
  EXPECT_NE(issues[1].find("resource fp_add: 2 tasks hold it at cycle 1, limit 1"), std::string::npos) << issues[1];
}

}  // namespace
}  // namespace hlsgym::testing

namespace hlsgym::testing {
namespace {
using namespace hwmodel;

// The shortest feasible length by trying every start time (dependences first, starts
// up to the list length): a check of the exact scheduler's search space and pruning
// that does not rely on them.
int64_t brute_force_length(const ScheduleProblem& p) {
  int64_t best = schedule_list(p).length;
  std::vector<int64_t> start(p.size(), 0);
  auto feasible = [&](size_t t) {
    if (!p.limited(t)) return true;
    for (int64_t c = start[t]; c < start[t] + p.busy[t]; ++c) {
      int used = 0;
      for (size_t u = 0; u <= t; ++u)
        used += p.limited(u) && p.resource[u] == p.resource[t] && start[u] <= c && c < start[u] + p.busy[u];
      if (used > p.limits[p.resource[t]]) return false;
    }
    return true;
  };
  auto go = [&](auto&& self, size_t t, int64_t len) -> void {
    if (len >= best) return;
    if (t == p.size()) {
      best = len;
      return;
    }
    int64_t est = 0;
    for (uint32_t d : p.deps_of(t)) est = std::max(est, start[d] + p.latency[d]);
    for (int64_t s = est; s + p.latency[t] < best; ++s) {
      start[t] = s;
      if (feasible(t)) self(self, t + 1, std::max(len, s + p.latency[t]));
    }
  };
  go(go, 0, 0);
  return best;
}

TEST(Schedulers, ExactMatchesBruteForceOnTinyGraphs) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    RandomGraphOptions ro;
    ro.seed = 500 + seed;
    ro.tasks = 8 + seed % 3;  // the first 3 are inputs
    ro.window = 2 + static_cast<int>(seed % 3);
    ro.max_items = 3;
    ro.classes = 1 + static_cast<int>(seed % 2);
    ro.free_percent = 0;
    const TaskGraph g = random_task_graph(fpga_target(), ro);
    const ScheduleProblem p = make_target_problem(g, fpga_target(), all_limits(1));
    const Schedule s = schedule_exact(p);
    ASSERT_TRUE(s.optimal);
    EXPECT_EQ(s.length, brute_force_length(p)) << "seed " << seed;
  }
}

}  // namespace
}  // namespace hlsgym::testing
