// The modulo scheduler: hand-made loop bodies whose bounds, II and reason are known, and
// random bodies on which every schedule passes the verifier, the II is at least both
// bounds, RecMII equals a brute-force maximum cycle ratio, and the verifier rejects
// schedules broken on purpose (so that the verifier is tested too).
#include <gtest/gtest.h>

#include <fmt/core.h>

#include "hwmodel/modulo_bounds.h"
#include "hwmodel/modulo_problem.h"
#include "hwmodel/modulo_verifier.h"
#include "hwmodel/random_graph.h"
#include "hwmodel/schedulers/modulo.h"
#include "ir/error.h"

namespace hlsgym::testing {
namespace {
using namespace hwmodel;

// acc += a[i] * b[i]: two loads, a multiply of latency 2 and an add of latency 3 that
// the next iteration's add reads.
ModuloProblem multiply_accumulate() {
  ModuloProblem p;
  const uint16_t mem = p.add_resource("mem", 2), mul = p.add_resource("mul", 1), add = p.add_resource("add", 1);
  const uint32_t a = p.add_op("load_a", 1, mem), b = p.add_op("load_b", 1, mem);
  const uint32_t m = p.add_op("mul", 2, mul), acc = p.add_op("acc", 3, add);
  p.add_dep(a, m);
  p.add_dep(b, m);
  p.add_dep(m, acc);
  p.add_dep(acc, acc, 1);
  return p;
}

// Four independent multiplies of latency 3 on `instances` multipliers, summed by adders.
ModuloProblem four_multiplies(int instances) {
  ModuloProblem p;
  const uint16_t mul = p.add_resource("mul", instances);
  uint32_t products[4];
  for (int k = 0; k < 4; ++k) products[k] = p.add_op("m" + std::to_string(k), 3, mul);
  const uint32_t s01 = p.add_op("s01", 1), s23 = p.add_op("s23", 1), sum = p.add_op("sum", 1);
  p.add_dep(products[0], s01), p.add_dep(products[1], s01), p.add_dep(products[2], s23), p.add_dep(products[3], s23);
  p.add_dep(s01, sum), p.add_dep(s23, sum);
  return p;
}

ModuloSchedule checked(const ModuloProblem& p, const ModuloOptions& o = {}) {
  ModuloSchedule s = schedule_modulo(p, o);
  EXPECT_TRUE(s.found) << s.reason;
  EXPECT_EQ(verify_modulo_schedule(p, s), "");
  return s;
}

TEST(ModuloScheduler, MultiplyAccumulateIsBoundByItsRecurrence) {
  const ModuloProblem p = multiply_accumulate();
  const ModuloSchedule s = checked(p);
  EXPECT_EQ(s.res.ii, 1);
  EXPECT_EQ(s.rec.ii, 3);
  EXPECT_EQ(s.ii, 3);
  EXPECT_EQ(s.limit, IiLimit::kRecurrence);
  EXPECT_EQ(ii_limit_name(s.limit), "recurrence");
  EXPECT_EQ(s.reason, "recurrence acc -> acc: delay 3 over distance 1 -> RecMII 3");
  EXPECT_EQ(s.start, (std::vector<int64_t>{0, 0, 1, 3}));
  EXPECT_EQ(s.length, 6);
  EXPECT_EQ(s.stages, 2);
}

TEST(ModuloScheduler, FourMultipliesOnOneMultiplierTakeFourCycles) {
  const ModuloProblem p = four_multiplies(1);
  const ModuloSchedule s = checked(p);
  EXPECT_EQ(s.res.ii, 4);
  EXPECT_EQ(s.rec.ii, 0);
  EXPECT_EQ(s.ii, 4);
  EXPECT_EQ(s.limit, IiLimit::kResources);
  EXPECT_EQ(s.reason, "resource mul: 4 uses of 1 cycle on 1 instance -> ResMII 4");
  std::vector<int64_t> slots;
  for (int k = 0; k < 4; ++k) slots.push_back(s.start[k] % 4);
  std::sort(slots.begin(), slots.end());
  EXPECT_EQ(slots, (std::vector<int64_t>{0, 1, 2, 3})) << "one multiply per slot";

  const ModuloSchedule two = checked(four_multiplies(2));
  EXPECT_EQ(two.ii, 2);
  EXPECT_EQ(two.reason, "resource mul: 4 uses of 1 cycle on 2 instances -> ResMII 2");
  const ModuloSchedule four = checked(four_multiplies(4));
  EXPECT_EQ(four.ii, 1);
  EXPECT_EQ(four.limit, IiLimit::kNothing);
  EXPECT_EQ(four.reason, "");
}

// x -> y -> z within an iteration, z -> x two iterations later (delay 9 over distance 2:
// RecMII 5), and three ops on one adder (ResMII 3).
ModuloProblem recurrence_over_two_iterations() {
  ModuloProblem p;
  const uint16_t add = p.add_resource("add", 1);
  const uint32_t x = p.add_op("x", 2, add), y = p.add_op("y", 3, add), z = p.add_op("z", 4, add);
  p.add_dep(x, y);
  p.add_dep(y, z);
  p.add_dep(z, x, 2);
  return p;
}

TEST(ModuloScheduler, RecurrenceAboveResourcesSetsIi) {
  const ModuloProblem p = recurrence_over_two_iterations();
  const ModuloSchedule s = checked(p);
  EXPECT_EQ(s.res.ii, 3);
  EXPECT_EQ(s.rec.ii, 5);
  EXPECT_EQ(s.rec.delay, 9);
  EXPECT_EQ(s.rec.distance, 2);
  EXPECT_EQ(s.ii, 5);
  EXPECT_EQ(s.limit, IiLimit::kRecurrence);
  EXPECT_EQ(s.reason, "recurrence x -> y -> z -> x: delay 9 over distance 2 -> RecMII 5");
}

TEST(ModuloScheduler, EqualBoundsAreBothNamed) {
  ModuloProblem p = multiply_accumulate();
  const uint16_t add = p.resource[3];
  for (int k = 0; k < 2; ++k) p.add_op("extra" + std::to_string(k), 1, add);  // 3 uses of 1 adder
  const ModuloSchedule s = checked(p);
  EXPECT_EQ(s.ii, 3);
  EXPECT_EQ(s.limit, IiLimit::kResourcesAndRecurrence);
  EXPECT_EQ(s.reason,
            "resource add: 3 uses of 1 cycle on 1 instance -> ResMII 3; "
            "recurrence acc -> acc: delay 3 over distance 1 -> RecMII 3");
}

TEST(ModuloScheduler, UnmetTargetSaysWhatWasReachedAndWhy) {
  ModuloOptions o;
  o.target_ii = 2;
  const ModuloSchedule s = checked(four_multiplies(1), o);
  EXPECT_EQ(s.ii, 4);
  EXPECT_EQ(s.reason, "target II 2 not met, II 4 reached: resource mul: 4 uses of 1 cycle on 1 instance -> ResMII 4");

  o.target_ii = 1;
  const ModuloSchedule mac = checked(multiply_accumulate(), o);
  EXPECT_EQ(mac.ii, 3);
  EXPECT_EQ(mac.reason,
            "target II 1 not met, II 3 reached: recurrence acc -> acc: delay 3 over distance 1 -> RecMII 3");
}

TEST(ModuloScheduler, TargetAboveTheBoundsIsKept) {
  ModuloOptions o;
  o.target_ii = 5;
  const ModuloSchedule s = checked(multiply_accumulate(), o);
  EXPECT_EQ(s.ii, 5);
  EXPECT_EQ(s.limit, IiLimit::kRequested);
  EXPECT_EQ(s.reason,
            "II 5 as requested; the bounds allow 3 (recurrence acc -> acc: delay 3 over distance 1 -> RecMII 3)");
  o.target_ii = 3;
  EXPECT_EQ(checked(multiply_accumulate(), o).limit, IiLimit::kRecurrence) << "met exactly: the bound is the reason";
}

TEST(ModuloScheduler, SearchThatFindsNothingSaysSo) {
  ModuloOptions o;
  o.max_ii = 3;  // below ResMII 4: nothing to try
  const ModuloSchedule s = schedule_modulo(four_multiplies(1), o);
  EXPECT_FALSE(s.found);
  EXPECT_EQ(s.limit, IiLimit::kSearch);
  EXPECT_EQ(s.reason,
            "the largest II allowed (3) is below 4, the first to try; "
            "the bound: resource mul: 4 uses of 1 cycle on 1 instance -> ResMII 4");
  EXPECT_NE(verify_modulo_schedule(four_multiplies(1), s), "");
}

TEST(ModuloScheduler, IntraIterationCycleIsRejectedByName) {
  ModuloProblem p;
  const uint32_t in = p.add_op("in", 1), a = p.add_op("a", 1), b = p.add_op("b", 2), c = p.add_op("c", 1);
  p.add_dep(in, a);
  p.add_dep(a, b);
  p.add_dep(b, c);
  p.add_dep(c, a);  // distance 0: a waits for itself
  const std::string expected =
      "intra-iteration cycle a -> b -> c -> a: every dependence on it has distance 0, so an op would wait for "
      "itself within one iteration; a cycle must go through a loop-carried dependence (distance >= 1)";
  EXPECT_EQ(modulo_problem_error(p), expected);
  try {
    schedule_modulo(p);
    ADD_FAILURE() << "an intra-iteration cycle was scheduled";
  } catch (const Error& e) {
    EXPECT_EQ(e.message(), expected);
  }
  p.deps.back().distance = 1;  // the same cycle through a loop-carried dependence is fine
  EXPECT_EQ(modulo_problem_error(p), "");
  EXPECT_EQ(checked(p).rec.ii, 4);

  ModuloProblem self;
  self.add_dep(self.add_op("s", 1), 0);
  EXPECT_NE(modulo_problem_error(self).find("intra-iteration cycle s -> s:"), std::string::npos);
}

TEST(ModuloScheduler, MalformedProblemsAreNamed) {
  ModuloProblem p = multiply_accumulate();
  p.resource[2] = 7;
  EXPECT_EQ(modulo_problem_error(p), "op mul: resource 7 does not exist (3 resources)");
  p = multiply_accumulate();
  p.add_dep(0, 9);
  EXPECT_EQ(modulo_problem_error(p), "dependence 0 -> 9: no such op (4 ops)");
  p = multiply_accumulate();
  p.deps[3].distance = -1;
  EXPECT_EQ(modulo_problem_error(p), "dependence acc -> acc: delay 3 and distance -1 must not be negative");
  EXPECT_THROW(schedule_modulo(p), Error);
  p = multiply_accumulate();
  p.names.pop_back();
  EXPECT_EQ(modulo_problem_error(p), "modulo problem has 4 latencies but 3 names, 4 busy counts and 4 resources");
}

// An op busy longer than II would collide with itself on its instance, however many
// instances there are: the bound is its busy time, not the shared one.
TEST(ModuloScheduler, BusyLongerThanIiIsInfeasible) {
  ModuloProblem p;
  const uint16_t div = p.add_resource("fp_div", 2);
  const uint32_t d = p.add_op("div", 10, div, 8);
  p.add_dep(p.add_op("x", 1), d);
  p.add_op("other_div", 4, div, 2);
  const ModuloSchedule s = checked(p);
  EXPECT_EQ(s.res.ii, 8);
  EXPECT_EQ(s.ii, 8);
  EXPECT_EQ(s.reason, "op div holds its fp_div instance 8 cycles every iteration -> ResMII 8");
  ModuloSchedule shorter = s;
  shorter.ii = 5;  // ceil(10 busy cycles / 2 instances): the shared bound alone
  shorter.stages = stage_count(p, shorter.length, 5);
  EXPECT_EQ(verify_modulo_schedule(p, shorter), "op div is busy 8 cycles on fp_div, longer than II 5");
}

// Three 2-cycle uses on 2 instances fill every slot of II 3 twice (ResMII 3), but any
// two of them overlap, so no binding of one instance per op fits: the scheduler, whose
// table has a row per instance, needs II 4 and says the search raised it.
TEST(ModuloScheduler, SlotCountsAloneDoNotBind) {
  ModuloProblem p;
  const uint16_t mac = p.add_resource("mac", 2);
  for (int k = 0; k < 3; ++k) p.add_op("m" + std::to_string(k), 4, mac, 2);
  const ModuloSchedule s = checked(p);
  EXPECT_EQ(s.res.ii, 3);
  EXPECT_EQ(s.ii, 4);
  EXPECT_EQ(s.limit, IiLimit::kSearch);
  EXPECT_EQ(s.reason,
            "no modulo schedule found at II 3..3 within 18 placements each, II 4 reached; "
            "the bound: resource mac: 3 uses holding it 6 cycles on 2 instances -> ResMII 3");
  ModuloSchedule counted;  // slot counts only: accepted
  counted.found = true;
  counted.ii = 3;
  counted.start = {0, 1, 2};
  counted.length = 6;
  counted.stages = 2;
  EXPECT_EQ(verify_modulo_schedule(p, counted), "");
  counted.instance = {0, 1, 0};  // any binding puts two of them on one instance
  EXPECT_EQ(verify_modulo_schedule(p, counted), "resource mac instance 0: slot 0 of II 3 is held by m0 and m2");
}

TEST(ModuloScheduler, ChainedDependenceHasNoDelay) {
  ModuloProblem p;
  const uint32_t a = p.add_op("a", 2), sel = p.add_op("select", 0), b = p.add_op("b", 1);
  p.add_dep(a, sel);
  p.add_dep_with_delay(sel, b, 0);  // b reads the select's wires in the same cycle
  p.add_dep(b, a, 1);
  const ModuloSchedule s = checked(p);
  EXPECT_EQ(s.rec.ii, 3);
  EXPECT_EQ(s.rec.delay, 3);
  EXPECT_EQ(s.start[sel], s.start[b]);
  EXPECT_EQ(s.reason, "recurrence a -> select -> b -> a: delay 3 over distance 1 -> RecMII 3");
}

TEST(ModuloScheduler, EmptyBody) {
  const ModuloSchedule s = checked(ModuloProblem{});
  EXPECT_EQ(s.ii, 1);
  EXPECT_EQ(s.length, 0);
  EXPECT_EQ(s.stages, 0);
}

TEST(ModuloVerifier, NamesTheFirstViolation) {
  const ModuloProblem p = four_multiplies(1);
  ModuloSchedule s = checked(p);
  ModuloSchedule broken = s;
  broken.start[4] = s.start[0] + 2;  // s01 before m0's product (latency 3)
  EXPECT_EQ(verify_modulo_schedule(p, broken).rfind("dependence m0 -> s01 (delay 3, distance 0): s01 starts at", 0), 0u)
      << verify_modulo_schedule(p, broken);
  broken = s;
  broken.start[1] = broken.start[0] + 4;  // m1 in m0's slot, one iteration later
  broken.instance[1] = 0;
  broken.start[4] = broken.start[5] = 100;  // and the adds late enough for it
  broken.start[6] = 101;
  broken.length = iteration_length(p, broken.start);
  broken.stages = stage_count(p, broken.length, broken.ii);
  const int64_t slot = broken.start[0] % 4;
  EXPECT_EQ(verify_modulo_schedule(p, broken),
            fmt::format("resource mul: slot {} of II 4 is held 2 times (m0, m1), limit 1", slot));
  broken = s;
  broken.length += 1;
  EXPECT_EQ(verify_modulo_schedule(p, broken), fmt::format("schedule says length {}, one iteration ends at {}",
                                                           s.length + 1, s.length));
  broken = s;
  broken.stages += 1;
  EXPECT_NE(verify_modulo_schedule(p, broken).find("stages"), std::string::npos);
  broken = s;
  broken.start[2] = -1;
  EXPECT_EQ(verify_modulo_schedule(p, broken), "op m2 starts at -1 < 0");
  broken = s;
  broken.instance[3] = 1;
  EXPECT_EQ(verify_modulo_schedule(p, broken), "op m3 is on instance 1 of mul, which has 1");
}

TEST(ModuloVerifier, OneInstanceHeldTwiceInASlot) {
  const ModuloProblem p = four_multiplies(2);
  ModuloSchedule s = checked(p);
  // Two multiplies sharing a slot are on different instances; put both on one.
  for (uint32_t a = 0; a < 4; ++a)
    for (uint32_t b = a + 1; b < 4; ++b)
      if (s.start[a] % s.ii == s.start[b] % s.ii) {
        ModuloSchedule broken = s;
        broken.instance[b] = broken.instance[a];
        EXPECT_EQ(verify_modulo_schedule(p, broken),
                  fmt::format("resource mul instance {}: slot {} of II 2 is held by {} and {}", s.instance[a],
                              s.start[a] % 2, p.names[a], p.names[b]));
        return;
      }
  FAIL() << "four multiplies at II 2 on two instances share a slot";
}

// Random bodies from small and serial to wide and contended.
RandomLoopBodyOptions random_options(uint64_t seed) {
  RandomLoopBodyOptions o;
  o.seed = seed;
  o.ops = 3 + seed % 70;
  o.window = 2 + static_cast<int>(seed % 9);
  o.resources = 1 + static_cast<int>(seed % 4);
  o.max_limit = 1 + static_cast<int>(seed % 3);
  o.max_busy = 1 + static_cast<int>(seed / 3 % 3);
  o.chained_percent = static_cast<int>(seed % 5) * 5;
  o.loop_carried = static_cast<int>(seed % 9);
  o.max_distance = 1 + static_cast<int>(seed / 7 % 3);
  return o;
}

constexpr uint64_t kBodies = 600;

// The smallest II at which no cycle has a positive weight under delay - II * distance,
// by Floyd-Warshall over every pair: independent of longest_paths' sweeps.
int64_t brute_force_rec_mii(const ModuloProblem& p) {
  const size_t n = p.size();
  constexpr int64_t kNoPath = INT64_MIN / 4;
  for (int64_t ii = 0;; ++ii) {
    std::vector<int64_t> w(n * n, kNoPath);
    for (const ModuloDependence& d : p.deps)
      w[d.from * n + d.to] = std::max(w[d.from * n + d.to], d.delay - ii * d.distance);
    for (size_t k = 0; k < n; ++k)
      for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j)
          if (w[i * n + k] > kNoPath && w[k * n + j] > kNoPath)
            w[i * n + j] = std::max(w[i * n + j], w[i * n + k] + w[k * n + j]);
    bool positive = false;
    for (size_t i = 0; i < n; ++i) positive |= w[i * n + i] > 0;
    if (!positive) return ii;
  }
}

// The reported recurrence is a closed chain of dependences whose sums need exactly RecMII.
void expect_recurrence_closes(const ModuloProblem& p, const RecurrenceMii& rec, uint64_t seed) {
  if (rec.ii == 0) {
    EXPECT_TRUE(rec.cycle.empty()) << seed;
    return;
  }
  ASSERT_FALSE(rec.cycle.empty()) << seed;
  int64_t delay = 0, distance = 0;
  for (size_t k = 0; k < rec.cycle.size(); ++k) {
    const ModuloDependence& d = p.deps[rec.cycle[k]];
    EXPECT_EQ(d.to, p.deps[rec.cycle[(k + 1) % rec.cycle.size()]].from) << seed << ": the chain is broken at " << k;
    delay += d.delay, distance += d.distance;
  }
  EXPECT_EQ(delay, rec.delay) << seed;
  EXPECT_EQ(distance, rec.distance) << seed;
  ASSERT_GT(distance, 0) << seed;
  EXPECT_EQ((delay + distance - 1) / distance, rec.ii) << seed;
}

TEST(ModuloSchedulerProperties, RandomBodiesVerifyAndMeetTheBounds) {
  int at_mii = 0, recurrence_bound = 0, resource_bound = 0;
  for (uint64_t seed = 1; seed <= kBodies; ++seed) {
    const ModuloProblem p = random_loop_body(random_options(seed));
    const ModuloSchedule s = schedule_modulo(p);
    ASSERT_TRUE(s.found) << seed << ": " << s.reason;
    ASSERT_EQ(verify_modulo_schedule(p, s), "") << "seed " << seed;
    EXPECT_EQ(s.mii, std::max({int64_t{1}, s.res.ii, s.rec.ii})) << seed;
    EXPECT_GE(s.ii, s.mii) << seed;
    EXPECT_EQ(s.reason.empty(), s.ii == 1) << seed << ": " << s.reason;
    switch (s.limit) {
      case IiLimit::kResources: EXPECT_TRUE(s.res.ii == s.ii && s.rec.ii < s.ii) << seed; break;
      case IiLimit::kRecurrence: EXPECT_TRUE(s.rec.ii == s.ii && s.res.ii < s.ii) << seed; break;
      case IiLimit::kResourcesAndRecurrence: EXPECT_TRUE(s.rec.ii == s.ii && s.res.ii == s.ii) << seed; break;
      case IiLimit::kSearch: EXPECT_GT(s.ii, s.mii) << seed; break;
      case IiLimit::kNothing: EXPECT_EQ(s.ii, 1) << seed; break;
      case IiLimit::kRequested: ADD_FAILURE() << seed << ": no target was requested"; break;
    }
    expect_recurrence_closes(p, s.rec, seed);
    if (p.size() <= 30) {
      EXPECT_EQ(s.rec.ii, brute_force_rec_mii(p)) << "seed " << seed;
    }
    at_mii += s.ii == s.mii;
    recurrence_bound += s.rec.ii > s.res.ii;
    resource_bound += s.res.ii > s.rec.ii;
  }
  // Iterative modulo scheduling reaches the MII on almost every loop (Rau reports 96%
  // of 1,327 loops); the bodies must exercise both bounds for the rest to mean much.
  EXPECT_GE(at_mii, kBodies * 95 / 100);
  EXPECT_GE(recurrence_bound, 100);
  EXPECT_GE(resource_bound, 100);
  RecordProperty("at_mii", at_mii);
  RecordProperty("recurrence_bound", recurrence_bound);
  RecordProperty("resource_bound", resource_bound);
}

// Schedules broken on purpose must be rejected, each with the violation it has.
TEST(ModuloSchedulerProperties, VerifierRejectsBrokenSchedules) {
  int dependence = 0, recurrence = 0, resource = 0, instance = 0;
  for (uint64_t seed = 1; seed <= kBodies; ++seed) {
    const ModuloProblem p = random_loop_body(random_options(seed));
    const ModuloSchedule s = schedule_modulo(p);
    ASSERT_EQ(verify_modulo_schedule(p, s), "") << seed;
    auto starts_with = [](const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; };

    // One dependence a cycle short.
    for (size_t k = 0; k < p.deps.size(); ++k) {
      const ModuloDependence& d = p.deps[(seed + k) % p.deps.size()];
      const int64_t too_early = s.start[d.from] + d.delay - d.distance * s.ii - 1;
      if (d.from == d.to || too_early < 0) continue;
      ModuloSchedule broken = s;
      broken.start[d.to] = too_early;
      EXPECT_TRUE(starts_with(verify_modulo_schedule(p, broken), "dependence ")) << seed;
      ++dependence;
      break;
    }
    // Below RecMII, some dependence around the recurrence breaks whatever the starts.
    if (s.rec.ii > 1) {
      ModuloSchedule broken = s;
      broken.ii = s.rec.ii - 1;
      EXPECT_TRUE(starts_with(verify_modulo_schedule(p, broken), "dependence ")) << seed;
      ++recurrence;
    }
    // Below ResMII (dependences aside), some slot holds too much or an op outlasts II.
    if (s.res.ii > 1) {
      ModuloProblem free = p;
      free.deps.clear();
      ModuloSchedule broken = s;
      broken.ii = s.res.ii - 1;
      const std::string issue = verify_modulo_schedule(free, broken);
      EXPECT_TRUE(starts_with(issue, "resource ") || issue.find("longer than II") != std::string::npos)
          << seed << ": " << issue;
      ++resource;
    }
    // Two ops that share a slot on different instances put on one.
    auto share_a_slot = [&](uint32_t a, uint32_t b) {
      return p.limited(a) && p.limited(b) && p.resource[a] == p.resource[b] && s.instance[a] != s.instance[b] &&
             s.start[a] % s.ii == s.start[b] % s.ii;
    };
    bool moved = false;
    for (uint32_t a = 0; a < p.size() && !moved; ++a)
      for (uint32_t b = a + 1; b < p.size() && !moved; ++b) {
        if (!share_a_slot(a, b)) continue;
        ModuloSchedule broken = s;
        broken.instance[b] = s.instance[a];
        const std::string prefix = fmt::format("resource {} instance ", p.resource_names[p.resource[a]]);
        EXPECT_TRUE(starts_with(verify_modulo_schedule(p, broken), prefix)) << seed;
        ++instance;
        moved = true;
      }
    ModuloSchedule broken = s;
    broken.length = s.length + 1;
    EXPECT_TRUE(starts_with(verify_modulo_schedule(p, broken), "schedule says length")) << seed;
  }
  RecordProperty("dependence", dependence);
  RecordProperty("recurrence", recurrence);
  RecordProperty("resource", resource);
  RecordProperty("instance", instance);
  EXPECT_GE(dependence, 500);
  EXPECT_GE(recurrence, 400);
  EXPECT_GE(resource, 500);
  EXPECT_GE(instance, 250);
}

TEST(ModuloSchedulerProperties, TargetsAreMetOrExplained) {
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const ModuloProblem p = random_loop_body(random_options(seed));
    const ModuloSchedule free = schedule_modulo(p);
    const int64_t mii = free.mii;
    ModuloOptions o;
    o.target_ii = free.ii + 1 + static_cast<int64_t>(seed % 4);
    const ModuloSchedule above = schedule_modulo(p, o);
    EXPECT_EQ(verify_modulo_schedule(p, above), "") << seed;
    EXPECT_EQ(above.ii, o.target_ii) << seed;
    EXPECT_EQ(above.limit, IiLimit::kRequested) << seed;
    if (mii == 1) continue;
    o.target_ii = mii - 1;
    const ModuloSchedule below = schedule_modulo(p, o);
    EXPECT_EQ(verify_modulo_schedule(p, below), "") << seed;
    EXPECT_GE(below.ii, mii) << seed;
    EXPECT_EQ(below.reason.rfind(fmt::format("target II {} not met, II {} reached: ", mii - 1, below.ii), 0), 0u)
        << seed << ": " << below.reason;
  }
}

}  // namespace
}  // namespace hlsgym::testing
