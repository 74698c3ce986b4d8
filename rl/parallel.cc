#include "rl/parallel.h"

#include <algorithm>
#include <optional>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "ir/error.h"

namespace hlsgym::rl {

void parallel_for(int items, int threads, const std::function<void(int, int)>& fn) {
  if (items <= 0) return;
  threads = std::clamp(threads, 1, items);
  std::vector<std::optional<std::string>> errors(static_cast<size_t>(items));
  std::atomic<int> next{0};
  std::atomic<bool> failed{false};
  auto run = [&](int thread) {
    for (int i; !failed && (i = next++) < items;) {
      try {
        fn(i, thread);
      } catch (const std::exception& e) {
        errors[static_cast<size_t>(i)] = e.what();
        failed = true;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(run, t);
  run(0);
  for (auto& t : pool) t.join();
  for (const auto& e : errors)
    if (e) throw Error(*e);
}

}  // namespace hlsgym::rl
