// The message-passing encoder (rl/gnn.h): its manual backprop against finite differences
// for every parameter group, an output that does not depend on instruction order or names,
// the graph it reads, and the gnn observation end to end: PPO trains with it
// deterministically, its policy file round-trips and drives policy_order, and a file whose
// observation and network disagree is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <random>
#include <sstream>

#include "frontend/hlo_parser.h"
#include "ir/error.h"
#include "ir/random_module.h"
#include "passes/default_order.h"
#include "rl/action_names.h"
#include "rl/actor_critic.h"
#include "rl/gnn.h"
#include "rl/graph_train_env.h"
#include "rl/policy_file.h"
#include "tests/rl/rl_test_util.h"

namespace hlsgym::rl {
namespace {

ir::Module random_graph(uint64_t seed, int instructions = 30) {
  ir::RandomModuleOptions o;
  o.seed = seed;
  o.instructions = instructions;
  return ir::random_module(o);
}

// loss = sum(out .* weights): dLoss/dOut = weights.
double loss(GnnEncoder& e, const std::vector<const GnnGraph*>& graphs, const Eigen::MatrixXd& weights) {
  return (e.predict(graphs).array() * weights.array()).sum();
}

TEST(Gnn, BackpropMatchesFiniteDifferencesForEveryParameterGroup) {
  const auto a = gnn_graph(random_graph(3)), b = gnn_graph(random_graph(7)), c = gnn_graph(random_graph(11, 12));
  const std::vector<const GnnGraph*> batch = {a.get(), b.get(), c.get(), a.get()};  // a graph twice, as minibatches do
  GnnEncoder e(6, 5);
  // Biases off zero so the ReLUs are not all at their kink for constant inputs.
  std::mt19937_64 rng(9);
  std::normal_distribution<double> normal(0.0, 0.3);
  for (auto& p : e.parameters())
    if (p.rows() == 1)
      for (Eigen::Index k = 0; k < p.size(); ++k) p.data()[k] = normal(rng);
  Eigen::MatrixXd w(static_cast<Eigen::Index>(batch.size()), e.output_size());
  for (Eigen::Index k = 0; k < w.size(); ++k) w.data()[k] = normal(rng);
  e.zero_grad();
  e.forward(batch);
  e.backward(w);
  const std::vector<Eigen::MatrixXd> analytic = e.gradients();
  ASSERT_EQ(analytic.size(), 4u + 2u * kGnnRounds);
  const double h = 1e-6;
  for (size_t group = 0; group < analytic.size(); ++group) {
    Eigen::MatrixXd& p = e.parameters()[group];
    double worst = 0, largest = 0;
    for (Eigen::Index k = 0; k < p.size(); ++k) {
      const double keep = p.data()[k];
      p.data()[k] = keep + h;
      const double up = loss(e, batch, w);
      p.data()[k] = keep - h;
      const double down = loss(e, batch, w);
      p.data()[k] = keep;
      const double numeric = (up - down) / (2 * h);
      worst = std::max(worst, std::abs(numeric - analytic[group].data()[k]));
      largest = std::max(largest, std::abs(numeric));
    }
    EXPECT_GT(largest, 1e-3) << "group " << group << " has no gradient to check";
    EXPECT_LT(worst, 1e-6 * std::max(1.0, largest)) << "group " << group;
  }
}

// The same graph with its nodes numbered by `perm` (new index of old node i is perm[i]).
GnnGraph permuted(const GnnGraph& g, const std::vector<int>& perm) {
  const int n = g.nodes();
  std::vector<int> old_of(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) old_of[static_cast<size_t>(perm[static_cast<size_t>(i)])] = i;
  GnnGraph p;
  p.dense.resize(n, kGnnDenseFeatures);
  auto relist = [&](const std::vector<int32_t>& ptr, const std::vector<int32_t>& col, std::vector<int32_t>& nptr,
                    std::vector<int32_t>& ncol) {
    nptr.assign(1, 0);
    for (int v = 0; v < n; ++v) {
      const auto u = static_cast<size_t>(old_of[static_cast<size_t>(v)]);
      std::vector<int32_t> edges;
      for (int32_t t = ptr[u]; t < ptr[u + 1]; ++t) edges.push_back(perm[static_cast<size_t>(col[static_cast<size_t>(t)])]);
      std::reverse(edges.begin(), edges.end());  // and the operand lists in another order
      ncol.insert(ncol.end(), edges.begin(), edges.end());
      nptr.push_back(static_cast<int32_t>(ncol.size()));
    }
  };
  for (int v = 0; v < n; ++v) {
    const auto u = static_cast<size_t>(old_of[static_cast<size_t>(v)]);
    p.label1.push_back(g.label1[u]);
    p.label2.push_back(g.label2[u]);
    p.dense.row(v) = g.dense.row(static_cast<Eigen::Index>(u));
  }
  relist(g.op_ptr, g.op_col, p.op_ptr, p.op_col);
  relist(g.user_ptr, g.user_col, p.user_ptr, p.user_col);
  return p;
}

TEST(Gnn, TheOutputDoesNotDependOnTheNodeOrder) {
  GnnEncoder e(16, 2);
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    const auto g = gnn_graph(random_graph(seed, 80));
    std::vector<int> perm(static_cast<size_t>(g->nodes()));
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), std::mt19937_64(seed));
    const GnnGraph p = permuted(*g, perm);
    const Eigen::MatrixXd x = e.predict({g.get()}), y = e.predict({&p});
    EXPECT_LT((x - y).cwiseAbs().maxCoeff(), 1e-12) << "seed " << seed;
    EXPECT_GT(x.cwiseAbs().maxCoeff(), 0.0);
  }
}

// testutil::kLoopHlo written again: instructions in other orders and under other names.
const char* const kOrdered = testutil::kLoopHlo;

const char* kShuffled = R"(HloModule renamed

loop_condition {
  k3 = s32[] constant(3)
  param_c = (s32[], f32[4,4]) parameter(0)
  counter = s32[] get-tuple-element(param_c), index=0
  ROOT less = pred[] compare(counter, k3), direction=LT
}

ENTRY entry_fn {
  ROOT sum = f32[4,4] add(result, flat_back)
  flat_back = f32[4,4] reshape(scaled)
  result = f32[4,4] get-tuple-element(loop), index=1
  loop = (s32[], f32[4,4]) while(start), condition=loop_condition, body=loop_body
  start = (s32[], f32[4,4]) tuple(zero, input)
  zero = s32[] constant(0)
  scaled = f32[16] multiply(flat, twos)
  twos = f32[16] broadcast(two), dimensions={}
  two = f32[] constant(2)
  flat = f32[16] reshape(input)
  input = f32[4,4] parameter(0)
}

loop_body {
  ROOT next = (s32[], f32[4,4]) tuple(inc, prod)
  prod = f32[4,4] dot(tr, mat), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  tr = f32[4,4] transpose(mat), dimensions={1,0}
  mat = f32[4,4] get-tuple-element(param_b), index=1
  inc = s32[] add(cnt, unit)
  unit = s32[] constant(1)
  cnt = s32[] get-tuple-element(param_b), index=0
  param_b = (s32[], f32[4,4]) parameter(0)
}
)";

TEST(Gnn, RenamingAndReorderingInstructionsChangesNothing) {
  const ir::Module a = frontend::parse_hlo(kOrdered), b = frontend::parse_hlo(kShuffled);
  const auto ga = gnn_graph(a), gb = gnn_graph(b);
  ASSERT_EQ(ga->nodes(), static_cast<int>(a.instruction_count()));
  ASSERT_EQ(ga->nodes(), gb->nodes());
  EXPECT_EQ(ga->op_col.size(), gb->op_col.size());
  GnnEncoder e(16, 4);
  const Eigen::MatrixXd x = e.predict({ga.get()}), y = e.predict({gb.get()});
  EXPECT_LT((x - y).cwiseAbs().maxCoeff(), 1e-12);
  // ... and the graph matters: a different one reads differently.
  const auto other = gnn_graph(random_graph(1));
  EXPECT_GT((x - e.predict({other.get()})).cwiseAbs().maxCoeff(), 1e-6);
}

TEST(Gnn, TheGraphHasEveryLiveInstructionAndItsOperandAndCallEdges) {
  const ir::Module m = frontend::parse_hlo(kOrdered);
  const auto g = gnn_graph(m);
  size_t operands = 0, calls = 0;
  for (ir::CompId c : m.live_computations())
    for (ir::InstrId i : m.instructions(c)) operands += m.operands(i).size(), calls += m.called(i).size();
  EXPECT_EQ(g->op_col.size(), operands + calls);  // while: body and condition roots
  EXPECT_EQ(g->user_col.size(), g->op_col.size());
  // Dead slots left by passes are not nodes.
  ir::Module after = random_graph(5, 60);
  passes::make_default_order()->run(after);
  EXPECT_EQ(gnn_graph(after)->nodes(), static_cast<int>(after.instruction_count()));
}

std::vector<std::pair<std::string, ir::Module>> graphs() {
  std::vector<std::pair<std::string, ir::Module>> g;
  for (const char* name : {"fir8", "softmax", "layernorm"}) g.emplace_back(name, testutil::design(name));
  return g;
}

std::unique_ptr<Agent> trained(uint64_t seed) {
  EnvOptions eo;
  eo.observation = "opcount+gnn";
  eo.max_steps = 8;
  GraphTrainEnv env(graphs(), eo);
  AgentOptions o;
  o.seed = seed, o.gnn_hidden = 8;
  auto agent = make_agent(o, env.observation_size(), Env::action_count());
  agent->train(env, 512);
  return agent;
}

TEST(Gnn, PpoTrainsWithTheGraphDeterministicallyAndItsPolicyFileRoundTrips) {
  const auto a = trained(1), b = trained(1);
  EXPECT_TRUE(a->same_state(*b));
  EXPECT_EQ(a->observation_size(), ir::kOpcodeCount);
  std::stringstream s1, s2;
  a->save(s1);
  EXPECT_EQ(s1.str().rfind("ppo 3\n", 0), 0u);
  auto back = load_agent(s1);
  EXPECT_TRUE(back->same_state(*a));
  back->save(s2);
  EXPECT_EQ(s2.str(), [&] { std::stringstream s; a->save(s); return s.str(); }());

  PolicyFile p;
  p.observation = "opcount+gnn";
  p.max_steps = 8;
  p.actions = action_names();
  p.agent = trained(2);
  const std::string path = (std::filesystem::temp_directory_path() / "gnn_roundtrip.policy").string();
  save_policy(p, path);
  PolicyFile q = load_policy(path);
  const ir::Module fir8 = testutil::design("fir8");
  EXPECT_EQ(policy_order(p, fir8, {}), policy_order(q, fir8, {}));
  // Scores need the graph: the observation alone is refused, not silently misread.
  EXPECT_THROW(q.agent->action_scores(std::vector<double>(ir::kOpcodeCount, 0.0)), Error);
  std::filesystem::remove(path);
}

TEST(Gnn, AFileWhoseObservationAndNetworkDisagreeIsRefused) {
  const std::string path = (std::filesystem::temp_directory_path() / "gnn_mismatch.policy").string();
  auto expect_refused = [&](const PolicyFile& p, const std::string& words) {
    save_policy(p, path);
    try {
      load_policy(path);
      ADD_FAILURE() << "loaded";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  PolicyFile gnn;
  gnn.observation = "opcount";  // but its network has an encoder
  gnn.actions = action_names();
  AgentOptions o;
  o.gnn_hidden = 8;
  gnn.agent = make_agent(o, ir::kOpcodeCount, Env::action_count());
  expect_refused(gnn, "has no 'gnn' space");
  PolicyFile plain;
  plain.observation = "opcount+gnn";  // but no encoder
  plain.actions = action_names();
  plain.agent = make_agent(AgentOptions{}, ir::kOpcodeCount, Env::action_count());
  expect_refused(plain, "has no graph encoder");
  // Files without the encoder (agent version 2) still load and are still written as before.
  plain.observation = "opcount";
  save_policy(plain, path);
  EXPECT_NO_THROW(load_policy(path));
  std::stringstream s;
  plain.agent->save(s);
  EXPECT_EQ(s.str().rfind("ppo 2\n", 0), 0u);
  std::filesystem::remove(path);
}

TEST(Gnn, TheGraphObservationIsForTheActorCriticLearners) {
  AgentOptions o;
  o.algo = "dqn", o.gnn_hidden = 8;
  EXPECT_THROW(make_agent(o, 4, 3), Error);
}

}  // namespace
}  // namespace hlsgym::rl
