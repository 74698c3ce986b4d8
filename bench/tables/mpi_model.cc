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
//   build/bench/hlsgym_mpi_model [--learn-ms L] [--alpha-us A] [--beta-gbs B] [--updates U]
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
  fmt::print("model: L = {:.1f} ms learning per update, alpha = {:.0f} us per message, beta = {:.0f} GB/s\n\n", 1e3 * learn_s,
             1e6 * alpha, beta / 1e9);
  fmt::print("{:>6} {:>6} {:>12} {:>12} {:>10} {:>12} {:>9}\n", "ranks", "N", "rollout ms", "comm ms", "learn ms", "steps/s",
             "speed-up");
  double base = 0;
  const int episode_len = 30;
  const double row_bytes = (136 + 136 + 7) * 8.0, state_bytes = 7000, weight_bytes = 2 * 16500 * 8.0;
  for (int ranks : {1, 2, 8, 64, 256, 512}) {
    const int n = std::max(256, ranks), per_rank = n / ranks;
    std::uniform_int_distribution<size_t> graph(0, step_s.size() - 1);
    std::vector<size_t> on(static_cast<size_t>(ranks));
    std::vector<int> left(static_cast<size_t>(ranks), 0);
    double rollout = 0;
    for (int u = 0; u < updates; ++u) {
      double slowest = 0;
      for (int r = 0; r < ranks; ++r) {
        double t = 0;
        for (int s = 0; s < per_rank; ++s) {
          if (left[static_cast<size_t>(r)] == 0) on[static_cast<size_t>(r)] = graph(rng), left[static_cast<size_t>(r)] = episode_len;
          t += step_s[on[static_cast<size_t>(r)]], --left[static_cast<size_t>(r)];
        }
        slowest = std::max(slowest, t);
      }
      rollout += slowest;
    }
    rollout /= updates;
    const double comm = ranks == 1 ? 0.0
                                   : ranks * alpha + (n * row_bytes + ranks * state_bytes) / beta +
                                         std::ceil(std::log2(ranks)) * (alpha + weight_bytes / beta);
    const double t = rollout + comm + learn_s, rate = n / t;
    if (ranks == 1) base = rate;
    fmt::print("{:>6} {:>6} {:>12.2f} {:>12.3f} {:>10.1f} {:>12.0f} {:>8.2f}x{}\n", ranks, n, 1e3 * rollout, 1e3 * comm,
               1e3 * learn_s, rate, rate / base, n > 256 ? "  (N > 256: not offered by the CLI today)" : "");
  }
  return 0;
}
