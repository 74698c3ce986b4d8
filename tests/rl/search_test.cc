// Search baselines: exhaustive finds an optimum nothing else beats; results replay
// exactly through the pass pipeline; runs are deterministic per seed; potential-based
// shaping leaves the best order unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "frontend/load.h"
#include "hwmodel/target.h"
#include "ir/error.h"
#include "ir/module_hash.h"
#include "passes/order.h"
#include "passes/registry.h"
#include "rl/env.h"
#include "tests/rl/rl_test_util.h"
#include "rl/search.h"
#include "tests/support/test_data.h"

namespace hlsgym::rl {
namespace {

using testutil::design;
using testutil::fpga;

// The env cost of applying `order` with the real pass pipeline (what `optimize` does).
double replayed_cost(const ir::Module& d, const EnvOptions& eo, const std::vector<std::string>& order) {
  Env env(eo);
  env.reset(d, "replay");
  if (order.empty()) return env.cost();
  std::string spec;
  for (const auto& p : order) spec += (spec.empty() ? "" : ",") + p;
  ir::Module m = d;
  passes::parse_order(spec).pipeline->run(m);
  return env.cost_of_module(m).value();  // every design here has a hardware cost
}

TEST(Search, ExhaustiveIsNeverBeatenAndEveryResultReplays) {
  for (const char* name : {"fir8", "saturating_add", "stencil_3pt"}) {
    for (const char* reward : {"opcount", "cycles"}) {
      EnvOptions eo;
      eo.reward = reward;
      eo.target = fpga();
      // The optimization passes: with the unroll directives (each op's lanes doubled up to
      // its element count) six steps reach far more states than the exhaustive search
      // closes; DirectivesBeatTheOptimizationPassesOnCycles covers those.
      eo.actions = passes::Registry::global().count_through(passes::kFirstActions);
      SearchOptions so;
      so.max_len = 6;
      so.algo = SearchAlgo::kExhaustive;
      const SearchResult ex = search(design(name), name, eo, so);
      ASSERT_TRUE(ex.optimal) << name << " " << reward << ": " << ex.states << " states";
      EXPECT_LE(ex.cost, ex.initial_cost);
      // On these small designs six passes reach everything the default order reaches.
      ASSERT_TRUE(ex.default_cost.has_value()) << name << " " << reward;
      EXPECT_LE(ex.cost, *ex.default_cost) << name << " " << reward;
      EXPECT_DOUBLE_EQ(replayed_cost(design(name), eo, ex.order), ex.cost);
      for (SearchAlgo a : {SearchAlgo::kGreedy, SearchAlgo::kBeam, SearchAlgo::kRandom, SearchAlgo::kGa}) {
        so.algo = a;
        so.budget_steps = 3000;
        const SearchResult r = search(design(name), name, eo, so);
        SCOPED_TRACE(std::string(name) + " " + reward + " " + search_algo_name(a));
        EXPECT_GE(r.cost, ex.cost);
        EXPECT_LE(r.cost, r.initial_cost);
        EXPECT_LE(static_cast<int>(r.order.size()), so.max_len);
        EXPECT_DOUBLE_EQ(replayed_cost(design(name), eo, r.order), r.cost);
        EXPECT_GT(r.evaluations, 0);
      }
    }
  }
}

TEST(Search, DeterministicPerSeed) {
  EnvOptions eo;
  for (SearchAlgo a : {SearchAlgo::kRandom, SearchAlgo::kGa, SearchAlgo::kBeam, SearchAlgo::kGreedy}) {
    SearchOptions so;
    so.algo = a;
    so.budget_steps = 1500;
    so.seed = 9;
    const SearchResult x = search(design("attention_head"), "attention_head", eo, so);
    const SearchResult y = search(design("attention_head"), "attention_head", eo, so);
    EXPECT_EQ(x.order, y.order) << search_algo_name(a);
    EXPECT_EQ(x.cost, y.cost);
    EXPECT_EQ(x.evaluations, y.evaluations);
  }
}

TEST(Search, BudgetsAreRespected) {
  SearchOptions so;
  so.algo = SearchAlgo::kRandom;
  so.budget_steps = 200;
  so.patience = 1000000;
  const SearchResult r = search(design("softmax"), "softmax", EnvOptions{}, so);
  EXPECT_EQ(r.evaluations, 200);
  EXPECT_TRUE(r.budget_exhausted);
  so.budget_steps = 0;
  so.budget_seconds = 0.2;
  const SearchResult t = search(design("softmax"), "softmax", EnvOptions{}, so);
  EXPECT_LT(t.seconds, 1.0);
  EXPECT_THROW(parse_search_algo("anneal"), Error);
}

// Every order of length 3 over a few passes: the discounted shaped return equals the
// plain one minus phi(s0), so the best order is the same with and without shaping.
TEST(Search, ShapingLeavesTheBestOrderUnchanged) {
  const std::vector<std::string> passes = {"algsimp", "logistic-expander", "cse", "dce", "constant_folding", "call-inliner"};
  for (const char* name : {"gelu", "softmax", "layernorm"}) {
    EnvOptions plain, shaped;
    plain.max_steps = shaped.max_steps = 3;
    shaped.shaping = true;
    shaped.gamma = plain.gamma = 0.9;
    std::vector<std::string> best_plain, best_shaped;
    double bp = -1e300, bs = -1e300, shift = 0;
    bool first = true;
    std::vector<std::string> order(3);
    std::function<void(int)> enumerate = [&](int k) {
      if (k == 3) {
        Env a(plain), b(shaped);
        a.reset(design(name), name);
        b.reset(design(name), name);
        double ga = 0, gb = 0, disc = 1;
        for (const auto& p : order) {
          ga += disc * a.step(p).reward;
          gb += disc * b.step(p).reward;
          disc *= 0.9;
        }
        if (first) shift = gb - ga, first = false;
        EXPECT_NEAR(gb - ga, shift, 1e-9) << name;  // the same constant for every order
        if (ga > bp + 1e-12) bp = ga, best_plain = order;
        if (gb > bs + 1e-12) bs = gb, best_shaped = order;
        return;
      }
      for (const auto& p : passes) order[static_cast<size_t>(k)] = p, enumerate(k + 1);
    };
    enumerate(0);
    EXPECT_EQ(best_plain, best_shaped) << name;
    EXPECT_NEAR(shift, 1.0, 1e-9);  // -phi(s0) = 1 with phi normalized to the initial graph
  }
}

}  // namespace
}  // namespace hlsgym::rl
