// Distilling a policy into a feature-cluster lookup (rl/distill.h): k-means is
// deterministic and finds separated clusters; with one cluster per graph the table gives
// every training graph its own order back; a shared cluster takes the order best on its
// members; the YAML file round-trips and bad files are refused naming the problem.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "frontend/hlo_parser.h"
#include "ir/error.h"
#include "rl/distill.h"
#include "tests/rl/rl_test_util.h"
#include "tests/support/test_data.h"

namespace hlsgym::rl {
namespace {
namespace fs = std::filesystem;

TEST(KMeans, FindsSeparatedBlobsDeterministically) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0.0, 0.1);
  const std::vector<std::vector<double>> centers = {{0, 0}, {10, 0}, {0, 10}};
  std::vector<std::vector<double>> points;
  std::vector<int> truth;
  for (int i = 0; i < 60; ++i) {
    const auto& c = centers[static_cast<size_t>(i % 3)];
    points.push_back({c[0] + noise(rng), c[1] + noise(rng)});
    truth.push_back(i % 3);
  }
  const KMeansResult a = kmeans(points, 3, 42);
  const KMeansResult b = kmeans(points, 3, 42);
  EXPECT_EQ(a.assignment, b.assignment);
  EXPECT_EQ(a.centroids, b.centroids);
  ASSERT_EQ(a.centroids.size(), 3u);
  // Same truth label <=> same cluster.
  for (size_t i = 0; i < points.size(); ++i)
    for (size_t j = 0; j < points.size(); ++j)
      EXPECT_EQ(truth[i] == truth[j], a.assignment[i] == a.assignment[j]) << i << " " << j;
  EXPECT_LT(a.inertia, 60 * 4 * 0.1 * 0.1);  // ~ the noise variance per point
  EXPECT_EQ(kmeans(points, 500, 1).centroids.size(), points.size());  // k is clamped to the points
  EXPECT_THROW(kmeans({}, 2, 1), Error);
  EXPECT_THROW(kmeans(points, 0, 1), Error);
}

std::vector<DistillSample> design_samples() {
  // Distinct made-up orders, one per design: what a policy could have chosen.
  const std::vector<std::vector<std::string>> orders = {
      {"algsimp"}, {"cse", "dce"}, {}, {"dce"}, {"algsimp", "cse"}, {"constant_folding"}, {"reshape-mover"}};
  std::vector<DistillSample> out;
  size_t i = 0;
  for (const auto& path : testing::all_designs()) {
    out.push_back({path.stem().string(), testutil::design(path.stem().string()), orders[i % orders.size()]});
    if (i >= orders.size()) out.back().order.push_back("cse");  // keep every order distinct
    if (i >= 2 * orders.size()) out.back().order.push_back("dce");
    ++i;
  }
  return out;
}

TEST(Distill, OneClusterPerGraphReproducesEveryOrder) {
  const auto samples = design_samples();
  ASSERT_GE(samples.size(), 10u);
  for (const std::string norm : {"log1p", "log1p-zscore"}) {
    DistillOptions o;
    o.clusters = static_cast<int>(samples.size());
    o.normalization = norm;
    const Mapping m = distill(samples, EnvOptions{}, o);
    ASSERT_EQ(m.clusters.size(), samples.size()) << norm;
    for (const auto& s : samples) {
      const MappingMatch match = lookup(m, s.graph);
      EXPECT_EQ(m.clusters[static_cast<size_t>(match.cluster)].sequence, s.order) << norm << " " << s.name;
      EXPECT_NEAR(match.distance, 0.0, 1e-9) << s.name;  // a graph alone is its centroid
    }
  }
}

TEST(Distill, SharedClusterTakesTheOrderBestOnItsMembers) {
  // Two graphs that algsimp shrinks (x + 0, x * 1) and one order that does nothing on them.
  const ir::Module add0 = frontend::parse_hlo(R"(HloModule a
ENTRY e {
  p = f32[8] parameter(0)
  z = f32[] constant(0)
  zb = f32[8] broadcast(z), dimensions={}
  ROOT r = f32[8] add(p, zb)
})");
  const ir::Module mul1 = frontend::parse_hlo(R"(HloModule b
ENTRY e {
  p = f32[8] parameter(0)
  o = f32[] constant(1)
  ob = f32[8] broadcast(o), dimensions={}
  ROOT r = f32[8] multiply(p, ob)
})");
  const std::vector<DistillSample> samples = {{"add0", add0, {"dce"}}, {"mul1", mul1, {"algsimp", "dce"}}};
  DistillOptions o;
  o.clusters = 1;
  const Mapping m = distill(samples, EnvOptions{}, o);
  ASSERT_EQ(m.clusters.size(), 1u);
  EXPECT_EQ(m.clusters[0].sequence, (std::vector<std::string>{"algsimp", "dce"}));
  EXPECT_EQ(m.clusters[0].members, (std::vector<std::string>{"add0", "mul1"}));
}

TEST(Distill, DefaultClusterCountIsSmall) {
  const auto samples = design_samples();
  const int k = default_cluster_count(samples);
  EXPECT_GE(k, 1);
  EXPECT_LE(k, 8);
  EXPECT_EQ(distill(samples, EnvOptions{}, DistillOptions{}).clusters.size(), static_cast<size_t>(k));
  EXPECT_THROW(distill({}, EnvOptions{}, DistillOptions{}), Error);
  DistillOptions bad;
  bad.normalization = "zscore";
  EXPECT_THROW(distill(samples, EnvOptions{}, bad), Error);
}

TEST(MappingFile, RoundTripsAndRefusesBadFiles) {
  const auto samples = design_samples();
  DistillOptions o;
  o.normalization = "log1p-zscore";
  o.clusters = 5;
  Mapping m = distill(samples, EnvOptions{}, o);
  m.policy_path = "p.policy";
  m.policy_algo = "ppo";
  m.policy_reward = "opcount";
  const fs::path dir = hlsgym::testing::scratch("hlsgym_distill_test");
  fs::create_directories(dir);
  const std::string path = (dir / "m.yaml").string();
  save_mapping(m, path);
  ASSERT_TRUE(is_mapping_file(path));
  const Mapping back = load_mapping(path);
  EXPECT_EQ(back.normalization, m.normalization);
  EXPECT_EQ(back.policy_reward, "opcount");
  EXPECT_EQ(back.center, m.center);  // shortest round-trip text: exact
  EXPECT_EQ(back.scale, m.scale);
  ASSERT_EQ(back.clusters.size(), m.clusters.size());
  for (size_t c = 0; c < m.clusters.size(); ++c) {
    EXPECT_EQ(back.clusters[c].centroid, m.clusters[c].centroid);
    EXPECT_EQ(back.clusters[c].sequence, m.clusters[c].sequence);
    EXPECT_EQ(back.clusters[c].members, m.clusters[c].members);
  }
  for (const auto& s : samples) EXPECT_EQ(lookup(back, s.graph).cluster, lookup(m, s.graph).cluster) << s.name;

  auto rewrite = [&](const std::string& from, const std::string& to) {
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    const std::string bad = (dir / "bad.yaml").string();
    std::ofstream(bad) << text;
    return bad;
  };
  auto error_of = [](const std::string& p) {
    try {
      load_mapping(p);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const std::string version = error_of(rewrite("hlsgym-mapping: 1", "hlsgym-mapping: 7"));
  EXPECT_NE(version.find("bad.yaml"), std::string::npos) << version;
  EXPECT_NE(version.find('7'), std::string::npos) << version;
  const std::string seq = m.clusters[0].sequence.empty() ? "sequence: []" : "sequence: [";
  const std::string pass = error_of(rewrite(seq, m.clusters[0].sequence.empty() ? "sequence: [no-such-pass]"
                                                                                  : "sequence: [no-such-pass, "));
  EXPECT_NE(pass.find("no-such-pass"), std::string::npos) << pass;
  EXPECT_FALSE(is_mapping_file((dir / "missing.yaml").string()));
  EXPECT_THROW(load_mapping((dir / "missing.yaml").string()), Error);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace hlsgym::rl
