#include "dist/work_queue.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

#include "dist/activity.h"
#include "dist/polling.h"
#include "dist/world.h"
#include "ir/error.h"

namespace hlsgym::dist {
namespace {

constexpr int kRequestTag = 21;
constexpr int kAssignTag = 1000;  // + the requesting thread
constexpr int kNoMoreItems = -1;

// A request: the thread asking, the item it finished (or -1 on its first request) and that
// item's result bytes.
std::string encode_request(int32_t thread, int32_t finished, const std::string& result) {
  std::string m(8, '\0');
  std::memcpy(m.data(), &thread, 4);
  std::memcpy(m.data() + 4, &finished, 4);
  return m + result;
}

std::string describe(const WorkItems& w, int item) { return w.label ? w.label(item) : "item " + std::to_string(item); }

// Item i on this rank, or the end of the job with the rank and the item named.
std::string run_or_abort(const WorkItems& w, int item, int thread) {
  try {
    return w.run(item, thread);
  } catch (const std::exception& e) {
    abort_job("on " + describe(w, item) + ": " + e.what());
  }
}

// A thread of rank > 0: ask rank 0 for an item, run it, send the result with the next request.
void remote_worker(const WorkItems& w, int thread) {
  int32_t finished = -1;
  std::string result;
  for (;;) {
    const std::string req = encode_request(thread, finished, result);
    MPI_Request r;
    detail::check(MPI_Isend(req.data(), static_cast<int>(req.size()), MPI_BYTE, 0, kRequestTag, MPI_COMM_WORLD, &r), "send");
    detail::wait(r);
    int32_t item = kNoMoreItems;
    detail::check(MPI_Irecv(&item, 1, MPI_INT32_T, 0, kAssignTag + thread, MPI_COMM_WORLD, &r), "receive");
    detail::wait(r);
    if (item == kNoMoreItems) return;
    set_activity(rank(), describe(w, item));
    result = run_or_abort(w, item, thread);
    finished = item;
  }
}

}  // namespace

std::vector<std::string> run_work_items(const WorkItems& w) {
  if (size() > 1 && w.items < size())
    throw Error(std::to_string(size()) + " ranks for " + std::to_string(w.items) + " " + w.what +
                ": run with at most " + std::to_string(w.items) + " ranks (mpirun -np " + std::to_string(w.items) + ")");
  const int threads = std::max(1, w.threads);
  std::vector<std::string> results(is_root() ? static_cast<size_t>(w.items) : 0);
  if (!is_root()) {
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(remote_worker, std::cref(w), t);
    remote_worker(w, 0);
    for (auto& t : pool) t.join();
    return {};
  }
  std::atomic<int> next{0};
  // Rank 0's coordinator: answers requests until every remote thread has been told to stop.
  auto coordinate = [&] {
    int stopped = 0;
    const int remote_threads = (size() - 1) * threads;
    while (stopped < remote_threads) {
      MPI_Status s = detail::wait_probe(MPI_ANY_SOURCE, kRequestTag);
      int n = 0;
      MPI_Get_count(&s, MPI_BYTE, &n);
      std::string m(static_cast<size_t>(n), '\0');
      detail::check(MPI_Recv(m.data(), n, MPI_BYTE, s.MPI_SOURCE, kRequestTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "receive");
      int32_t thread = 0, finished = 0;
      std::memcpy(&thread, m.data(), 4);
      std::memcpy(&finished, m.data() + 4, 4);
      if (finished >= 0) results[static_cast<size_t>(finished)] = m.substr(8);
      int32_t item = next++;
      if (item >= w.items) item = kNoMoreItems, ++stopped;
      set_activity(s.MPI_SOURCE, item == kNoMoreItems ? "done" : describe(w, item));
      MPI_Request r;
      detail::check(MPI_Isend(&item, 1, MPI_INT32_T, s.MPI_SOURCE, kAssignTag + thread, MPI_COMM_WORLD, &r), "send");
      detail::wait(r);
    }
  };
  std::thread coordinator;
  if (size() > 1) coordinator = std::thread(coordinate);
  // A single process keeps the callers' own error handling: the exception of the lowest
  // failing item goes up, as from rl::parallel_for. In a job of several ranks it ends the job.
  std::mutex failure_mutex;
  std::exception_ptr failure;
  int failed_item = w.items;
  auto local = [&](int thread) {
    for (int i; (i = next++) < w.items;) {
      set_activity(0, describe(w, i));
      if (size() > 1) {
        results[static_cast<size_t>(i)] = run_or_abort(w, i, thread);
        continue;
      }
      try {
        results[static_cast<size_t>(i)] = w.run(i, thread);
      } catch (...) {
        std::lock_guard<std::mutex> lock(failure_mutex);
        if (i < failed_item) failed_item = i, failure = std::current_exception();
        next = w.items;  // start no new items
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(local, t);
  local(0);
  for (auto& t : pool) t.join();
  if (coordinator.joinable()) coordinator.join();
  if (failure) std::rethrow_exception(failure);
  return results;
}

}  // namespace hlsgym::dist
