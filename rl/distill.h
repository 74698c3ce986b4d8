// Distilling a pass-ordering policy into a lookup table (the offline pipeline): the
// policy's order for every graph of a training set, the graphs' feature vectors
// (ir/features.h) clustered with k-means, and per cluster one pass sequence. Applying the
// table needs no neural network: normalize the graph's features, take the nearest
// centroid (Euclidean), run its sequence.
//
// Normalization: x -> log1p(max(x, 0)) per feature (counts and flops span orders of
// magnitude; a difference in log space is a ratio), then (t - center) / scale with the
// center and scale stored in the mapping (center 0 and scale 1 for "log1p"; the training
// set's mean and standard deviation, floored, for "log1p-zscore").
//
// A cluster's sequence: among the distinct policy orders of its members, the one whose
// replay on the members is best by the policy's reward, each member's cost relative to its
// initial cost so that every graph counts equally; ties go to the order more members
// share, then to the order of the member nearest the centroid. A graph alone in its
// cluster therefore keeps exactly the policy's order: with K >= the number of distinct
// feature vectors, the mapping reproduces the policy on every training graph.
//
// File (YAML, versioned):
//   hlsgym-mapping: 1
//   policy: {path: ..., algo: ppo, observation: opcount, reward: opcount}
//   features: {normalization: log1p, names: [...], center: [...], scale: [...]}
//   clusters:
//     - {id: 0, centroid: [...], sequence: [pass, ...], members: [graph, ...]}
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ir/module.h"
#include "rl/env.h"

namespace hlsgym::rl {

struct MappingCluster {
  std::vector<double> centroid;        // in the normalized space
  std::vector<std::string> sequence;   // pass names, run once each in order
  std::vector<std::string> members;    // training graphs (for humans)
};

struct Mapping {
  static constexpr int kVersion = 1;
  std::string policy_path, policy_algo, policy_observation, policy_reward;
  std::string normalization = "log1p";  // "log1p" or "log1p-zscore"
  std::vector<std::string> feature_names;
  std::vector<double> center, scale;
  std::vector<MappingCluster> clusters;
  std::string file;  // where load_mapping read it (for messages); not saved
};

struct DistillOptions {
  // 0: min(8, distinct orders, distinct feature vectors). Few clusters generalize: the
  // shipped policy distilled on its training graphs keeps most of its held-out gain with
  // K = 4..8 and loses much of it with K >= 16, where small clusters carry orders fitted
  // to one or two graphs.
  int clusters = 0;
  uint64_t seed = 1;
  std::string normalization = "log1p";
  int restarts = 8;  // k-means++ initializations; the lowest within-cluster sum of squares wins
};

// One training graph with the policy's order for it.
struct DistillSample {
  std::string name;
  ir::Module graph;
  std::vector<std::string> order;
};

// Clusters the samples and picks each cluster's sequence (replays scored with `env`'s
// reward). The policy_* fields are left for the caller. Throws hlsgym::Error for no
// samples, clusters < 0 or an unknown normalization.
Mapping distill(const std::vector<DistillSample>& samples, const EnvOptions& env, const DistillOptions& o);

// Normalized feature vector of `graph` under the mapping's normalization.
std::vector<double> mapping_features(const Mapping& m, const ir::Module& graph);

struct MappingMatch {
  int cluster = -1;
  double distance = 0;  // Euclidean, normalized space
};
MappingMatch lookup(const Mapping& m, const ir::Module& graph);
MappingMatch nearest_cluster(const Mapping& m, const std::vector<double>& normalized);

// The default cluster count for a sample set (see DistillOptions::clusters).
int default_cluster_count(const std::vector<DistillSample>& samples);

void save_mapping(const Mapping& m, const std::string& path);
// Validates the header and version, feature names against this build, vector lengths and
// pass names (against passes::Registry); throws hlsgym::Error naming the file.
Mapping load_mapping(const std::string& path);
bool is_mapping_file(const std::string& path);  // its first key is `hlsgym-mapping`

// Deterministic k-means (k-means++ seeding from `seed`, `restarts` runs, Lloyd iterations to
// a fixed point): the cluster index of every point and the centroids.
struct KMeansResult {
  std::vector<int> assignment;
  std::vector<std::vector<double>> centroids;
  double inertia = 0;
};
KMeansResult kmeans(const std::vector<std::vector<double>>& points, int k, uint64_t seed, int restarts = 8);

}  // namespace hlsgym::rl
