// hlsgym train --graphs DIR|FILE... --reward R [--algo ppo] [--steps N] [--seed S]
// [--episode-len L] [--observation O] [--hidden 64,64] [--shaping] -o POLICY [--resume]:
// trains a pass-ordering policy. Progress on stderr (steps/s, ETA, mean return); the
// learning curve as POLICY.csv and POLICY.svg; checkpoints every --checkpoint-s seconds,
// written atomically, which --resume continues.
#include <fmt/core.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/commands.h"
#include "cli/graphs.h"
#include "cli/targets.h"
#include "ir/error.h"
#include "rl/graph_train_env.h"
#include "rl/policy_file.h"

namespace hlsgym::cli {
namespace {
namespace fs = std::filesystem;

struct TrainFlags {
  std::vector<std::string> graphs;
  std::string reward = "opcount", target, algo = "ppo", observation = "opcount", hidden = "64,64", output;
  int64_t steps = 200000;
  int episode_len = 30;
  uint64_t seed = 1;
  double checkpoint_s = 120;
  bool shaping = false, resume = false, normalize = false;
};

std::vector<int> parse_sizes(const std::string& s) {
  std::vector<int> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(std::stoi(item));
  for (int x : out)
    if (x <= 0 || x > 8192) throw Error("--hidden sizes must be in 1..8192");
  return out;
}

// The learning curve as an SVG line chart (mean return against steps).
void write_curve_svg(const std::string& path, const std::vector<std::pair<int64_t, double>>& pts) {
  if (pts.empty()) return;
  double lo = pts[0].second, hi = lo;
  for (const auto& p : pts) lo = std::min(lo, p.second), hi = std::max(hi, p.second);
  if (hi - lo < 1e-12) hi = lo + 1;
  const double max_x = static_cast<double>(std::max<int64_t>(pts.back().first, 1));
  std::ofstream out(path);
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"360\" font-family=\"monospace\" font-size=\"11\">\n"
      << "<text x=\"10\" y=\"16\">mean episode return vs steps (" << lo << " .. " << hi << ")</text>\n"
      << "<rect x=\"40\" y=\"30\" width=\"580\" height=\"300\" fill=\"none\" stroke=\"#999\"/>\n<polyline fill=\"none\" "
         "stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"";
  for (const auto& [x, y] : pts)
    out << 40 + 580 * static_cast<double>(x) / max_x << ',' << 330 - 300 * (y - lo) / (hi - lo) << ' ';
  out << "\"/>\n<text x=\"40\" y=\"348\">0</text><text x=\"560\" y=\"348\">" << pts.back().first << "</text>\n</svg>\n";
}

int run_train(const TrainFlags& f) {
  if (f.algo != "ppo") throw Error("--algo " + f.algo + ": only ppo is implemented so far (a2c and dqn are planned)");
  if (f.steps <= 0) throw Error("--steps must be positive");
  rl::EnvOptions eo;
  eo.reward = f.reward;
  eo.observation = f.observation;
  eo.max_steps = f.episode_len;
  eo.shaping = f.shaping;
  eo.normalize_by_default = f.normalize;
  if (rl::needs_hardware(rl::parse_reward_space(f.reward)) || !f.target.empty()) eo.target = load_cli_target(f.target, "");
  rl::GraphTrainEnv env(load_graphs(f.graphs), eo);
  rl::PolicyFile policy;
  if (f.resume && fs::exists(f.output)) {
    policy = rl::load_policy(f.output);
    fmt::print(stderr, "resuming {} at step {}\n", f.output, policy.agent.steps_done());
  } else {
    rl::PpoOptions po;
    po.hidden = parse_sizes(f.hidden);
    po.seed = f.seed;
    policy.agent = rl::Ppo(env.observation_size(), env.action_count(), po);
    policy.observation = f.observation, policy.reward = f.reward, policy.max_steps = f.episode_len;
    for (int a = 0; a < rl::Env::action_count(); ++a) policy.actions.push_back(rl::Env::action_name(a));
  }
  const std::string csv = f.output + ".csv";
  std::vector<std::pair<int64_t, double>> curve;
  std::ofstream log(csv, f.resume ? std::ios::app : std::ios::trunc);
  if (!f.resume) log << "steps,mean_return,episodes,seconds\n";
  const auto t0 = std::chrono::steady_clock::now();
  auto last_checkpoint = t0;
  const int64_t start = policy.agent.steps_done(), remaining = std::max<int64_t>(0, f.steps - start);
  double moving = 0;
  policy.agent.train(env, remaining, [&](const rl::TrainProgress& p) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (p.episodes) moving = curve.empty() ? p.mean_return : 0.9 * moving + 0.1 * p.mean_return;
    curve.emplace_back(p.steps, moving);
    log << p.steps << ',' << p.mean_return << ',' << p.episodes << ',' << s << '\n';
    const double rate = static_cast<double>(p.steps - start) / std::max(s, 1e-9);
    const double eta = std::max(0.0, static_cast<double>(f.steps - p.steps) / std::max(rate, 1e-9));
    const int filled = static_cast<int>(30.0 * static_cast<double>(p.steps) / static_cast<double>(f.steps));
    fmt::print(stderr, "\r[{:<30}] {}/{} steps  {:.0f} steps/s  ETA {:.0f}s  mean return {:.4f}   ",
               std::string(static_cast<size_t>(std::clamp(filled, 0, 30)), '#'), p.steps, f.steps, rate, eta, moving);
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - last_checkpoint).count() >= f.checkpoint_s) {
      rl::save_policy(policy, f.output);
      last_checkpoint = std::chrono::steady_clock::now();
    }
  });
  fmt::print(stderr, "\n");
  rl::save_policy(policy, f.output);
  write_curve_svg(f.output + ".svg", curve);
  fmt::print("policy {} ({} steps); learning curve {} and {}.svg\n", f.output, policy.agent.steps_done(), csv, f.output);
  return 0;
}

}  // namespace

void add_train_command(CLI::App& app) {
  auto f = std::make_shared<TrainFlags>();
  CLI::App* cmd = app.add_subcommand(
      "train",
      "Train a pass-ordering policy with PPO on a set of graphs. Progress on stderr; the\n"
      "learning curve as POLICY.csv and POLICY.svg; checkpoints written atomically, which\n"
      "--resume continues. `optimize --order POLICY` and `evaluate` apply the result.");
  cmd->add_option("--graphs", f->graphs, "folders of .hlo/.yaml graphs, or graph files")->required();
  cmd->add_option("-o,--output", f->output, "the policy file to write")->required();
  cmd->add_option("--reward", f->reward, "opcount, cycles, energy, area, memory or hw")->capture_default_str();
  cmd->add_option("--target", f->target, "hardware target for hardware rewards: fpga, cpu or FILE.yaml");
  cmd->add_option("--algo", f->algo, "ppo (a2c and dqn are planned)")->capture_default_str();
  cmd->add_option("--steps", f->steps, "environment steps in total")->capture_default_str();
  cmd->add_option("--seed", f->seed, "random seed (the run is deterministic per seed)")->capture_default_str();
  cmd->add_option("--episode-len", f->episode_len, "passes per episode")->capture_default_str();
  cmd->add_option("--observation", f->observation, "observation spaces joined by '+'")->capture_default_str();
  cmd->add_option("--hidden", f->hidden, "hidden layer sizes, e.g. 64,64 (the paper: 2048,2048)")->capture_default_str();
  cmd->add_flag("--shaping", f->shaping, "potential-based reward shaping, phi = -(flops + 2 transcendentals)");
  cmd->add_flag("--normalize", f->normalize,
                "divide each graph's rewards by the default order's gain on it (an episode that\n"
                "matches the default order returns 1), so large graphs do not dominate training");
  cmd->add_option("--checkpoint-s", f->checkpoint_s, "seconds between checkpoints")->capture_default_str();
  cmd->add_flag("--resume", f->resume, "continue the run saved in the policy file");
  cmd->callback([f] {
    if (int rc = run_train(*f); rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace hlsgym::cli
