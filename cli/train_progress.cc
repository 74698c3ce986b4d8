#include "cli/train_progress.h"

#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <string>

namespace hlsgym::cli {

bool is_terminal(std::FILE* f) { return isatty(fileno(f)) != 0; }

TrainProgress::TrainProgress(std::FILE* out, bool terminal, int64_t total_steps, int64_t start_steps, double line_every_s)
    : out_(out), terminal_(terminal), total_(total_steps), start_(start_steps), steps_(start_steps),
      line_every_s_(line_every_s) {}

void TrainProgress::update(int64_t steps, double mean_return) {
  steps_ = steps, mean_return_ = mean_return;
  if (terminal_) return print(true);
  const auto now = std::chrono::steady_clock::now();
  if (printed_ && std::chrono::duration<double>(now - last_line_).count() < line_every_s_) {
    stale_ = true;
    return;
  }
  last_line_ = now;
  print(false);
}

void TrainProgress::finish() {
  if (finished_) return;
  finished_ = true;
  if (terminal_) {
    if (printed_) fmt::print(out_, "\n");
  } else if (stale_) {
    print(false);  // the final count, so a log always ends with where the run stopped
  }
  std::fflush(out_);
}

void TrainProgress::print(bool bar) {
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  const double rate = static_cast<double>(steps_ - start_) / std::max(s, 1e-9);
  const double eta = std::max(0.0, static_cast<double>(total_ - steps_) / std::max(rate, 1e-9));
  const std::string counts = fmt::format("{}/{} steps  {:.0f} steps/s  ETA {:.0f}s  mean return {:.4f}", steps_, total_,
                                         rate, eta, mean_return_);
  if (bar) {
    const int filled = static_cast<int>(30.0 * static_cast<double>(steps_) / static_cast<double>(std::max<int64_t>(total_, 1)));
    fmt::print(out_, "\r[{:<30}] {}   ", std::string(static_cast<size_t>(std::clamp(filled, 0, 30)), '#'), counts);
  } else {
    fmt::print(out_, "{}  ({:.0f} s)\n", counts, s);
  }
  std::fflush(out_);
  printed_ = true;
  stale_ = false;
}

}  // namespace hlsgym::cli
