// What the Python module steps (rl/gym_env.h, rl/vector_env.h, rl/graph_observation.h):
// the C++ side of python/tests, so a regression shows in `ctest -L rl` with a C++ stack.
#include <gtest/gtest.h>

#include <random>

#include "ir/error.h"
#include "ir/features.h"
#include "rl/graph_observation.h"
#include "rl/gym_env.h"
#include "rl/vector_env.h"
#include "tests/rl/rl_test_util.h"

namespace hlsgym::rl {
namespace {

using testutil::design;

std::shared_ptr<const GraphSet> graphs() {
  auto g = std::make_shared<GraphSet>();
  for (const char* n : {"fir8", "softmax", "conv2d", "gelu", "sad"}) g->emplace_back(n, design(n));
  return g;
}

EnvOptions options(int max_steps) {
  EnvOptions o;
  o.max_steps = max_steps;
  o.observation = "opcount+history";
  return o;
}

TEST(GymEnv, StepNeverThrowsForABadState) {
  GymEnv env(graphs(), options(3));
  GymStep s = env.step(0);
  EXPECT_TRUE(s.truncated);
  EXPECT_NE(s.error.find("reset"), std::string::npos);
  env.reset(7);
  for (int k = 0; k < 3; ++k) EXPECT_TRUE(env.step(k).error.empty());
  s = env.step(0);
  EXPECT_TRUE(s.truncated);
  EXPECT_NE(s.error.find("ended"), std::string::npos);
}

TEST(GymEnv, SameSeedSameGraphsAndUnknownGraphNamesTheChoices) {
  GymEnv a(graphs(), options(5)), b(graphs(), options(5));
  for (uint64_t seed : {1u, 2u, 3u}) {
    a.reset(seed);
    b.reset(seed);
    EXPECT_EQ(a.graph_id(), b.graph_id());
    a.reset();
    b.reset();
    EXPECT_EQ(a.graph_id(), b.graph_id());
  }
  try {
    a.reset(std::nullopt, "nope");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("fir8"), std::string::npos) << e.what();
  }
}

TEST(GymEnv, MaskMarksNoOpPassesUntilTheStateChanges) {
  GymEnv env(graphs(), options(200));
  env.reset(1, "fir8");
  bool changed = false;
  for (int a = 0; a < GymEnv::action_count(); ++a) {
    const GymStep s = env.step(a);
    if (s.changed) {
      changed = true;
      for (uint8_t m : env.action_mask()) EXPECT_EQ(m, 1);
    } else {
      EXPECT_EQ(env.action_mask()[static_cast<size_t>(a)], 0) << Env::action_name(a);
    }
  }
  EXPECT_TRUE(changed);
}

TEST(GymEnv, ExactMaskIsThePassesThatWouldChangeNothing) {
  GymEnv env(graphs(), options(200));
  env.set_exact_mask(true);
  env.reset(1, "softmax");
  const std::vector<uint8_t> mask = env.action_mask();
  for (int a = 0; a < GymEnv::action_count(); ++a) {
    GymEnv trial = env.fork();
    EXPECT_EQ(trial.step(a).changed, mask[static_cast<size_t>(a)] == 1) << Env::action_name(a);
  }
}

TEST(VectorEnv, EqualsSingleEnvsWhateverTheThreads) {
  const int n = 4, steps = 50, d = GymEnv(graphs(), options(6)).observation_size(), a = GymEnv::action_count();
  std::mt19937 rng(3);
  std::vector<std::vector<int64_t>> actions(steps, std::vector<int64_t>(n));
  for (auto& row : actions)
    for (auto& x : row) x = static_cast<int64_t>(rng() % static_cast<unsigned>(a));
  // Reference: single environments with next-step autoreset.
  std::vector<GymEnv> singles;
  for (int i = 0; i < n; ++i) singles.emplace_back(graphs(), options(6)), singles.back().reset(10 + i);
  std::vector<std::vector<float>> expected;
  std::vector<bool> ended(n, false);
  for (const auto& row : actions) {
    std::vector<float> obs(static_cast<size_t>(n * d));
    for (int i = 0; i < n; ++i) {
      if (ended[i]) singles[i].reset(), ended[i] = false;
      else {
        const GymStep s = singles[i].step(static_cast<int>(row[i]));
        ended[i] = s.truncated || s.terminated;
      }
      singles[i].observation(obs.data() + i * d);
    }
    expected.push_back(obs);
  }
  for (int threads : {1, 2}) {
    VectorEnv v(graphs(), options(6), n, threads);
    std::vector<float> obs(static_cast<size_t>(n * d));
    std::vector<double> rewards(n);
    std::vector<uint8_t> term(n), trunc(n), masks(static_cast<size_t>(n * a));
    VectorStepBuffers b{obs.data(), rewards.data(), term.data(), trunc.data(), nullptr, nullptr, nullptr, masks.data()};
    v.reset(10, b);
    for (int t = 0; t < steps; ++t) {
      v.step(actions[t].data(), b);
      ASSERT_EQ(obs, expected[t]) << "threads " << threads << " step " << t;
    }
  }
}

TEST(GraphObservation, OneDataEdgePerOperandAndCallEdges) {
  for (const char* name : {"fir8", "softmax", "attention_head"}) {
    const ir::Module m = design(name);
    const GraphObservation g = graph_observation(m);
    const ir::Features f = ir::extract_features(m);
    EXPECT_EQ(g.nodes(), f.instructions) << name;
    int64_t data = 0, calls = 0;
    for (int8_t t : g.edge_type) (t == 0 ? data : calls)++;
    EXPECT_EQ(data, f.edges) << name;
    EXPECT_GT(calls, 0) << name << " has reductions, which call a computation";
    ASSERT_EQ(static_cast<int64_t>(g.row_ptr.size()), g.nodes() + 1);
    EXPECT_EQ(g.row_ptr.back(), g.edges());
    EXPECT_EQ(static_cast<int64_t>(g.features.size()), g.nodes() * kGraphNodeFeatures);
  }
}

}  // namespace
}  // namespace hlsgym::rl
