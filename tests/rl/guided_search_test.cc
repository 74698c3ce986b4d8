// Policy-guided search (rl/guided_search.h) with the shipped policy: never an order worse
// than the policy's own, within its budget of pass runs, the same order for the same seed,
// and better than the policy on a graph where the policy leaves something to find.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "frontend/load.h"
#include "ir/error.h"
#include "passes/default_order.h"
#include "passes/order.h"
#include "rl/action_mask.h"
#include "rl/agent.h"
#include "rl/guided_search.h"
#include "rl/policy_file.h"
#include "rl/search.h"
#include "tests/rl/rl_test_util.h"

namespace hlsgym::rl {
namespace {

PolicyFile shipped() { return load_policy((testing::source_dir() / "designs" / "policies" / "learned.policy").string()); }

ir::Module test_graph(const std::string& file) {
  return frontend::load_design((testing::hlo_data_dir() / "test" / file).string()).module;
}

// The op count after `order`, run as `optimize` runs it (the real pass pipeline).
double cost_after(const ir::Module& graph, const std::vector<std::string>& order) {
  ir::Module m = graph;
  std::string spec;
  for (const auto& p : order) spec += (spec.empty() ? "" : ",") + p;
  if (!spec.empty()) passes::parse_order(spec).pipeline->run(m);
  Env env(EnvOptions{});
  return *env.cost_of_module(m);
}

// Small graphs of the test split (the policy never trained on them) and designs.
std::vector<std::pair<std::string, ir::Module>> graphs() {
  std::vector<std::pair<std::string, ir::Module>> g;
  for (const char* f : {"jraph__module_0047.jit__truncated_normal.20.375250.hlo", "hlo_test.8c00b2.hlo",
                        "maml_flax__module_0067.jit_train_step.26.822adb.hlo", "jraph__module_0101.jit_accuracy.49.4d8038.hlo"})
    g.emplace_back(f, test_graph(f));
  for (const char* d : {"drafts/matvec_draft", "attention_head", "layernorm"}) g.emplace_back(d, testutil::design(d));
  return g;
}

TEST(GuidedSearch, NeverWorseThanThePolicyAndWithinItsBudget) {
  PolicyFile p = shipped();
  for (const auto& [id, g] : graphs())
    for (int64_t budget : {1, 40, 150, 400}) {
      SCOPED_TRACE(id + " budget " + std::to_string(budget));
      GuidedOptions o;
      o.budget_steps = budget;
      const GuidedResult r = guided_order(p, g, {}, o);
      EXPECT_EQ(r.policy_order, policy_order(p, g, {}));
      EXPECT_LE(cost_after(g, r.order), cost_after(g, r.policy_order));
      if (budget >= r.policy_evaluations) {
        EXPECT_LE(r.evaluations, budget);
      } else {  // the policy's episode alone is over budget: its order, nothing more
        EXPECT_FALSE(r.searched);
        EXPECT_EQ(r.evaluations, r.policy_evaluations);
        EXPECT_EQ(r.order, r.policy_order);
      }
    }
}

TEST(GuidedSearch, SameSeedSameOrder) {
  PolicyFile p = shipped();
  for (const auto& [id, g] : graphs()) {
    SCOPED_TRACE(id);
    GuidedOptions o;
    o.budget_steps = 300;
    o.seed = 7;
    const GuidedResult a = guided_order(p, g, {}, o), b = guided_order(p, g, {}, o);
    EXPECT_EQ(a.order, b.order);
    EXPECT_EQ(a.evaluations, b.evaluations);
  }
}

// An untrained policy (seeded random weights over every action, written and read back as a
// file): its orders leave much to find on every graph, so whether the search finds it does
// not depend on how good the shipped policy happens to be.
PolicyFile untrained() {
  PolicyFile p;
  AgentOptions o;
  o.hidden = {16};
  o.seed = 3;
  const int actions = Env::action_count();
  p.agent = make_agent(o, static_cast<int>(Env(EnvOptions{}).reset(testutil::design("fir8"), "fir8").size()), actions);
  for (int a = 0; a < actions; ++a) p.actions.push_back(Env::action_name(a));
  const std::string path = testing::scratch("untrained.policy").string();
  save_policy(p, path);
  return load_policy(path);
}

TEST(GuidedSearch, FindsMoreThanThePolicyWhereThereIsMore) {
  // A search that only ever returned the policy's order fails here: where plain beam search
  // with the same budget ends below the policy's order ("there is more"), the guided search,
  // which starts where the policy stopped, must find some of it on at least one graph.
  PolicyFile p = untrained();
  int more = 0, better = 0;
  for (const auto& [id, g] : graphs()) {
    GuidedOptions o;
    o.budget_steps = 500;
    const GuidedResult r = guided_order(p, g, {}, o);
    const double policy = cost_after(g, r.policy_order);
    EXPECT_LE(cost_after(g, r.order), policy) << id;
    SearchOptions b;
    b.algo = SearchAlgo::kBeam;
    b.budget_steps = 500;
    if (search(g, id, EnvOptions{}, b).cost < policy) {
      ++more;
      better += cost_after(g, r.order) < policy;
    }
  }
  ASSERT_GT(more, 0) << "the untrained policy should leave something to find";
  EXPECT_GT(better, 0);
}

TEST(GuidedSearch, WhatTheEpisodeKnowsAtItsEndIsTrue) {
  // The search starts at the policy's end state and skips the passes the episode found to
  // change nothing there, and those the opcode counts show cannot: each must be a no-op
  // there, or the search would miss a state the budget paid for. The end state is the
  // policy's order replayed.
  PolicyFile p = shipped();
  for (const auto& [id, g] : graphs()) {
    SCOPED_TRACE(id);
    PolicyEpisode ep = policy_episode(p, g, {}, 31);
    ASSERT_TRUE(ep.end.has_value());
    EXPECT_EQ(ep.order, policy_order(p, g, {}));
    EXPECT_EQ(cost_after(g, ep.order), ep.end->cost());
    for (int a = 0; a < ep.end->available_actions(); ++a) {
      const bool known = std::find(ep.noops_at_end.begin(), ep.noops_at_end.end(), a) != ep.noops_at_end.end();
      if (!known && !cannot_change(*ep.end, a)) continue;
      Env e = ep.end->fork();
      EXPECT_FALSE(e.step(a).info.changed) << Env::action_name(a);
    }
  }
}

int action(const std::string& name) {
  for (int a = 0; a < Env::action_count(); ++a)
    if (Env::action_name(a) == name) return a;
  throw Error("no pass " + name);
}

// ResNet-50 of the test split after the order a default-flag policy (seed 1) took: the
// default order reaches 1,129 instructions by rounds of algsimp, reshape-mover and
// constant folding; from here reshape-mover first adds 47 instructions and the count stays
// flat for a round before four rounds of (reshape-mover, algsimp, cse) remove 426 reshapes.
Env resnet_after_policy() {
  Env e(EnvOptions{.max_steps = 400});
  e.reset(test_graph("resnet50_keras_jax_predict.before_opt.hlo"), "resnet50");
  for (const char* p : {"computation-deduplicator", "cse", "algsimp", "algsimp", "call-inliner", "cse", "constant_folding", "cse"})
    e.step(p);
  return e;
}

TEST(GuidedSearch, FixedPointRoundsFindAChainThatABeamPrunes) {
  const Env start = resnet_after_policy();
  ASSERT_EQ(start.cost(), 1439);
  const std::vector<int> round = {action("cse"), action("algsimp"), action("reshape-mover")};
  SearchMemory memory;
  Env best = start.fork();
  const int64_t runs = fixed_point_rounds(best, round, 60, memory);
  EXPECT_LE(runs, 60);
  EXPECT_LE(best.cost(), 1129) << "the default order's count, which the rounds must reach";
  // The state is its order replayed (only changing steps after the start's own).
  const std::vector<std::string>& steps = best.state().passes;
  ASSERT_GT(steps.size(), start.state().passes.size());
  EXPECT_EQ(cost_after(start.initial_module(), steps), best.cost());
  // Every run is remembered: rounds again from there pay nothing for the fixed point.
  EXPECT_EQ(static_cast<int64_t>(memory.next.size()), runs);
  Env again = best.fork();
  SearchMemory copy = memory;
  EXPECT_EQ(fixed_point_rounds(again, round, 60, copy), 0);
}

TEST(GuidedSearch, FixedPointRoundsStayWithinTheBudgetAndNeverLoseTheStart) {
  const Env start = resnet_after_policy();
  const std::vector<int> round = {action("reshape-mover"), action("algsimp")};
  for (int64_t budget : {0, 1, 2, 5}) {
    SCOPED_TRACE(budget);
    SearchMemory memory;
    Env best = start.fork();
    EXPECT_LE(fixed_point_rounds(best, round, budget, memory), budget);
    EXPECT_LE(best.cost(), start.cost());  // reshape-mover alone raises it: best stays at the start
  }
}

TEST(GuidedSearch, XlasFixedPointPassesAreAddedOnceAfterTheRound) {
  const std::vector<int> round = {action("reshape-mover"), action("cse")};
  const std::vector<int> more = with_xla_fixed_point_passes(round, Env::action_count());
  ASSERT_GE(more.size(), 2u);
  EXPECT_EQ(std::vector<int>(more.begin(), more.begin() + 2), round) << "the round's own passes first, in its order";
  for (const std::string& n : passes::default_fixed_point_names())
    EXPECT_EQ(std::count(more.begin(), more.end(), action(n)), 1) << n;
  EXPECT_EQ(more.size(), passes::default_fixed_point_names().size()) << "nothing else (both of the round's are XLA's)";
  // A policy written for fewer actions never gets a later one.
  for (int a : with_xla_fixed_point_passes({}, 10)) EXPECT_LT(a, 10);
}

TEST(GuidedSearch, XlasFixedPointPassesReachAChainTheSearchsOwnPassesMiss) {
  // A policy whose episode and first beam never ran reshape-mover (seed 2 of the README's
  // table on ResNet-50): rounds of their passes stop at once, where the default order goes
  // on to 1,129; with XLA's fixed-point passes added they reach it.
  const Env start = resnet_after_policy();
  const std::vector<int> round = {action("cse"), action("algsimp"), action("constant_folding")};
  SearchMemory memory;
  Env own = start.fork();
  fixed_point_rounds(own, round, 80, memory);
  EXPECT_EQ(own.cost(), start.cost());
  Env best = start.fork();
  EXPECT_LE(fixed_point_rounds(best, with_xla_fixed_point_passes(round, Env::action_count()), 80, memory), 80);
  EXPECT_LE(best.cost(), 1129) << "the default order's count";
  EXPECT_EQ(cost_after(start.initial_module(), best.state().passes), best.cost());
}

TEST(GuidedSearch, FixedPointRoundsStopOnACycle) {
  // unroll-x2 and unroll-halve undo each other: rounds of the two never reach a fixed point
  // and, without the cycle check, would spend the whole budget toggling.
  Env e(EnvOptions{.max_steps = 200});
  e.reset(testutil::design("fir8"), "fir8");
  SearchMemory memory;
  Env best = e.fork();
  const int64_t runs = fixed_point_rounds(best, {action("unroll-x2"), action("unroll-halve")}, 100, memory);
  EXPECT_GE(runs, 2);
  EXPECT_LE(runs, 4);
  EXPECT_LE(best.cost(), e.cost());
}

TEST(GuidedSearch, BeamsSharingAMemoryNeverPayTwiceForAPair) {
  // A second beam from the same state with the first one's memory runs only (state, pass)
  // pairs the first did not, and finds only states the first did not see.
  Env e(EnvOptions{.max_steps = 200});
  e.reset(test_graph("maml_flax__module_0067.jit_train_step.26.822adb.hlo"), "maml");
  auto memory = std::make_shared<SearchMemory>();
  SearchOptions so;
  so.algo = SearchAlgo::kBeam;
  so.budget_steps = 60;
  so.children_per_state = 2;
  so.memory = memory;
  const SearchResult first = search_from(e, so);
  EXPECT_EQ(static_cast<int64_t>(memory->next.size()), first.evaluations);
  const size_t seen = memory->seen.size();
  const SearchResult second = search_from(e, so);
  EXPECT_GT(second.evaluations, 0);
  EXPECT_EQ(static_cast<int64_t>(memory->next.size()), first.evaluations + second.evaluations);
  EXPECT_EQ(static_cast<int64_t>(memory->seen.size() - seen), second.states);
}

double default_cost(const ir::Module& graph) {
  ir::Module m = graph;
  passes::make_default_order()->run(m);
  Env env(EnvOptions{});
  return *env.cost_of_module(m);
}

TEST(GuidedSearch, DefaultOrderStepsReachTheDefaultOrdersModule) {
  // The guard's candidate is XLA's default order run as environment steps: its end state
  // must be the pipeline's module (same cost, its steps replay to it), within the budget,
  // and a budget too small for it stops part of the way without overspending.
  std::vector<std::pair<std::string, ir::Module>> g = graphs();
  g.emplace_back("resnet50", test_graph("resnet50_keras_jax_predict.before_opt.hlo"));
  for (const auto& [id, graph] : g) {
    SCOPED_TRACE(id);
    Env e(EnvOptions{.max_steps = 2000});
    e.reset(graph, id);
    SearchMemory memory;
    const std::optional<int64_t> runs = default_order_steps(e, 2000, memory);
    ASSERT_TRUE(runs.has_value());
    EXPECT_GT(*runs, 0);
    EXPECT_EQ(e.cost(), default_cost(graph));
    EXPECT_EQ(cost_after(graph, e.state().passes), e.cost());
    EXPECT_EQ(static_cast<int64_t>(memory.next.size()), *runs) << "every run remembered";
    Env part(EnvOptions{.max_steps = 2000});
    part.reset(graph, id);
    SearchMemory fresh;
    EXPECT_EQ(default_order_steps(part, *runs / 2, fresh), *runs / 2);
  }
  // A policy written for fewer actions than the order needs gets no guard (nothing run).
  Env few(EnvOptions{.actions = 5});
  few.reset(testutil::design("fir8"), "fir8");
  SearchMemory memory;
  EXPECT_FALSE(default_order_steps(few, 100, memory).has_value());
  EXPECT_TRUE(memory.next.empty());
}

TEST(GuidedSearch, TheGuardMakesTheResultNeverWorseThanTheDefaultOrder) {
  // An untrained policy's orders are far from the default order's; with budget for the
  // guard the result is at least as good as the default order on every graph, counted in
  // the budget, and still never worse than the policy. Without the guard the same policy
  // ends worse than the default order somewhere (so the guard is what makes the difference).
  PolicyFile p = untrained();
  int worse_without = 0, from_default = 0;
  for (const auto& [id, g] : graphs()) {
    SCOPED_TRACE(id);
    GuidedOptions o;
    o.budget_steps = 150;
    o.default_guard = true;
    const GuidedResult r = guided_order(p, g, {}, o);
    ASSERT_TRUE(r.searched);
    EXPECT_LE(r.evaluations, o.budget_steps);
    EXPECT_GT(r.default_evaluations, 0);
    EXPECT_LE(cost_after(g, r.order), default_cost(g));
    EXPECT_LE(cost_after(g, r.order), cost_after(g, r.policy_order));
    from_default += r.from_default;
    o.default_guard = false;
    const GuidedResult bare = guided_order(p, g, {}, o);
    EXPECT_EQ(bare.default_evaluations, 0);
    EXPECT_FALSE(bare.from_default);
    worse_without += cost_after(g, bare.order) > default_cost(g);
  }
  EXPECT_GT(from_default, 0);
  EXPECT_GT(worse_without, 0);
}

TEST(GuidedSearch, RejectsAnEmptyBudget) {
  PolicyFile p = shipped();
  GuidedOptions o;
  o.budget_steps = 0;
  EXPECT_THROW(guided_order(p, testutil::design("fir8"), {}, o), Error);
}

}  // namespace
}  // namespace hlsgym::rl
