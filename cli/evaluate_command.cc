// hlsgym evaluate --graphs DIR|FILE... --policy P [--reward R] [--target T] [--json]:
// a policy's orders against XLA's default order on a set of graphs (rl/evaluation.h).
// P is a policy file from `hlsgym train`, a mapping from `hlsgym distill`, or a search
// policy (greedy, beam, random, ga) or `default` (the flattened default order) as reference rows.
#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/graphs.h"
#include "cli/targets.h"
#include "dist/work_queue.h"
#include "dist/world.h"
#include "frontend/load.h"
#include "ir/error.h"
#include "rl/distill.h"
#include "rl/evaluation.h"
#include "rl/guided_search.h"
#include "rl/policy_file.h"

namespace hlsgym::cli {
namespace {
namespace fs = std::filesystem;

struct EvaluateFlags {
  std::vector<std::string> graphs;
  std::string policy = "greedy", reward = "opcount", target;
  int max_len = 30;
  int64_t budget_steps = 2000;
  int64_t refine_budget = 0;  // pass runs for policy-guided search (rl/guided_search.h); 0: none
  int refine_top_k = 2;  // rl::GuidedOptions::top_k
  bool json = false, no_baselines = false;
  uint64_t seed = 1;
};

nlohmann::json to_json(const rl::EvalReport& r) {
  nlohmann::json graphs = nlohmann::json::array();
  for (const auto& g : r.graphs) {
    if (!g.uncostable.empty()) {
      graphs.push_back({{"graph", g.graph}, {"uncostable", g.uncostable}, {"order", g.order}});
      continue;
    }
    nlohmann::json j = {{"graph", g.graph}, {"initial", g.initial}, {"default", g.default_cost}, {"policy", g.policy_cost},
                        {"at_least_default", g.policy_cost <= g.default_cost}, {"order", g.order},
                        {"policy_seconds", g.policy_seconds}, {"speedup", g.speedup}};
    j["ratio"] = g.ratio ? nlohmann::json(*g.ratio) : nlohmann::json(nullptr);
    if (g.random_cost) j["random"] = *g.random_cost;
    if (g.greedy_cost) j["greedy"] = *g.greedy_cost;
    graphs.push_back(j);
  }
  return {{"policy", r.policy}, {"reward", r.reward}, {"geomean", r.geomean_ratio},
          {"at_least_default", r.at_least_default}, {"geomean_speedup", r.geomean_speedup},
          {"undefined_ratio", r.undefined_ratio}, {"geomean_random", r.geomean_ratio_random},
          {"geomean_greedy", r.geomean_ratio_greedy}, {"uncostable", r.uncostable},
          {"uncostable_states", r.uncostable_states}, {"refused_steps", r.refused_steps}, {"graphs", graphs}};
}

void print_table(const rl::EvalReport& r) {
  fmt::print("policy {} on reward {}: I initial, D default order, R policy; ratio (I-R)/(I-D)\n\n", r.policy, r.reward);
  fmt::print("{:<48}{:>12}{:>12}{:>12}{:>9}{:>7}{:>12}{:>12}\n", "graph", "I", "D", "R", "ratio", "R<=D", "random", "greedy");
  auto opt = [](const std::optional<double>& x) { return x ? fmt::format("{:.6g}", *x) : std::string("-"); };
  for (const auto& g : r.graphs)
    if (!g.uncostable.empty())
      fmt::print("{:<48}  no hardware cost, left out: {}\n", g.graph.substr(0, 47), g.uncostable);
    else
      fmt::print("{:<48}{:>12.6g}{:>12.6g}{:>12.6g}{:>9}{:>7}{:>12}{:>12}\n", g.graph.substr(0, 47), g.initial,
               g.default_cost, g.policy_cost, g.ratio ? fmt::format("{:.3f}", *g.ratio) : "n/a",
               g.policy_cost <= g.default_cost ? "yes" : "no", opt(g.random_cost), opt(g.greedy_cost));
  const size_t defined = r.costed() - static_cast<size_t>(r.undefined_ratio);
  if (r.uncostable > 0 || r.uncostable_states > 0 || r.refused_steps > 0)
    fmt::print("\nhardware costs: {} of {} graphs left out (a state the model cannot cost: a loop of unproven trip "
               "count or an op without a cost model); {} distinct uncostable states met, {} steps into them refused\n",
               r.uncostable, r.graphs.size(), r.uncostable_states, r.refused_steps);
  if (defined == 0)
    fmt::print("\ngeomean (I-R)/(I-D) n/a: the default order gains nothing on any of the {} costed graphs\n", r.costed());
  else
    fmt::print("\ngeomean (I-R)/(I-D) {:.4f} over {} graphs ({} where the default order gains nothing: n/a)\n",
               r.geomean_ratio, defined, r.undefined_ratio);
  fmt::print("at least as good as the default order on {:.1f} % of {} graphs\n", 100 * r.at_least_default, r.costed());
  fmt::print("geomean D/R {:.4f}\n", r.geomean_speedup);
  double seconds = 0;
  for (const auto& g : r.graphs) seconds += g.policy_seconds;
  if (!r.graphs.empty())
    fmt::print("policy wall-clock {:.3g} ms per graph on average (each search baseline gets the same per graph)\n",
               1e3 * seconds / static_cast<double>(r.graphs.size()));
  const bool baselines = std::any_of(r.graphs.begin(), r.graphs.end(), [](const rl::GraphEval& g) { return g.random_cost.has_value(); });
  if (defined > 0 && baselines)
    fmt::print("baselines at the policy's wall-clock per graph: geomean ratio random {:.4f}, greedy {:.4f}\n",
               r.geomean_ratio_random, r.geomean_ratio_greedy);
}

int run_evaluate(const EvaluateFlags& f) {
  rl::EnvOptions eo;
  eo.reward = f.reward;
  if (rl::needs_hardware(rl::parse_reward_space(f.reward)) || !f.target.empty()) eo.target = load_cli_target(f.target, "");
  const auto graphs = load_graphs(f.graphs);
  rl::OrderPolicy policy;
  const std::string path = resolve_policy(f.policy, f.reward, f.target);
  if (rl::is_policy_file(path)) {
    auto file = std::make_shared<rl::PolicyFile>(rl::load_policy(path));
    if (file->reward != f.reward && dist::is_root())
      fmt::print(stderr, "note: the policy was trained on reward {}, evaluated on {}\n", file->reward, f.reward);
    if (f.refine_budget > 0) {
      rl::GuidedOptions go;
      go.budget_steps = f.refine_budget, go.top_k = f.refine_top_k, go.seed = f.seed;
      policy = {fmt::format("{} + guided beam (top {}, {} pass runs)", f.policy, f.refine_top_k, f.refine_budget),
                [file, eo, go](const ir::Module& g, const std::string&) { return rl::guided_order(*file, g, eo, go).order; }};
    } else {
      policy = {f.policy, [file, eo](const ir::Module& g, const std::string&) { return rl::policy_order(*file, g, eo); }};
    }
  } else if (f.refine_budget > 0) {
    throw Error("--refine-budget refines a policy's order: give --policy learned or a policy file");
  } else if (rl::is_mapping_file(path)) {
    auto mapping = std::make_shared<rl::Mapping>(rl::load_mapping(path));
    if (!mapping->policy_reward.empty() && mapping->policy_reward != f.reward && dist::is_root())
      fmt::print(stderr, "note: the mapping was distilled from a policy trained on reward {}, evaluated on {}\n",
                 mapping->policy_reward, f.reward);
    policy = {f.policy, [mapping](const ir::Module& g, const std::string&) {
                return mapping->clusters[static_cast<size_t>(rl::lookup(*mapping, g).cluster)].sequence;
              }};
  } else {
    policy = rl::search_policy(f.policy, eo, f.max_len, f.budget_steps);
  }
  rl::EvalOptions o;
  o.baselines = !f.no_baselines;
  o.seed = f.seed;
  // Graphs are handed out to the ranks of an MPI job one at a time (one process: in order
  // here); rank 0 gets the rows back in graph order and prints what one process prints.
  dist::WorkItems work;
  work.items = static_cast<int>(graphs.size());
  work.what = "graphs";
  work.run = [&](int i, int) {
    const auto& [id, g] = graphs[static_cast<size_t>(i)];
    return rl::encode_graph_eval(rl::evaluate_graph(id, g, eo, policy, o));
  };
  work.label = [&](int i) { return "graph " + graphs[static_cast<size_t>(i)].first; };
  const std::vector<std::string> results = dist::run_work_items(work);
  if (!dist::is_root()) return 0;
  std::vector<rl::GraphEvalPart> rows;
  for (const std::string& bytes : results) rows.push_back(rl::decode_graph_eval(bytes));
  const rl::EvalReport r = rl::summarize_evaluation(policy.name, eo.reward, std::move(rows));
  if (f.json) fmt::print("{}\n", to_json(r).dump(2));
  else print_table(r);
  return 0;
}

}  // namespace

void add_evaluate_command(CLI::App& app) {
  auto f = std::make_shared<EvaluateFlags>();
  CLI::App* cmd = app.add_subcommand(
      "evaluate",
      "Evaluate a policy's pass orders against XLA's default order on a set of graphs: per\n"
      "graph I (initial), D (default order), R (policy) and (I-R)/(I-D); the geomean; the share\n"
      "of graphs where R <= D; random and greedy search at the policy's wall-clock per graph.");
  cmd->add_option("--graphs", f->graphs, "folders of .hlo/.yaml graphs, graph files, or .txt lists of them (one a line)")->required();
  cmd->add_option("--policy", f->policy,
                  "a policy file from `hlsgym train`, `learned` (the shipped policy for --reward and\n"
                  "--target: designs/policies/README.md), a mapping from\n"
                  "`hlsgym distill`, or a search policy: greedy, beam, random, ga, default (the\n"
                  "flattened default order)")
      ->capture_default_str();
  cmd->add_option("--reward", f->reward, "opcount, cycles, energy, area, memory or hw")->capture_default_str();
  cmd->add_option("--target", f->target, "hardware target for hardware rewards: fpga, cpu or FILE.yaml");
  cmd->add_option("--max-len", f->max_len, "longest order a search policy considers")->capture_default_str();
  cmd->add_option("--budget-steps", f->budget_steps, "pass runs a search policy may spend per graph")
      ->capture_default_str();
  cmd->add_option("--refine-budget", f->refine_budget,
                  "with a policy file: refine its order per graph from its end state (a beam over its\n"
                  "top-k actions, fixed-point rounds of the passes that changed the cost, a beam\n"
                  "again), within this many pass runs in all (compare with --policy beam\n"
                  "--budget-steps N at the same N); 0: the policy's order")
      ->check(CLI::NonNegativeNumber)->capture_default_str();
  cmd->add_option("--refine-top-k", f->refine_top_k, "the policy's best actions tried per state by --refine-budget")
      ->check(CLI::Range(1, 1000))->capture_default_str();
  cmd->add_flag("--no-baselines", f->no_baselines, "skip random and greedy search at equal wall-clock");
  cmd->add_option("--seed", f->seed, "random seed")->capture_default_str();
  cmd->add_flag("--json", f->json, "print one JSON object");
  cmd->callback([f] {
    if (int rc = run_evaluate(*f); rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace hlsgym::cli
