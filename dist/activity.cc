#include "dist/activity.h"

#include <unistd.h>

#include <array>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>

#include "dist/world.h"

namespace hlsgym::dist {
namespace {

// The report the signal handler writes, prepared ahead: a handler may only call
// async-signal-safe functions (write, _exit), so it never formats or allocates. Writers
// fill the buffer the handler is not reading and then publish it.
constexpr size_t kReportBytes = 16384;
std::array<std::array<char, kReportBytes>, 2> g_buffers;
std::array<size_t, 2> g_lengths{0, 0};
std::atomic<int> g_published{-1};
std::mutex g_mutex;  // writers only
std::map<int, std::string> g_table;
std::string g_file;  // rank 0's copy of the table (set_activity_file)

void write_table_file(const std::string& report) {
  if (g_file.empty() || !is_root()) return;
  const std::string tmp = g_file + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << report;
    if (!out) return;  // best effort: the table is a diagnostic, never worth failing a job
  }
  std::rename(tmp.c_str(), g_file.c_str());
}

std::string format_report() {
  std::string s;
  if (is_root()) {
    s = "hlsgym: job stopped by the MPI runtime (a rank ended, which mpirun names, or the job was interrupted); what each rank was doing:\n";
    for (const auto& [r, what] : g_table) s += "  rank " + std::to_string(r) + ": " + what + "\n";
  } else if (auto it = g_table.find(rank()); it != g_table.end()) {
    s = "hlsgym: rank " + std::to_string(rank()) + " stopped by the MPI runtime while on " + it->second + "\n";
  }
  return s;
}

void on_sigterm(int) {
  const int b = g_published.load();
  if (b >= 0) {
    const char* p = g_buffers[static_cast<size_t>(b)].data();
    size_t left = g_lengths[static_cast<size_t>(b)];
    while (left > 0) {
      const ssize_t n = ::write(2, p, left);
      if (n <= 0) break;
      p += n, left -= static_cast<size_t>(n);
    }
  }
  ::_exit(1);
}

}  // namespace

void set_activity(int r, const std::string& what) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!is_root() && r != rank()) return;  // only rank 0 keeps the others' entries
  g_table[r] = what;
  const std::string s = format_report();
  const int next = g_published.load() == 0 ? 1 : 0;
  const size_t n = std::min(s.size(), kReportBytes);
  std::copy(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(n), g_buffers[static_cast<size_t>(next)].begin());
  g_lengths[static_cast<size_t>(next)] = n;
  g_published.store(next);
  write_table_file(s);
}

void set_activity_file(const std::string& path) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_file = path;
  if (!path.empty()) write_table_file(format_report());
}

std::string activity_report() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return format_report();
}

void install_fault_reporting() {
  if (size() > 1) std::signal(SIGTERM, on_sigterm);
}

}  // namespace hlsgym::dist
