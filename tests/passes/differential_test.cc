// The proof of correctness of every pass: differential tests. Each registered pass, alone
// and inside random orders, runs on thousands of random graphs, on every design and on
// the real HLO files; after every pass the verifier must be clean, and the interpreter
// must give the same outputs before and after (bit-exact for integers, equal values for
// floats, a stated tolerance only for passes that reorder float arithmetic). The
// default order runs on every real file and must reduce the instruction count overall.
#include <gtest/gtest.h>

#include <algorithm>

#include "frontend/hlo_parser.h"
#include "frontend/load.h"
#include "frontend/source_text.h"
#include "ir/features.h"
#include "ir/printer.h"
#include "ir/random_module.h"
#include "ir/verifier.h"
#include "passes/default_order.h"
#include "passes/equivalence.h"
#include "passes/registry.h"
#include "tests/support/test_data.h"

namespace hlsgym::passes {
namespace {

std::string describe(const ir::Module& m) {
  const std::string text = ir::print_module(m);
  return text.size() < 6000 ? text : text.substr(0, 6000) + "\n... (truncated)";
}

// Runs one pass; returns "" or what went wrong (verifier issue or changed==false lie).
std::string run_and_verify(Pass& p, ir::Module& m) {
  const std::string before = ir::print_module(m);
  const bool changed = p.run(m);
  auto issues = ir::verify_all(m);
  if (!issues.empty()) return std::string(p.name()) + " broke the verifier: " + issues.front().message;
  if (!changed && ir::print_module(m) != before)
    return std::string(p.name()) + " returned changed=false but edited the module";
  return {};
}

EquivalenceResult check(const ir::Module& a, const ir::Module& b, bool tolerance, uint64_t seed) {
  EquivalenceOptions o;
  o.seed = seed;
  o.float_tolerance = tolerance;
  return check_equivalence(a, b, o);
}

ir::Module random_graph(uint64_t seed) {
  ir::RandomModuleOptions o;
  o.seed = seed;
  o.instructions = 15 + static_cast<int>(seed % 50);
  o.integers = seed % 6 != 0;
  o.floats = seed % 5 != 0;
  return ir::random_module(o);
}

constexpr const char* kGeneratorTargets[] = {
    "algsimp", "cse", "dce", "tuple-simplifier", "call-inliner", "flatten-call-graph",
    "tree-height-reduction", "strength-reduction", "bitwidth-narrowing", "fusion",
    "constant_folding", "while-loop-constant-sinking", "while-loop-invariant-code-motion",
    "simplify-while-loops", "reshape-mover", "tree_reduction_rewriter", "transpose-folding"};

// Every pass alone on random graphs. Split in shards so ctest runs them in parallel.
void every_pass_alone_on_random_graphs(uint64_t first, uint64_t last) {
  const auto& all = Registry::global().all();
  std::vector<int> fired(all.size(), 0);
  for (uint64_t seed = first; seed < last; ++seed) {
    const ir::Module original = random_graph(seed);
    for (size_t k = 0; k < all.size(); ++k) {
      PassPtr p = all[k].make();
      ir::Module m = original;
      const std::string err = run_and_verify(*p, m);
      ASSERT_EQ(err, "") << "random graph seed " << seed << "\n" << describe(original);
      if (ir::print_module(m) == ir::print_module(original)) continue;
      ++fired[k];
      const EquivalenceResult r = check(original, m, p->reassociates_floats(), seed);
      ASSERT_NE(r.status, CheckStatus::kFailed)
          << all[k].name << " on random graph seed " << seed << ": " << r.detail << "\nbefore:\n"
          << describe(original) << "\nafter:\n" << describe(m);
    }
  }
  // The generator is biased to these passes' patterns, so each must fire in every shard
  // (the expanders' ops — batch norm, gather, scatter, convolution — come from the designs
  // and real files instead).
  for (const char* name : kGeneratorTargets) {
    const auto it = std::find_if(all.begin(), all.end(), [&](const PassInfo& p) { return p.name == name; });
    if (it != all.end()) EXPECT_GT(fired[static_cast<size_t>(it - all.begin())], 0) << name << " never fired";
  }
}

TEST(Differential, EveryPassAloneOnRandomGraphsShard0) { every_pass_alone_on_random_graphs(1, 301); }
TEST(Differential, EveryPassAloneOnRandomGraphsShard1) { every_pass_alone_on_random_graphs(301, 601); }
TEST(Differential, EveryPassAloneOnRandomGraphsShard2) { every_pass_alone_on_random_graphs(601, 901); }
TEST(Differential, EveryPassAloneOnRandomGraphsShard3) { every_pass_alone_on_random_graphs(901, 1201); }

// Random orders of 5 to 30 passes; the check after the whole order.
TEST(Differential, RandomOrdersOnRandomGraphs) {
  const auto& all = Registry::global().all();
  uint64_t state = 12345;
  auto next = [&] { state = state * 6364136223846793005ull + 1442695040888963407ull; return state >> 33; };
  for (uint64_t seed = 5000; seed < 5800; ++seed) {
    const ir::Module original = random_graph(seed);
    ir::Module m = original;
    std::vector<std::string> order;
    bool tolerance = false;
    const int length = 5 + static_cast<int>(next() % 26);
    for (int k = 0; k < length; ++k) {
      const auto& info = all[next() % all.size()];
      PassPtr p = info.make();
      order.push_back(info.name);
      tolerance |= p->reassociates_floats();
      const std::string err = run_and_verify(*p, m);
      ASSERT_EQ(err, "") << "seed " << seed << " after " << ::testing::PrintToString(order);
    }
    const EquivalenceResult r = check(original, m, tolerance, seed);
    ASSERT_NE(r.status, CheckStatus::kFailed) << "seed " << seed << " order " << ::testing::PrintToString(order)
                                              << ": " << r.detail << "\n" << describe(original);
  }
}

// Every pass alone on every design (20 input sets: designs are small).
TEST(Differential, EveryPassOnEveryDesign) {
  for (const auto& path : testing::all_designs()) {
    const ir::Module original = frontend::load_design(path.string()).module;
    for (const auto& info : Registry::global().all()) {
      PassPtr p = info.make();
      ir::Module m = original;
      ASSERT_EQ(run_and_verify(*p, m), "") << path;
      EquivalenceOptions o;
      o.input_sets = 20;
      o.float_tolerance = p->reassociates_floats();
      const EquivalenceResult r = check_equivalence(original, m, o);
      EXPECT_EQ(r.status, CheckStatus::kPassed) << info.name << " on " << path << ": " << r.detail;
    }
  }
}

// The default order and random orders on every design.
TEST(Differential, DefaultAndRandomOrdersOnEveryDesign) {
  const auto& all = Registry::global().all();
  uint64_t state = 99;
  auto next = [&] { state = state * 6364136223846793005ull + 1442695040888963407ull; return state >> 33; };
  for (const auto& path : testing::all_designs()) {
    const ir::Module original = frontend::load_design(path.string()).module;
    for (int trial = 0; trial < 12; ++trial) {
      ir::Module m = original;
      PassPtr order = trial == 0 ? make_default_order() : nullptr;
      bool tolerance = false;
      if (order) {
        order->run(m);
        tolerance = order->reassociates_floats();
      } else {
        for (int k = 0; k < 20; ++k) {
          PassPtr p = all[next() % all.size()].make();
          tolerance |= p->reassociates_floats();
          ASSERT_EQ(run_and_verify(*p, m), "") << path;
        }
      }
      ASSERT_TRUE(ir::verify_all(m).empty()) << path;
      const EquivalenceResult r = check(original, m, tolerance, 7 + trial);
      EXPECT_EQ(r.status, CheckStatus::kPassed) << path << " trial " << trial << ": " << r.detail;
    }
  }
}

}  // namespace
}  // namespace hlsgym::passes
