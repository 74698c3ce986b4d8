// hlsgym distill --policy P --graphs DIR|FILE... [--clusters K] [--seed S] -o MAPPING.yaml:
// a trained policy turned into a lookup table (feature cluster -> pass sequence) that
// `optimize --order MAPPING.yaml` applies without a neural network (rl/distill.h).
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/graphs.h"
#include "cli/targets.h"
#include "ir/error.h"
#include "rl/distill.h"
#include "rl/policy_file.h"

namespace hlsgym::cli {
namespace {

struct DistillFlags {
  std::vector<std::string> graphs;
  std::string policy, output, normalization = "log1p", target;
  int clusters = 0;
  bool clusters_given = false, json = false;
  uint64_t seed = 1;
};

int run_distill(const DistillFlags& f) {
  const auto t0 = std::chrono::steady_clock::now();
  if (f.clusters_given && f.clusters <= 0)
    throw Error(fmt::format("--clusters must be a positive number of clusters (got {})", f.clusters));
  const std::string policy_path = resolve_policy(f.policy, "opcount", "");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(policy_path, ec)) throw Error(policy_path + ": no such policy file");
  if (!rl::is_policy_file(policy_path))
    throw Error(policy_path + ": not a policy file from `hlsgym train` (no `hlsgym-policy` header)");
  rl::PolicyFile policy = rl::load_policy(policy_path);
  rl::EnvOptions eo;
  if (rl::needs_hardware(rl::parse_reward_space(policy.reward)) || !f.target.empty())
    eo.target = load_cli_target(f.target, "");
  auto graphs = load_graphs(f.graphs);
  if (graphs.empty()) throw Error("--graphs: no graphs to distill the policy on");

  std::vector<rl::DistillSample> samples;
  for (auto& [name, module] : graphs) {
    std::vector<std::string> order = rl::policy_order(policy, module, eo);
    samples.push_back({name, std::move(module), std::move(order)});
  }
  rl::DistillOptions o;
  o.clusters = f.clusters_given ? f.clusters : 0;
  o.seed = f.seed;
  o.normalization = f.normalization;
  rl::Mapping m = rl::distill(samples, rl::policy_env_options(policy, eo), o);
  m.policy_path = f.policy;
  m.policy_algo = policy.algo;
  m.policy_observation = policy.observation;
  m.policy_reward = policy.reward;
  rl::save_mapping(m, f.output);

  // How often the table gives a training graph exactly the policy's order.
  int same = 0;
  std::vector<int> chosen;
  for (const auto& s : samples) {
    const rl::MappingMatch match = rl::lookup(m, s.graph);
    chosen.push_back(match.cluster);
    same += m.clusters[static_cast<size_t>(match.cluster)].sequence == s.order;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (f.json) {
    nlohmann::json clusters = nlohmann::json::array();
    for (size_t c = 0; c < m.clusters.size(); ++c)
      clusters.push_back({{"id", c}, {"sequence", m.clusters[c].sequence}, {"members", m.clusters[c].members}});
    nlohmann::json graphs_json = nlohmann::json::array();
    for (size_t i = 0; i < samples.size(); ++i)
      graphs_json.push_back({{"graph", samples[i].name}, {"policy_order", samples[i].order}, {"cluster", chosen[i]},
                             {"same_order", m.clusters[static_cast<size_t>(chosen[i])].sequence == samples[i].order}});
    nlohmann::json j = {{"mapping", f.output}, {"policy", f.policy}, {"clusters", clusters}, {"graphs", graphs_json},
                        {"same_order", same}, {"seconds", seconds}};
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  fmt::print("{} graphs, {} clusters ({} normalization, seed {})\n\n", samples.size(), m.clusters.size(),
             m.normalization, f.seed);
  fmt::print("{:>4}{:>9}{:>8}  {}\n", "id", "members", "passes", "sequence");
  for (size_t c = 0; c < m.clusters.size(); ++c) {
    std::string seq = fmt::format("{}", fmt::join(m.clusters[c].sequence, ","));
    if (seq.size() > 90) seq = seq.substr(0, 87) + "...";
    fmt::print("{:>4}{:>9}{:>8}  {}\n", c, m.clusters[c].members.size(), m.clusters[c].sequence.size(), seq);
  }
  fmt::print("\nthe table gives {} of {} training graphs exactly the policy's order\n", same, samples.size());
  fmt::print("wrote {} in {:.2f} s\n", f.output, seconds);
  return 0;
}

}  // namespace

void add_distill_command(CLI::App& app) {
  auto f = std::make_shared<DistillFlags>();
  CLI::App* cmd = app.add_subcommand(
      "distill",
      "Distill a trained policy into a lookup table that needs no neural network: run the\n"
      "policy (greedy) on every graph, cluster the graphs' feature vectors (log1p of the\n"
      "`stats` features; k-means with k-means++ seeding) and give each cluster one pass\n"
      "sequence: of its members' policy orders, the one best on the members by the policy's\n"
      "reward (each graph's cost relative to its initial cost; ties to the order most members\n"
      "share). `optimize --order MAPPING.yaml` runs the sequence of the nearest centroid, and\n"
      "`evaluate --policy MAPPING.yaml` evaluates the table like a policy. A graph alone in its\n"
      "cluster keeps exactly the policy's order, so with --clusters >= the number of graphs\n"
      "the table reproduces the policy on every training graph.");
  cmd->add_option("--policy", f->policy, "a policy file from `hlsgym train`, or `learned` (the shipped op-count\n"
                  "policy, designs/policies/learned.policy)")
      ->required();
  cmd->add_option("--graphs", f->graphs, "folders of .hlo/.yaml graphs, graph files, or .txt lists of them (one a line)")->required();
  cmd->add_option("--clusters", f->clusters,
                  "number of clusters K (at most the number of distinct feature vectors); default:\n"
                  "min(8, distinct policy orders, distinct feature vectors): few clusters\n"
                  "generalize to new graphs; many reproduce the policy on the training graphs");
  cmd->add_option("--seed", f->seed, "seed of the k-means++ initialization")->capture_default_str();
  cmd->add_option("--normalization", f->normalization,
                  "log1p (features as log1p(x)) or log1p-zscore (then standardized on these graphs)")
      ->check(CLI::IsMember({"log1p", "log1p-zscore"}))
      ->capture_default_str();
  cmd->add_option("--target", f->target, "hardware target for a policy trained on a hardware reward");
  cmd->add_option("-o,--output", f->output, "the mapping file to write (YAML)")->required();
  cmd->add_flag("--json", f->json, "print one JSON object: clusters, and per graph its cluster");
  cmd->callback([f, cmd] {
    f->clusters_given = cmd->count("--clusters") > 0;
    if (int rc = run_distill(*f); rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace hlsgym::cli
