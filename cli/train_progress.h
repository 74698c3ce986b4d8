// `train`'s progress on stderr. On a terminal: one bar redrawn in place with carriage
// returns. Anywhere else (a log file, a pipe, CI): a plain line every few seconds, since
// carriage-return frames in a log make a 30k-step run one unreadable 20 kB line (issue 18).
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>

namespace hlsgym::cli {

class TrainProgress {
 public:
  // `terminal`: whether `out` is a terminal (isatty); `line_every_s`: the pause between
  // plain lines when it is not.
  TrainProgress(std::FILE* out, bool terminal, int64_t total_steps, int64_t start_steps, double line_every_s = 5);
  // Called at every report of the learner; prints when due (always on a terminal).
  void update(int64_t steps, double mean_return);
  // Ends the display: the bar's line, or a last plain line when the last one is stale.
  // Idempotent.
  void finish();

 private:
  void print(bool bar);
  std::FILE* out_;
  bool terminal_;
  int64_t total_, start_, steps_ = 0;
  double line_every_s_, mean_return_ = 0;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now(), last_line_{};
  bool printed_ = false, stale_ = false, finished_ = false;
};

// isatty(fileno(f)), in one place so tests and callers agree on what "terminal" means.
bool is_terminal(std::FILE* f);

}  // namespace hlsgym::cli
