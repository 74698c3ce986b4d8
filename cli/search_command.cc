// hlsgym search DESIGN --algo random|greedy|beam|ga|exhaustive --reward R [--target T]
// [--budget-s S|--budget-steps N] [--max-len L] [--seed S] [--no-directives] [--json]: the search
// baselines over pass orders (rl/search.h).
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/targets.h"
#include "dist/work_queue.h"
#include "dist/world.h"
#include "frontend/load.h"
#include "ir/error.h"
#include "passes/registry.h"
#include "rl/search.h"

namespace hlsgym::cli {
namespace {

struct SearchFlags {
  std::string design, algo = "greedy", reward = "opcount", target, weights;
  double budget_s = 0;
  int64_t budget_steps = 0, max_states = 200000;
  int max_len = 30, beam_width = 4, patience = 50, restarts = 1;
  uint64_t seed = 1;
  bool json = false, no_directives = false;
};

int run_search(const SearchFlags& f) {
  if (f.budget_s < 0 || f.budget_steps < 0) throw Error("budgets must be >= 0");
  frontend::Design d = frontend::load_design(f.design);
  rl::EnvOptions eo;
  eo.reward = f.reward;
  if (!f.weights.empty()) {
    std::ifstream in(f.weights);
    if (!in) throw Error(f.weights + ": cannot read the hw reward weights");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    eo.hw_weights = rl::parse_hw_weights_yaml(text, f.weights);
  }
  if (rl::needs_hardware(rl::parse_reward_space(f.reward)) || !f.target.empty())
    eo.target = load_cli_target(f.target, d.target);
  if (f.no_directives) eo.actions = passes::Registry::global().count_through(passes::kFirstActions);
  rl::SearchOptions so;
  so.algo = rl::parse_search_algo(f.algo);
  so.budget_seconds = f.budget_s;
  so.budget_steps = f.budget_steps;
  so.max_len = f.max_len;
  so.seed = f.seed;
  so.beam_width = f.beam_width;
  so.patience = f.patience;
  so.max_states = f.max_states;
  // Restarts are handed out to the ranks of an MPI job one at a time; rank 0 gets them back
  // in restart order and keeps the best, as one process does.
  dist::WorkItems work;
  work.items = f.restarts;
  work.what = "search restarts (--restarts)";
  work.run = [&](int k, int) { return rl::encode_search_result(rl::search(d.module, d.name, eo, rl::restart_options(so, k))); };
  work.label = [&](int k) { return "design " + d.name + ", restart " + std::to_string(k); };
  const std::vector<std::string> results = dist::run_work_items(work);
  if (!dist::is_root()) return 0;
  std::vector<rl::SearchResult> all;
  for (const std::string& bytes : results) all.push_back(rl::decode_search_result(bytes));
  int best = 0;
  const rl::SearchResult r = rl::best_restart(all, &best);
  if (f.json) {
    nlohmann::json j = {{"design", d.name}, {"algo", f.algo}, {"reward", f.reward}, {"order", r.order},
                        {"instructions", r.instructions}, {"cost", r.cost}, {"initial_cost", r.initial_cost},
                        {"default_cost", r.default_cost ? nlohmann::json(*r.default_cost) : nlohmann::json(nullptr)},
                        {"evaluations", r.evaluations}, {"states", r.states}, {"seconds", r.seconds},
                        {"optimal", r.optimal}, {"budget_exhausted", r.budget_exhausted}, {"refused", r.refused}};
    if (!r.default_cost) j["default_uncostable"] = r.default_uncostable;
    if (eo.target) j["target"] = eo.target->name;
    if (f.restarts > 1) j["restarts"] = f.restarts, j["best_restart"] = best;
    fmt::print("{}\n", j.dump(2));
    return 0;
  }
  fmt::print("design        {}\nsearch        {} on reward {}{}\n", d.name, f.algo, f.reward,
             eo.target ? " (target " + eo.target->name + ")" : "");
  fmt::print("cost          {:.6g} (initial {:.6g}, default order {})\n", r.cost, r.initial_cost,
             r.default_cost ? fmt::format("{:.6g}", *r.default_cost) : "not costable: " + r.default_uncostable);
  fmt::print("instructions  {:.0f}\n", r.instructions);
  if (f.restarts > 1)
    fmt::print("restarts      {} (seeds {}..{}), best: restart {}\n", f.restarts, f.seed, f.seed + f.restarts - 1, best);
  fmt::print("order         {} passes: {}\n", r.order.size(), fmt::join(r.order, ","));
  fmt::print("evaluations   {} pass runs in {:.3f} s{}{}\n", r.evaluations, r.seconds,
             r.states ? fmt::format(", {} distinct states", r.states) : "",
             r.optimal ? " (exhaustive: optimal)" : (r.budget_exhausted ? " (budget exhausted)" : ""));
  if (r.refused > 0)
    fmt::print("refused       {} pass runs led to a state the hardware model cannot cost (never taken)\n", r.refused);
  return 0;
}

}  // namespace

void add_search_command(CLI::App& app) {
  auto f = std::make_shared<SearchFlags>();
  CLI::App* cmd = app.add_subcommand(
      "search",
      "Search for a pass order that minimizes a cost (the baselines a learned policy must\n"
      "beat). Replaying the printed order with `optimize --order` reproduces the result.");
  cmd->add_option("DESIGN", f->design, "a .yaml design or a .hlo XLA HLO text file")->required();
  cmd->add_option("--algo", f->algo,
                  "random (random orders, with patience), greedy (best single pass, repeated),\n"
                  "beam (best --beam-width distinct states per depth), ga (genetic algorithm),\n"
                  "exhaustive (every distinct state within --max-len; optimal when it closes)")
      ->check(CLI::IsMember({"random", "greedy", "beam", "ga", "exhaustive"}))
      ->capture_default_str();
  cmd->add_option("--reward", f->reward,
                  "the cost to minimize: opcount (instructions), cycles, energy, area, memory\n"
                  "(hardware model), hw (weighted sum, see --weights)")
      ->capture_default_str();
  cmd->add_option("--target", f->target, "hardware target for hardware rewards: fpga, cpu or FILE.yaml");
  cmd->add_option("--weights", f->weights, "YAML map of hw reward weights, e.g. {cycles: 1, energy: 0.5}");
  cmd->add_option("--budget-s", f->budget_s, "wall-clock budget in seconds (0: none)");
  cmd->add_option("--budget-steps", f->budget_steps,
                  "budget in pass runs (0: none; random and ga then stop at 5000)");
  cmd->add_option("--max-len", f->max_len, "longest order considered")->capture_default_str();
  cmd->add_option("--beam-width", f->beam_width, "beam search width")->capture_default_str();
  cmd->add_option("--patience", f->patience, "random search: orders without improvement before stopping")
      ->capture_default_str();
  cmd->add_option("--max-states", f->max_states, "exhaustive search: state limit")->capture_default_str();
  cmd->add_option("--seed", f->seed, "random seed")->capture_default_str();
  cmd->add_option("--restarts", f->restarts,
                  "independent searches with seeds SEED, SEED+1, ...; the best (lowest cost, then\n"
                  "earliest) is printed, with the evaluations of all. Under mpirun the restarts are\n"
                  "spread over the ranks")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000));
  cmd->add_flag("--no-directives", f->no_directives,
                "search the optimization passes only, without the HLS directive passes (unroll-x2,\n"
                "unroll-halve, loop-pipeline-off, loop-pipeline-on): what the directives gain is the difference");
  cmd->add_flag("--json", f->json, "print one JSON object");
  cmd->callback([f] {
    if (int rc = run_search(*f); rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace hlsgym::cli
