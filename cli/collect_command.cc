// hlsgym collect --graphs DIR|FILE... -o DATA.csv [--behavior random|POLICY|learned]
// [--epsilon E] [--episodes N] [--episode-len L] [--reward R] [--observation O] [--seed S]:
// the offline pipeline's first step, a dataset of transitions from a behavior policy
// (rl/dataset.h) that `train --dataset` learns from without running the compiler.
#include <fmt/core.h>

#include <algorithm>

#include <chrono>
#include <map>
#include <optional>

#include "cli/commands.h"
#include "cli/graphs.h"
#include "cli/targets.h"
#include "dist/work_queue.h"
#include "dist/world.h"
#include "ir/error.h"
#include "rl/dataset.h"
#include "rl/policy_file.h"

namespace hlsgym::cli {
namespace {

struct CollectFlags {
  std::vector<std::string> graphs;
  std::string output, behavior = "random", reward = "opcount", target;
  std::string observation;  // empty: the behavior policy's, opcount for random
  double epsilon = -1;  // -1: 1 for random, 0.1 for a policy
  int episodes = 4, episode_len = 30, threads = 2;
  uint64_t seed = 1;
  bool shaping = false;
};

// One process: rl::collect on --threads threads. An MPI job: graphs handed out one at a time
// to the ranks' threads (each its own environment and behavior, as rl::collect's threads);
// rank 0 gets every graph's rows back in graph order, so the dataset is the same file.
std::optional<rl::Dataset> collect_on_ranks(const std::vector<std::pair<std::string, ir::Module>>& graphs,
                                            const rl::EnvOptions& eo, const rl::CollectOptions& co,
                                            const std::function<rl::Behavior()>& make_behavior) {
  if (dist::size() == 1) return rl::collect(graphs, eo, co, make_behavior);
  std::vector<std::optional<rl::Env>> envs(static_cast<size_t>(co.threads));
  std::vector<rl::Behavior> behaviors(static_cast<size_t>(co.threads));
  dist::WorkItems work;
  work.items = static_cast<int>(graphs.size());
  work.threads = co.threads;
  work.what = "graphs";
  work.run = [&](int i, int t) {
    auto& env = envs[static_cast<size_t>(t)];
    if (!env) {
      env.emplace(eo);
      if (make_behavior) behaviors[static_cast<size_t>(t)] = make_behavior();
    }
    return rl::encode_rows(rl::collect_graph_rows(*env, graphs, static_cast<size_t>(i), co, behaviors[static_cast<size_t>(t)]));
  };
  work.label = [&](int i) { return "graph " + graphs[static_cast<size_t>(i)].first; };
  const std::vector<std::string> results = dist::run_work_items(work);
  if (!dist::is_root()) return std::nullopt;
  std::vector<std::vector<rl::DatasetRow>> per_graph;
  for (const std::string& bytes : results) per_graph.push_back(rl::decode_rows(bytes));
  return rl::assemble_dataset(eo, co, std::move(per_graph));
}

int run_collect(const CollectFlags& f) {
  const auto t0 = std::chrono::steady_clock::now();
  rl::EnvOptions eo;
  eo.reward = f.reward;
  eo.observation = f.observation.empty() ? "opcount" : f.observation;
  eo.max_steps = f.episode_len;
  eo.shaping = f.shaping;
  rl::CollectOptions co;
  co.episodes_per_graph = f.episodes;
  co.seed = f.seed;
  co.threads = f.threads;
  std::function<rl::Behavior()> make_behavior;
  if (f.behavior == "random") {
    co.epsilon = 1;
    if (f.epsilon >= 0 && f.epsilon != 1) throw Error("--epsilon applies to a policy behavior; random is epsilon 1");
  } else {
    const std::string path = resolve_policy(f.behavior, f.reward, f.target);
    if (!rl::is_policy_file(path))
      throw Error("--behavior " + f.behavior + ": neither `random` nor a policy file from `hlsgym train`");
    const rl::PolicyFile probe = rl::load_policy(path);
    if (f.observation.empty()) eo.observation = probe.observation;  // what the policy needs
    if (probe.observation != eo.observation)
      throw Error(fmt::format("--behavior {}: the policy observes '{}', the dataset would record '{}' (pass "
                              "--observation {})", f.behavior, probe.observation, eo.observation, probe.observation));
    const auto kinds = rl::parse_observation_space(probe.observation);
    if (static_cast<int>(probe.actions.size()) != rl::Env::action_count() &&
        std::find(kinds.begin(), kinds.end(), rl::ObservationKind::kHistory) != kinds.end())
      throw Error(fmt::format("--behavior {}: the policy's history observation covers its {} actions, the dataset's "
                              "would cover this build's {}; collect with a policy trained by this build",
                              f.behavior, probe.actions.size(), rl::Env::action_count()));
    co.epsilon = f.epsilon >= 0 ? f.epsilon : 0.1;
    co.behavior_name = f.behavior;
    make_behavior = [path] {
      auto policy = std::make_shared<rl::PolicyFile>(rl::load_policy(path));  // one per thread
      return rl::Behavior([policy](const rl::Env& e, const std::vector<double>& obs) { return policy->agent->act(obs, e.module()); });
    };
  }
  if (rl::needs_hardware(rl::parse_reward_space(f.reward)) || !f.target.empty()) eo.target = load_cli_target(f.target, "");
  const auto graphs = keep_costable(load_graphs(f.graphs), eo, "collect");
  const std::optional<rl::Dataset> collected = collect_on_ranks(graphs, eo, co, make_behavior);
  if (!collected) return 0;  // a rank of an MPI job other than 0: rank 0 writes the dataset
  const rl::Dataset& d = *collected;
  rl::save_dataset(d, f.output);

  std::map<std::string, int> per_pass;
  double total_reward = 0;
  for (const auto& r : d.rows) total_reward += r.t.reward, ++per_pass[d.info.actions[static_cast<size_t>(r.t.action)]];
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fmt::print("{} transitions ({} graphs x {} episodes x <= {} steps), behavior {} (epsilon {}), {} actions used\n",
             d.rows.size(), graphs.size(), f.episodes, f.episode_len, co.behavior_name, co.epsilon, per_pass.size());
  fmt::print("observation {} ({} values), reward {}: mean reward per step {:.4g}\n", d.info.observation,
             d.info.observation_size, d.info.reward, d.rows.empty() ? 0.0 : total_reward / static_cast<double>(d.rows.size()));
  fmt::print("wrote {} in {:.2f} s ({:.0f} steps/s)\n", f.output, seconds, static_cast<double>(d.rows.size()) / seconds);
  return 0;
}

}  // namespace

void add_collect_command(CLI::App& app) {
  auto f = std::make_shared<CollectFlags>();
  CLI::App* cmd = app.add_subcommand(
      "collect",
      "Collect a dataset of transitions for offline training: episodes of a behavior policy\n"
      "on every graph, each step recorded as (observation, action, reward, next observation,\n"
      "done). The file is CSV with a '# hlsgym-dataset' header line (pandas:\n"
      "read_csv(path, comment='#')); `train --dataset DATA.csv --algo dqn` learns from it\n"
      "without running the compiler. Deterministic per seed, whatever --threads.");
  cmd->add_option("--graphs", f->graphs, "folders of .hlo/.yaml graphs, graph files, or .txt lists of them (one a line)")->required();
  cmd->add_option("-o,--output", f->output, "the dataset file to write (CSV)")->required();
  cmd->add_option("--behavior", f->behavior,
                  "random (uniform over passes), a policy file, or learned (the shipped policy for\n"
                  "--reward and --target), acting greedily except with probability --epsilon")
      ->capture_default_str();
  cmd->add_option("--epsilon", f->epsilon, "exploration rate of a policy behavior (default 0.1)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--episodes", f->episodes, "episodes per graph")->capture_default_str()->check(CLI::Range(1, 1000000));
  cmd->add_option("--episode-len", f->episode_len, "passes per episode")->capture_default_str()->check(CLI::Range(1, 10000));
  cmd->add_option("--reward", f->reward, "opcount, cycles, energy, area, memory or hw")->capture_default_str();
  cmd->add_option("--target", f->target, "hardware target for hardware rewards: fpga, cpu or FILE.yaml");
  cmd->add_option("--observation", f->observation,
                  "observation spaces joined by '+'; default: the --behavior policy's, opcount for random");
  cmd->add_flag("--shaping", f->shaping, "record shaped rewards (phi = -(flops + 2 transcendentals))");
  cmd->add_option("--seed", f->seed, "random seed")->capture_default_str();
  cmd->add_option("--threads", f->threads, "worker threads (graphs are spread over them)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  cmd->callback([f] {
    if (int rc = run_collect(*f); rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace hlsgym::cli
