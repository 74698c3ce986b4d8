// dist/ in a process started without mpirun (a job of size 1, MPI never initialized): the
// work queue runs every item once and returns the results in item order whatever the thread
// count, and rethrows the lowest failing item's error like rl::parallel_for; the gather and
// broadcast hand back the caller's bytes.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>

#include "dist/exchange.h"
#include "dist/work_queue.h"
#include "dist/world.h"

namespace hlsgym::dist {
namespace {

TEST(WorkQueue, ResultsInItemOrderOnAnyThreadCount) {
  ASSERT_FALSE(launched_by_mpirun()) << "run this test without mpirun";
  EXPECT_EQ(size(), 1);
  EXPECT_TRUE(is_root());
  for (int threads : {1, 2, 5}) {
    std::atomic<int> runs{0};
    WorkItems w;
    w.items = 37;
    w.threads = threads;
    w.run = [&](int i, int t) {
      EXPECT_LT(t, threads);
      ++runs;
      return std::string(static_cast<size_t>(i % 7), 'x') + std::to_string(i);
    };
    const std::vector<std::string> out = run_work_items(w);
    ASSERT_EQ(out.size(), 37u);
    EXPECT_EQ(runs, 37);
    for (int i = 0; i < 37; ++i) EXPECT_EQ(out[static_cast<size_t>(i)], std::string(static_cast<size_t>(i % 7), 'x') + std::to_string(i));
  }
}

TEST(WorkQueue, TheLowestFailingItemsErrorGoesUp) {
  WorkItems w;
  w.items = 20;
  w.threads = 1;
  w.run = [](int i, int) -> std::string {
    if (i == 4 || i == 9) throw std::runtime_error("item " + std::to_string(i));
    return {};
  };
  try {
    run_work_items(w);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "item 4");
  }
}

TEST(Exchange, OneProcessGetsItsOwnBytesBack) {
  EXPECT_EQ(gather_to_root("abc"), std::vector<std::string>{"abc"});
  EXPECT_EQ(broadcast_from_root(std::string("x\0y", 3)), std::string("x\0y", 3));
}

}  // namespace
}  // namespace hlsgym::dist
