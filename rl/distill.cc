#include "rl/distill.h"

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <limits>
#include <map>
#include <random>
#include <set>

#include "ir/error.h"
#include "ir/line_endings.h"
#include "ir/features.h"
#include "passes/order.h"
#include "passes/registry.h"
#include "rl/random.h"

namespace hlsgym::rl {
namespace {

constexpr const char* kHeaderKey = "hlsgym-mapping";

double squared_distance(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
  return s;
}

std::vector<double> log1p_features(const ir::Module& graph) {
  std::vector<double> v = ir::extract_features(graph).to_vector();
  for (double& x : v) x = std::log1p(std::isfinite(x) ? std::max(x, 0.0) : 0.0);
  return v;
}

std::vector<std::vector<double>> kmeans_plus_plus(const std::vector<std::vector<double>>& points, int k,
                                                  std::mt19937_64& rng) {
  std::vector<std::vector<double>> centers{points[rng() % points.size()]};
  std::vector<double> d2(points.size());
  for (size_t i = 0; i < points.size(); ++i) d2[i] = squared_distance(points[i], centers[0]);
  while (static_cast<int>(centers.size()) < k) {
    double total = 0;
    for (double x : d2) total += x;
    if (total <= 0) break;  // every point is already a center
    const double r = unit_interval(rng) * total;
    size_t pick = 0;
    double acc = 0;
    for (size_t i = 0; i < points.size(); ++i) {
      if (d2[i] <= 0) continue;
      pick = i;
      acc += d2[i];
      if (acc > r) break;
    }
    centers.push_back(points[pick]);
    for (size_t i = 0; i < points.size(); ++i) d2[i] = std::min(d2[i], squared_distance(points[i], centers.back()));
  }
  return centers;
}

int nearest(const std::vector<std::vector<double>>& centers, const std::vector<double>& p, double* d2_out = nullptr) {
  int best = 0;
  double best_d = std::numeric_limits<double>::infinity();
  for (size_t c = 0; c < centers.size(); ++c) {
    const double d = squared_distance(centers[c], p);
    if (d < best_d) best_d = d, best = static_cast<int>(c);
  }
  if (d2_out) *d2_out = best_d;
  return best;
}

// The mean as first + mean of differences: members with identical vectors give exactly that
// vector back, so a graph alone (or with copies of itself) is its cluster's centroid.
std::vector<double> mean_of(const std::vector<std::vector<double>>& points, const std::vector<size_t>& members) {
  std::vector<double> m = points[members.front()];
  std::vector<double> diff(m.size(), 0.0);
  for (size_t i : members)
    for (size_t j = 0; j < m.size(); ++j) diff[j] += points[i][j] - m[j];
  for (size_t j = 0; j < m.size(); ++j) m[j] += diff[j] / static_cast<double>(members.size());
  return m;
}

KMeansResult lloyd(const std::vector<std::vector<double>>& points, std::vector<std::vector<double>> centers) {
  KMeansResult r;
  r.assignment.assign(points.size(), -1);
  for (int iter = 0; iter < 300; ++iter) {
    bool changed = false;
    for (size_t i = 0; i < points.size(); ++i) {
      const int c = nearest(centers, points[i]);
      changed |= c != r.assignment[i];
      r.assignment[i] = c;
    }
    std::vector<std::vector<size_t>> members(centers.size());
    for (size_t i = 0; i < points.size(); ++i) members[static_cast<size_t>(r.assignment[i])].push_back(i);
    for (size_t c = 0; c < centers.size(); ++c) {
      if (!members[c].empty()) {
        centers[c] = mean_of(points, members[c]);
        continue;
      }
      // An empty cluster takes the point farthest from its own centroid.
      size_t far = 0;
      double far_d = -1;
      for (size_t i = 0; i < points.size(); ++i) {
        const double d = squared_distance(points[i], centers[static_cast<size_t>(r.assignment[i])]);
        if (d > far_d) far_d = d, far = i;
      }
      centers[c] = points[far];
      r.assignment[far] = static_cast<int>(c);
      changed = true;
    }
    if (!changed) break;
  }
  r.inertia = 0;
  for (size_t i = 0; i < points.size(); ++i) r.inertia += squared_distance(points[i], centers[static_cast<size_t>(r.assignment[i])]);
  r.centroids = std::move(centers);
  return r;
}

template <typename T>
size_t distinct_count(const std::vector<T>& xs) {
  return std::set<T>(xs.begin(), xs.end()).size();
}

// Index into `candidates` of the order that is best on the cluster's members (see the header).
size_t best_sequence(const std::vector<std::vector<std::string>>& candidates, const std::vector<const DistillSample*>& members,
                     const std::vector<int>& votes, size_t nearest_member_candidate, const EnvOptions& env_options) {
  if (candidates.size() == 1) return 0;
  std::vector<double> score(candidates.size(), 0.0);
  for (const DistillSample* s : members) {
    Env env(env_options);
    if (!env.uncostable(s->graph).empty()) continue;  // no hardware cost to score it by
    env.reset(s->graph, s->name);
    const double initial = env.initial_cost();
    for (size_t c = 0; c < candidates.size(); ++c) {
      ir::Module m = s->graph;
      if (!candidates[c].empty()) passes::make_pipeline(candidates[c])->run(m);
      // A sequence that leaves a member without a hardware cost is never the best.
      const std::optional<double> cost = env.cost_of_module(m);
      score[c] += !cost ? std::numeric_limits<double>::infinity() : initial > 0 ? *cost / initial : *cost;
    }
  }
  size_t best = 0;
  auto better = [&](size_t a, size_t b) {
    if (std::isfinite(score[a]) != std::isfinite(score[b])) return std::isfinite(score[a]);
    const double tol = 1e-9 * std::max(1.0, std::abs(score[b]));
    if (score[a] < score[b] - tol) return true;
    if (score[a] > score[b] + tol) return false;
    if (votes[a] != votes[b]) return votes[a] > votes[b];
    return a == nearest_member_candidate && b != nearest_member_candidate;
  };
  for (size_t c = 1; c < candidates.size(); ++c)
    if (better(c, best)) best = c;
  return best;
}

std::string yaml_string(const std::string& s) {
  bool plain = !s.empty();
  for (char ch : s) plain &= std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.' || ch == '/';
  if (plain && (std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-' || s[0] == '.')) plain = false;
  if (plain) return s;
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + '"';
}

std::string yaml_strings(const std::vector<std::string>& xs) {
  std::string out = "[";
  for (size_t i = 0; i < xs.size(); ++i) out += (i ? ", " : "") + yaml_string(xs[i]);
  return out + "]";
}

// fmt's "{}" for a double is the shortest text that reads back as the same double.
std::string yaml_numbers(const std::vector<double>& xs) { return fmt::format("[{}]", fmt::join(xs, ", ")); }

}  // namespace

KMeansResult kmeans(const std::vector<std::vector<double>>& points, int k, uint64_t seed, int restarts) {
  if (points.empty()) throw Error("k-means: no points");
  if (k <= 0) throw Error("k-means: the number of clusters must be positive");
  k = std::min(k, static_cast<int>(points.size()));
  KMeansResult best;
  best.inertia = std::numeric_limits<double>::infinity();
  for (int r = 0; r < std::max(restarts, 1); ++r) {
    std::mt19937_64 rng = substream(seed, r);
    KMeansResult run = lloyd(points, kmeans_plus_plus(points, k, rng));
    if (run.inertia < best.inertia) best = std::move(run);
  }
  return best;
}

int default_cluster_count(const std::vector<DistillSample>& samples) {
  std::vector<std::vector<std::string>> orders;
  std::vector<std::vector<double>> features;
  for (const auto& s : samples) orders.push_back(s.order), features.push_back(log1p_features(s.graph));
  return static_cast<int>(std::min({size_t{8}, distinct_count(orders), distinct_count(features)}));
}

std::vector<double> mapping_features(const Mapping& m, const ir::Module& graph) {
  std::vector<double> v = log1p_features(graph);
  if (v.size() != m.center.size() || v.size() != m.scale.size())
    throw Error(fmt::format("mapping: {} features, this build computes {}", m.center.size(), v.size()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = (v[i] - m.center[i]) / m.scale[i];
  return v;
}

MappingMatch nearest_cluster(const Mapping& m, const std::vector<double>& normalized) {
  MappingMatch best;
  double best_d2 = std::numeric_limits<double>::infinity();
  for (size_t c = 0; c < m.clusters.size(); ++c) {
    const double d2 = squared_distance(m.clusters[c].centroid, normalized);
    if (d2 < best_d2) best_d2 = d2, best.cluster = static_cast<int>(c);
  }
  // Finite numbers in the file can still overflow the distance (centroid 1e300): no
  // cluster is then nearer than another, and that is the file's fault, not a choice.
  if (best.cluster < 0)
    throw Error("no cluster is at a finite distance from this graph's features (a centroid, center or scale in "
                "the mapping file is out of range)",
                {m.file.empty() ? std::string("mapping") : m.file});
  best.distance = std::sqrt(best_d2);
  return best;
}

MappingMatch lookup(const Mapping& m, const ir::Module& graph) { return nearest_cluster(m, mapping_features(m, graph)); }

Mapping distill(const std::vector<DistillSample>& samples, const EnvOptions& env, const DistillOptions& o) {
  if (samples.empty()) throw Error("distill: no graphs to distill the policy on");
  if (o.clusters < 0) throw Error(fmt::format("distill: the number of clusters must be positive (got {})", o.clusters));
  if (o.normalization != "log1p" && o.normalization != "log1p-zscore")
    throw Error("distill: unknown normalization '" + o.normalization + "' (log1p or log1p-zscore)");
  Mapping m;
  m.normalization = o.normalization;
  m.feature_names = ir::Features::names();
  std::vector<std::vector<double>> raw;
  for (const auto& s : samples) raw.push_back(log1p_features(s.graph));
  const size_t dim = m.feature_names.size();
  m.center.assign(dim, 0.0);
  m.scale.assign(dim, 1.0);
  if (o.normalization == "log1p-zscore") {
    const double n = static_cast<double>(raw.size());
    for (size_t j = 0; j < dim; ++j) {
      double mean = 0, var = 0;
      for (const auto& v : raw) mean += v[j] / n;
      for (const auto& v : raw) var += (v[j] - mean) * (v[j] - mean) / n;
      m.center[j] = mean;
      // A feature constant on the training set keeps its log1p units rather than an
      // unbounded weight on the first graph that differs.
      m.scale[j] = std::sqrt(var) > 1e-3 ? std::sqrt(var) : 1.0;
    }
  }
  std::vector<std::vector<double>> points = raw;
  for (auto& v : points)
    for (size_t j = 0; j < dim; ++j) v[j] = (v[j] - m.center[j]) / m.scale[j];

  const int k = o.clusters > 0 ? std::min(o.clusters, static_cast<int>(distinct_count(points))) : default_cluster_count(samples);
  const KMeansResult km = kmeans(points, k, o.seed, o.restarts);

  // Clusters renumbered by their first member, so the file reads in the graphs' order.
  std::vector<int> first_seen;
  for (int a : km.assignment)
    if (std::find(first_seen.begin(), first_seen.end(), a) == first_seen.end()) first_seen.push_back(a);
  for (int c : first_seen) {
    MappingCluster cluster;
    cluster.centroid = km.centroids[static_cast<size_t>(c)];
    std::vector<const DistillSample*> members;
    std::vector<std::vector<std::string>> candidates;
    std::vector<int> votes;
    size_t nearest_candidate = 0;
    double nearest_d2 = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < samples.size(); ++i) {
      if (km.assignment[i] != c) continue;
      members.push_back(&samples[i]);
      cluster.members.push_back(samples[i].name);
      auto it = std::find(candidates.begin(), candidates.end(), samples[i].order);
      const size_t idx = static_cast<size_t>(it - candidates.begin());
      if (it == candidates.end()) candidates.push_back(samples[i].order), votes.push_back(0);
      ++votes[idx];
      if (const double d2 = squared_distance(points[i], cluster.centroid); d2 < nearest_d2) nearest_d2 = d2, nearest_candidate = idx;
    }
    cluster.sequence = candidates[best_sequence(candidates, members, votes, nearest_candidate, env)];
    m.clusters.push_back(std::move(cluster));
  }
  return m;
}

void save_mapping(const Mapping& m, const std::string& path) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw Error(path + ": cannot write the mapping file");
    out << kHeaderKey << ": " << Mapping::kVersion << "\n";
    out << "# A pass-ordering policy distilled into (feature cluster -> pass sequence) by `hlsgym distill`.\n"
           "# A graph's features (ir/features.h) are normalized as (log1p(x) - center) / scale; the\n"
           "# nearest centroid (Euclidean) gives the sequence `hlsgym optimize --order THIS_FILE` runs.\n";
    out << "policy: {path: " << yaml_string(m.policy_path) << ", algo: " << yaml_string(m.policy_algo)
        << ", observation: " << yaml_string(m.policy_observation) << ", reward: " << yaml_string(m.policy_reward) << "}\n";
    out << "features:\n  normalization: " << m.normalization << "\n  names: " << yaml_strings(m.feature_names)
        << "\n  center: " << yaml_numbers(m.center) << "\n  scale: " << yaml_numbers(m.scale) << "\n";
    out << "clusters:\n";
    for (size_t c = 0; c < m.clusters.size(); ++c) {
      const MappingCluster& k = m.clusters[c];
      out << "  - id: " << c << "\n    sequence: " << yaml_strings(k.sequence) << "\n    members: "
          << yaml_strings(k.members) << "\n    centroid: " << yaml_numbers(k.centroid) << "\n";
    }
    if (!out) throw Error(path + ": writing the mapping file failed");
  }
  std::filesystem::rename(tmp, path);
}

bool is_mapping_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  std::istringstream in(normalize_line_endings(std::move(text).str()));
  std::string line;
  while (std::getline(in, line)) {
    const size_t start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos || line[start] == '#') continue;
    return line.compare(start, std::string(kHeaderKey).size() + 1, std::string(kHeaderKey) + ":") == 0;
  }
  return false;
}

namespace {

[[noreturn]] void fail(const std::string& path, const YAML::Node& at, const std::string& message) {
  const YAML::Mark mk = at.Mark();
  throw Error(message, SourceLocation{path, mk.line >= 0 ? mk.line + 1 : 0, mk.column >= 0 ? mk.column + 1 : 0});
}

YAML::Node required(const std::string& path, const YAML::Node& map, const char* key, const std::string& where) {
  const YAML::Node n = map[key];
  if (!n) fail(path, map, where + "missing `" + key + "`");
  return n;
}

std::vector<double> read_numbers(const std::string& path, const YAML::Node& n, const std::string& what, size_t expected) {
  if (!n.IsSequence()) fail(path, n, what + " must be a list of numbers");
  if (n.size() != expected)
    fail(path, n, fmt::format("{} has {} values, expected {} (one per feature)", what, n.size(), expected));
  std::vector<double> out;
  for (const auto& x : n) {
    double v = 0;
    if (!x.IsScalar() || !YAML::convert<double>::decode(x, v) || !std::isfinite(v))
      fail(path, x, what + ": '" + (x.IsScalar() ? x.Scalar() : std::string("?")) + "' is not a finite number");
    out.push_back(v);
  }
  return out;
}

std::vector<std::string> read_strings(const std::string& path, const YAML::Node& n, const std::string& what) {
  if (!n.IsSequence()) fail(path, n, what + " must be a list");
  std::vector<std::string> out;
  for (const auto& x : n) {
    if (!x.IsScalar()) fail(path, x, what + " must list names");
    out.push_back(x.Scalar());
  }
  return out;
}

Mapping parse_mapping(const std::string& path, const YAML::Node& root) {
  if (!root.IsMap() || !root[kHeaderKey]) fail(path, root, "not an hlsgym mapping file (no `hlsgym-mapping: 1` header)");
  if (root[kHeaderKey].Scalar() != std::to_string(Mapping::kVersion))
    fail(path, root[kHeaderKey], fmt::format("mapping version '{}' is not supported (this build reads {})",
                                             root[kHeaderKey].Scalar(), Mapping::kVersion));
  Mapping m;
  if (const YAML::Node p = root["policy"]; p && p.IsMap()) {
    auto get = [&](const char* k) { return p[k] && p[k].IsScalar() ? p[k].Scalar() : std::string(); };
    m.policy_path = get("path");
    m.policy_algo = get("algo");
    m.policy_observation = get("observation");
    m.policy_reward = get("reward");
  }
  const YAML::Node f = required(path, root, "features", "");
  if (!f.IsMap()) fail(path, f, "`features` must be a map");
  m.normalization = required(path, f, "normalization", "features: ").Scalar();
  if (m.normalization != "log1p" && m.normalization != "log1p-zscore")
    fail(path, f["normalization"], "unknown normalization '" + m.normalization + "' (log1p or log1p-zscore)");
  m.feature_names = read_strings(path, required(path, f, "names", "features: "), "features.names");
  const std::vector<std::string> ours = ir::Features::names();
  if (m.feature_names.size() != ours.size())
    fail(path, f["names"], fmt::format("the mapping has {} features, this build computes {} (re-run `hlsgym distill`)",
                                       m.feature_names.size(), ours.size()));
  for (size_t i = 0; i < ours.size(); ++i)
    if (m.feature_names[i] != ours[i])
      fail(path, f["names"], fmt::format("feature {} is '{}' in the mapping but '{}' in this build (re-run `hlsgym distill`)",
                                         i, m.feature_names[i], ours[i]));
  m.center = read_numbers(path, required(path, f, "center", "features: "), "features.center", ours.size());
  m.scale = read_numbers(path, required(path, f, "scale", "features: "), "features.scale", ours.size());
  for (double s : m.scale)
    if (s <= 0) fail(path, f["scale"], "features.scale must be positive");
  const YAML::Node clusters = required(path, root, "clusters", "");
  if (!clusters.IsSequence() || clusters.size() == 0) fail(path, clusters, "`clusters` must be a non-empty list");
  for (size_t c = 0; c < clusters.size(); ++c) {
    const YAML::Node k = clusters[c];
    const std::string where = fmt::format("cluster {}: ", c);
    if (!k.IsMap()) fail(path, k, where + "must be a map");
    MappingCluster mc;
    mc.centroid = read_numbers(path, required(path, k, "centroid", where), where + "centroid", ours.size());
    const YAML::Node seq = required(path, k, "sequence", where);
    mc.sequence = read_strings(path, seq, where + "sequence");
    for (size_t i = 0; i < mc.sequence.size(); ++i) {
      if (passes::Registry::global().find(mc.sequence[i])) continue;
      try {
        passes::Registry::global().create(mc.sequence[i]);
      } catch (const Error& e) {
        fail(path, seq[i], where + e.message());
      }
    }
    if (k["members"]) mc.members = read_strings(path, k["members"], where + "members");
    m.clusters.push_back(std::move(mc));
  }
  return m;
}

}  // namespace

Mapping load_mapping(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot read the mapping file");
  std::ostringstream text;
  text << in.rdbuf();
  YAML::Node root;
  try {
    root = YAML::Load(normalize_line_endings(std::move(text).str()));  // yaml-cpp reads no CR-only lines
  } catch (const YAML::Exception& e) {
    throw Error(e.msg, SourceLocation{path, e.mark.line >= 0 ? e.mark.line + 1 : 0, e.mark.column >= 0 ? e.mark.column + 1 : 0});
  }
  try {
    Mapping m = parse_mapping(path, root);
    m.file = path;
    return m;
  } catch (const YAML::Exception& e) {
    throw Error(e.msg, SourceLocation{path, e.mark.line >= 0 ? e.mark.line + 1 : 0, 0});
  }
}

}  // namespace hlsgym::rl
