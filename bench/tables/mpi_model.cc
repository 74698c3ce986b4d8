// A model of `train`'s speed-up on R MPI ranks (issue 20), from measured parts: the time of
// one environment step on each graph of the train split (random episodes, measured here),
// the learner's update time L and the communication parameters (measured by
// scripts/mpi_speed.sh, passed as flags). Per update, every rank steps N/R of the rollout's
// N steps (one environment per rank) through 30-step episodes on uniformly drawn graphs, as
// GraphTrainEnv does; the update waits for the slowest rank (environments are assigned in
// fixed blocks), then rank 0 receives R messages one after another and learns, and the
// weights go back down a broadcast tree:
//   T(R) = E[max_r rollout_r] + R*alpha + (rows + R*state)/beta + log2(R)*(alpha + weights/beta) + L
// Printed: steps/s and speed-up over one rank for R = 1, 2, 8, 64, 512. PPO's rollout is 256
// steps, so R <= 256; for 512 ranks the model uses N = 512 (a rollout the CLI does not offer
// today, stated in the output).
//   build/bench/hlsgym_mpi_model [--learn-ms L] [--rollout1-ms T] [--alpha-us A] [--beta-gbs B] [--updates U]
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "frontend/load.h"
#include "rl/actor_critic.h"
#include "rl/env.h"

namespace {

double flag(int argc, char** argv, const std::string& name, double fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (argv[i] == name) return std::atof(argv[i + 1]);
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  using namespace hlsgym;
  const double learn_s = flag(argc, argv, "--learn-ms", 16.5) / 1e3;
  const double alpha = flag(argc, argv, "--alpha-us", 5) / 1e6, beta = flag(argc, argv, "--beta-gbs", 5) * 1e9;
  const int updates = static_cast<int>(flag(argc, argv, "--updates", 400));
  const char* env = std::getenv("HLSGYM_HLO_DATA_DIR");
  const fs::path dir = fs::path(env ? env : HLSGYM_HLO_DATA_DIR) / "train";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".hlo") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  // Mean seconds per step on each graph: two random 30-step episodes.
  std::vector<double> step_s;
  std::mt19937_64 rng(1);
  for (const auto& f : files) {
    const ir::Module m = frontend::load_design(f.string()).module;
    rl::Env e(rl::EnvOptions{});
    int steps = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (int episode = 0; episode < 2; ++episode) {
      e.reset(m, f.stem().string(), static_cast<uint64_t>(episode));
      for (bool done = false; !done; ++steps) {
        const rl::StepResult r = e.step(static_cast<int>(rng() % static_cast<uint64_t>(rl::Env::action_count())));
        done = r.terminated || r.truncated;
      }
    }
    step_s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / steps);
  }
  std::vector<double> sorted = step_s;
  std::sort(sorted.begin(), sorted.end());
  double mean = 0;
  for (double s : step_s) mean += s;
  mean /= static_cast<double>(step_s.size());
  fmt::print("{} graphs of {}: a step takes {:.3f} ms on average, median {:.3f} ms, max {:.1f} ms ({:.0f}x the median)\n",
             step_s.size(), dir.string(), 1e3 * mean, 1e3 * sorted[sorted.size() / 2], 1e3 * sorted.back(),
             sorted.back() / sorted[sorted.size() / 2]);
  // Calibration: in training, episodes come back to graphs whose states the cost cache
  // already holds, so a rollout is cheaper than these cold episodes; scale the step times
  // so that one rank's rollout matches the measured one (--rollout1-ms, from mpi_speed.sh).
  const double rollout1 = flag(argc, argv, "--rollout1-ms", 0) / 1e3;
  if (rollout1 > 0) {
    const double scale = rollout1 / (256 * mean);
    for (double& x : step_s) x *= scale;
    fmt::print("step times scaled by {:.2f} so that one rank's 256-step rollout takes the measured {:.1f} ms\n", scale,
               1e3 * rollout1);
  }
  fmt::print("model: L = {:.1f} ms learning per update, alpha = {:.0f} us per message, beta = {:.0f} GB/s\n", 1e3 * learn_s,
             1e6 * alpha, beta / 1e9);
  fmt::print("E = min(4R, N) environments of 30-step episodes on uniformly drawn graphs; rollout = the slowest rank's\n"
             "segments; fixed: each rank keeps its block; balanced: train's plan (rl::shed_load) before every rollout,\n"
             "a moved environment's replay costing its last segment's time again\n\n");
  fmt::print("{:>6} {:>5} {:>5} {:>11} {:>11} {:>9} {:>9} {:>11} {:>11} {:>9} {:>9}\n", "ranks", "N", "E", "fixed ms",
             "balanced ms", "comm ms", "learn ms", "fixed st/s", "bal. st/s", "fixed x", "bal. x");
  double base = 0;
  const int episode_len = 30;
  const double row_bytes = (136 + 136 + 7) * 8.0, state_bytes = 7000, weight_bytes = 2 * 16500 * 8.0;
  for (int ranks : {1, 2, 8, 64, 256, 512}) {
    const int n = std::max(256, ranks), envs = std::min(4 * ranks, n);
    std::uniform_int_distribution<size_t> graph(0, step_s.size() - 1);
    std::vector<size_t> on(static_cast<size_t>(envs));
    std::vector<int> left(static_cast<size_t>(envs), 0);
    std::vector<double> last(static_cast<size_t>(envs), 0.0);
    std::vector<int> owner(static_cast<size_t>(envs));
    for (int e = 0; e < envs; ++e) owner[static_cast<size_t>(e)] = e * ranks / envs;
    double fixed = 0, balanced = 0;
    for (int u = 0; u < updates; ++u) {
      // Balanced: train's own plan (rl::shed_load) from the last segment's times; a moved
      // environment's replay is counted as another segment of its time on the receiver.
      const std::vector<int> prev = owner;
      owner = rl::shed_load(last, prev, ranks);
      std::vector<double> block(static_cast<size_t>(ranks), 0.0), bal(static_cast<size_t>(ranks), 0.0);
      for (int e = 0; e < envs; ++e) {
        const auto i = static_cast<size_t>(e);
        double t = 0;
        for (int s = e * n / envs; s < (e + 1) * n / envs; ++s) {
          if (left[i] == 0) on[i] = graph(rng), left[i] = episode_len;
          t += step_s[on[i]], --left[i];
        }
        block[static_cast<size_t>(e * ranks / envs)] += t;
        bal[static_cast<size_t>(owner[i])] += t + (owner[i] != prev[i] ? last[i] : 0.0);
        last[i] = t;
      }
      fixed += *std::max_element(block.begin(), block.end());
      balanced += *std::max_element(bal.begin(), bal.end());
    }
    fixed /= updates, balanced /= updates;
    const double comm = ranks == 1 ? 0.0
                                   : ranks * alpha + (n * row_bytes + envs * state_bytes) / beta +
                                         std::ceil(std::log2(ranks)) * (alpha + weight_bytes / beta);
    const double rate_fixed = n / (fixed + comm + learn_s), rate_bal = n / (balanced + comm + learn_s);
    if (ranks == 1) base = rate_fixed;
    fmt::print("{:>6} {:>5} {:>5} {:>11.1f} {:>11.1f} {:>9.2f} {:>9.1f} {:>11.0f} {:>11.0f} {:>8.2f}x {:>8.2f}x{}\n", ranks, n,
               envs, 1e3 * fixed, 1e3 * balanced, 1e3 * comm, 1e3 * learn_s, rate_fixed, rate_bal, rate_fixed / base,
               rate_bal / base, n > 256 ? "  (N > 256: not offered by the CLI today)" : "");
  }
  return 0;
}
