#include "rl/spaces.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "ir/error.h"
#include "ir/features.h"
#include "rl/graph_wl.h"

namespace hlsgym::rl {
namespace {

const std::map<std::string, ObservationKind> kObservations = {
    {"opcount", ObservationKind::kOpcount}, {"features", ObservationKind::kFeatures},
    {"cost", ObservationKind::kCost}, {"history", ObservationKind::kHistory},
    {"graph-wl", ObservationKind::kGraphWl}, {"gnn", ObservationKind::kGnn}};
const std::map<std::string, RewardKind> kRewards = {
    {"opcount", RewardKind::kOpcount}, {"cycles", RewardKind::kCycles}, {"energy", RewardKind::kEnergy},
    {"area", RewardKind::kArea}, {"memory", RewardKind::kMemory}, {"hw", RewardKind::kHw}};

template <class Map>
std::string names_of(const Map& m) {
  std::string s;
  for (const auto& [k, v] : m) s += (s.empty() ? "" : ", ") + k;
  return s;
}

}  // namespace

std::vector<ObservationKind> parse_observation_space(const std::string& spec) {
  std::vector<ObservationKind> out;
  size_t start = 0;
  while (start <= spec.size()) {
    const size_t plus = spec.find('+', start);
    const std::string name = spec.substr(start, plus == std::string::npos ? std::string::npos : plus - start);
    auto it = kObservations.find(name);
    if (it == kObservations.end())
      throw Error("unknown observation space '" + name + "' (known: " + names_of(kObservations) + "; join with '+')");
    out.push_back(it->second);
    if (plus == std::string::npos) break;
    start = plus + 1;
  }
  return out;
}

RewardKind parse_reward_space(const std::string& name) {
  auto it = kRewards.find(name);
  if (it == kRewards.end()) throw Error("unknown reward space '" + name + "' (known: " + names_of(kRewards) + ")");
  return it->second;
}

std::string reward_name(RewardKind k) {
  for (const auto& [n, v] : kRewards)
    if (v == k) return n;
  return "?";
}

std::string observation_name(ObservationKind k) {
  for (const auto& [n, v] : kObservations)
    if (v == k) return n;
  return "?";
}

int observation_kind_size(ObservationKind k, int actions) {
  switch (k) {
    case ObservationKind::kOpcount: return ir::kOpcodeCount;
    case ObservationKind::kFeatures: return static_cast<int>(ir::Features::names().size());
    case ObservationKind::kCost: return kCostObservationSize;
    case ObservationKind::kHistory: return actions;
    case ObservationKind::kGraphWl: return kGraphWlSize;
    case ObservationKind::kGnn: return 0;  // the graph goes to the agent's encoder, not the vector
  }
  return 0;
}

int observation_space_size(const std::string& spec, int actions) {
  int n = 0;
  for (ObservationKind k : parse_observation_space(spec)) n += observation_kind_size(k, actions);
  return n;
}

bool needs_hardware(RewardKind k) { return k != RewardKind::kOpcount; }

HwWeights parse_hw_weights_yaml(const std::string& yaml_text, const std::string& where) {
  HwWeights w;
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    throw Error(where + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  if (!root.IsMap()) throw Error(where + ": hw reward weights must be a map like {cycles: 1, energy: 0.5}");
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>();
    if (key != "cycles" && key != "energy" && key != "area" && key != "memory")
      throw Error(where + ":" + std::to_string(kv.first.Mark().line + 1) + ": unknown hw weight '" + key +
                  "' (known: cycles, energy, area, memory)");
    double v = 0;
    try {
      v = kv.second.as<double>();
    } catch (const YAML::Exception&) {
      throw Error(where + ":" + std::to_string(kv.second.Mark().line + 1) + ": weight of '" + key + "' is not a number");
    }
    if (!(v >= 0)) throw Error(where + ": weight of '" + key + "' must be >= 0");
    w[key] = v;
  }
  if (w.empty()) throw Error(where + ": no hw reward weights given");
  return w;
}

bool has_gnn_observation(const std::string& spec) {
  const std::vector<ObservationKind> kinds = parse_observation_space(spec);
  return std::find(kinds.begin(), kinds.end(), ObservationKind::kGnn) != kinds.end();
}

}  // namespace hlsgym::rl
