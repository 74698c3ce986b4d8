// The environment's API contract: reset/step/fork/state replay/validate, rewards that
// sum to the total change, potential-based shaping, and the observation spaces.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>

#include "frontend/load.h"
#include "hwmodel/target.h"
#include "ir/error.h"
#include "ir/features.h"
#include "ir/module_hash.h"
#include "ir/random_module.h"
#include "passes/order.h"
#include "passes/registry.h"
#include "rl/env.h"
#include "tests/rl/rl_test_util.h"
#include "tests/support/test_data.h"

namespace hlsgym::rl {
namespace {

using testutil::design;
using testutil::fpga;

int action_of(const std::string& name) {
  for (int a = 0; a < Env::action_count(); ++a)
    if (Env::action_name(a) == name) return a;
  ADD_FAILURE() << "no action " << name;
  return 0;
}

TEST(Env, ResetStepAndTruncation) {
  EnvOptions o;
  o.max_steps = 4;
  Env env(o);
  const auto obs = env.reset(design("stencil_3pt"), "stencil_3pt");
  EXPECT_EQ(static_cast<int>(obs.size()), ir::kOpcodeCount);
  EXPECT_DOUBLE_EQ(std::accumulate(obs.begin(), obs.end(), 0.0), 1.0);  // counts / initial count
  StepResult r;
  for (int k = 0; k < 4; ++k) {
    r = env.step(action_of("dce"));
    EXPECT_FALSE(r.info.changed);  // nothing dead in the design
    EXPECT_EQ(r.reward, 0.0);
    EXPECT_EQ(r.observation, obs);
    EXPECT_EQ(r.truncated, k == 3);
    EXPECT_FALSE(r.terminated);
  }
  EXPECT_THROW(env.step(0), Error);
  EXPECT_THROW(Env(o).step(-1), Error);
}

TEST(Env, RewardsSumToTheTotalChange) {
  std::mt19937 rng(3);
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    ir::RandomModuleOptions g;
    g.seed = seed;
    g.instructions = 60;
    Env env(EnvOptions{});
    env.reset(ir::random_module(g), "random" + std::to_string(seed));
    double sum = 0;
    for (int k = 0; k < 30; ++k) {
      const StepResult r = env.step(static_cast<int>(rng() % Env::action_count()));
      sum += r.reward;
      ASSERT_EQ(r.info.instructions, static_cast<double>(ir::extract_features(env.module()).instructions)) << r.info.pass << " changed=" << r.info.changed << " step " << k;
    }
    EXPECT_DOUBLE_EQ(sum, env.initial_cost() - env.cost()) << seed;
    EXPECT_EQ(env.initial_cost(), static_cast<double>(ir::extract_features(env.initial_module()).instructions));
  }
}

TEST(Env, ForkIsIndependentAndStateReplaysExactly) {
  Env env(EnvOptions{});
  env.reset(design("layernorm"), "layernorm");
  env.step("algsimp");
  env.step("cse");
  Env fork = env.fork();
  fork.step("dce");
  fork.step("algsimp");
  EXPECT_EQ(env.steps(), 2);
  EXPECT_EQ(fork.steps(), 4);
  EXPECT_EQ(env.state().passes, (std::vector<std::string>{"algsimp", "cse"}));

  const std::string text = fork.state().to_text();
  EXPECT_EQ(text, "layernorm|algsimp,cse,dce,algsimp");
  const EnvState back = EnvState::from_text(text);
  Env replayed(EnvOptions{});
  replayed.reset(design("layernorm"), "layernorm");
  replayed.replay(back);
  EXPECT_EQ(replayed.state_hash(), fork.state_hash());
  EXPECT_EQ(ir::structural_hash(replayed.module()), ir::structural_hash(fork.module()));
  EXPECT_EQ(replayed.observation(), fork.observation());
  EXPECT_THROW(replayed.replay(EnvState::from_text("fir8|cse")), Error);  // another design
  EXPECT_THROW(EnvState::from_text("fir8|csee"), Error);
}

TEST(Env, ValidatePassesAfterRandomEpisodes) {
  std::mt19937 rng(5);
  for (const char* name : {"fir8", "softmax", "attention_head", "maxpool"}) {
    Env env(EnvOptions{});
    env.reset(design(name), name);
    for (int k = 0; k < 30; ++k) env.step(static_cast<int>(rng() % Env::action_count()));
    const auto v = env.validate();
    EXPECT_EQ(v.status, passes::CheckStatus::kPassed) << name << ": " << v.detail << "\n" << env.render();
  }
}

TEST(Env, ObservationSpacesConcatenateAndNormalize) {
  EnvOptions o;
  o.observation = "opcount+features+cost+history";
  o.target = fpga();
  Env env(o);
  const auto obs = env.reset(design("fir8"), "fir8");
  const size_t n_features = ir::Features::names().size();
  ASSERT_EQ(obs.size(), ir::kOpcodeCount + n_features + 8 + static_cast<size_t>(Env::action_count()));
  // The cost part of the initial state is all ones (normalized to itself) where nonzero.
  for (size_t k = ir::kOpcodeCount + n_features; k < ir::kOpcodeCount + n_features + 8; ++k)
    EXPECT_TRUE(obs[k] == 1.0 || obs[k] == 0.0) << k;
  const StepResult r = env.step("strength-reduction");
  EXPECT_DOUBLE_EQ(r.observation[obs.size() - Env::action_count() + action_of("strength-reduction")], 1.0 / o.max_steps);
  EnvOptions bogus;
  bogus.observation = "opcount+bogus";
  EXPECT_THROW(Env{bogus}, Error);
  EnvOptions no_target;
  no_target.reward = "cycles";
  EXPECT_THROW(Env{no_target}, Error);  // needs a target
}

TEST(Env, HardwareRewardsFollowTheEstimate) {
  for (const char* reward : {"cycles", "energy", "area", "memory", "hw"}) {
    EnvOptions o;
    o.reward = reward;
    o.target = fpga();
    o.hw_weights = {{"cycles", 1}, {"energy", 0.5}};
    Env env(o);
    env.reset(design("stencil_3pt"), "stencil_3pt");
    double sum = 0;
    for (const char* p : {"algsimp", "strength-reduction", "tree-height-reduction", "cse", "dce"}) sum += env.step(p).reward;
    EXPECT_NEAR(sum, env.initial_cost() - env.cost(), 1e-9 * std::max(1.0, std::abs(env.initial_cost()))) << reward;
    EXPECT_TRUE(env.metrics().has_hardware);
    EXPECT_GT(env.metrics().hardware.cycles, 0);
  }
}

// A design beyond the part is no design: a cycles reward would otherwise unroll until the
// part overflows. On a part with the dot product's 3 DSPs, unroll-x2 (6 DSPs) is refused.
TEST(Env, AStateThatDoesNotFitThePartIsRefused) {
  auto small = std::make_shared<hwmodel::Target>(*fpga());
  small->resources.dsp = 3;
  EnvOptions o;
  o.reward = "cycles";
  o.target = small;
  Env env(o);
  env.reset(design("dot_product"), "dot_product");
  const StepResult r = env.step("unroll-x2");
  EXPECT_TRUE(r.info.refused);
  EXPECT_NE(r.info.refusal.find("does not fit target fpga: needs 6 DSP of 3"), std::string::npos) << r.info.refusal;
  EXPECT_EQ(r.reward, 0.0);
  EXPECT_TRUE(env.state().passes.empty());
  small->resources.dsp = 2;  // the design itself does not fit: no episode on it
  EXPECT_THROW(Env(o).reset(design("dot_product"), "dot_product"), Error);
}

TEST(Env, NormalizedRewardsSumToOneForTheDefaultOrder) {
  EnvOptions o;
  o.normalize_by_default = true;
  o.max_steps = 200;
  Env env(o);
  env.reset(design("attention_head"), "attention_head");
  // Apply the default order's flattened names; its fixed points may need more rounds,
  // so compare against the cost it reaches rather than assuming one round suffices.
  double sum = 0;
  for (const auto& p : passes::parse_order("default").names) sum += env.step(p).reward;
  EXPECT_NEAR(sum, (env.initial_cost() - env.cost()) / env.reward_scale(), 1e-12);
  EXPECT_GT(env.reward_scale(), 0);
}

// The log-ratio reward telescopes: an episode returns log(initial / final cost) whatever
// the path, refused and unchanged steps included (they return 0).
TEST(Env, LogRatioRewardsSumToTheLogOfTheSpeedUp) {
  EnvOptions o;
  o.reward = "cycles";
  o.target = fpga();
  o.log_ratio = true;
  o.max_steps = 12;
  Env env(o);
  env.reset(design("stencil_3pt"), "stencil_3pt");
  double sum = 0;
  for (const char* p : {"fusion", "unroll-x2", "dce", "unroll-x2", "strength-reduction", "unroll-x2", "unroll-halve",
                        "unroll-x2", "tree-height-reduction"})
    sum += env.step(p).reward;
  ASSERT_LT(env.cost(), env.initial_cost());  // the directives made it faster
  EXPECT_NEAR(sum, std::log(env.initial_cost() / env.cost()), 1e-12);
  o.normalize_by_default = true;
  EXPECT_THROW({ Env both(o); }, Error);  // one scale or the other
}

TEST(Env, ShapingAddsTheDiscountedPotentialDifference) {
  EnvOptions plain, shaped;
  shaped.shaping = true;
  shaped.gamma = 0.9;
  Env a(plain), b(shaped);
  a.reset(design("gelu"), "gelu");
  b.reset(design("gelu"), "gelu");
  for (const char* p : {"algsimp", "logistic-expander", "cse", "dce", "constant_folding"}) {
    const Metrics before = b.metrics();
    const StepResult ra = a.step(p), rb = b.step(p);
    const auto phi = [&](const Metrics& m) {
      const auto& f0 = b.initial_metrics().features;
      return -(m.features.flops + 2 * m.features.transcendentals) / (f0.flops + 2 * f0.transcendentals);
    };
    EXPECT_NEAR(rb.reward, ra.reward + 0.9 * phi(b.metrics()) - phi(before), 1e-12) << p;
  }
}

TEST(Env, NoOpStepsHitTheCache) {
  Env env(EnvOptions{});
  env.reset(design("matmul_4x4"), "matmul_4x4");
  const auto misses = env.cache().misses();
  for (int k = 0; k < 10; ++k) env.step("zero_sized_hlo_elimination");
  EXPECT_EQ(env.cache().misses(), misses);
  Env second = env.fork();
  second.reset(design("matmul_4x4"), "matmul_4x4");  // same initial state: a hit
  EXPECT_EQ(env.cache().misses(), misses);
}

}  // namespace
}  // namespace hlsgym::rl
