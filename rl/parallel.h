// A small work queue for rl/'s parallel loops (rollout segments, dataset collection).
#pragma once
#include <functional>

namespace hlsgym::rl {

// Runs fn(item, thread) for every item in [0, items) on `threads` threads (the caller's
// among them), handing items out in order as threads free up, so per-item results are the
// same whatever the thread count. After an item throws no new items start; once all threads
// are done the first failure (lowest item) is rethrown as hlsgym::Error with its message.
void parallel_for(int items, int threads, const std::function<void(int item, int thread)>& fn);

}  // namespace hlsgym::rl
