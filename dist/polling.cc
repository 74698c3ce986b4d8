#include "dist/polling.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "dist/world.h"

namespace hlsgym::dist::detail {
namespace {

// Sleeps a little longer each round, up to 1 ms.
struct Backoff {
  std::chrono::microseconds delay{20};
  void pause() {
    std::this_thread::sleep_for(delay);
    delay = std::min(delay * 2, std::chrono::microseconds(1000));
  }
};

}  // namespace

void check(int mpi_result, const char* what) {
  if (mpi_result == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(mpi_result, text, &len);
  abort_job(std::string("MPI ") + what + " failed: " + std::string(text, static_cast<size_t>(len)));
}

void wait(MPI_Request& request, MPI_Status* status) {
  for (Backoff b;; b.pause()) {
    int done = 0;
    check(MPI_Test(&request, &done, status), "test");
    if (done) return;
  }
}

MPI_Status wait_probe(int source, int tag) {
  for (Backoff b;; b.pause()) {
    int pending = 0;
    MPI_Status s;
    check(MPI_Iprobe(source, tag, MPI_COMM_WORLD, &pending, &s), "probe");
    if (pending) return s;
  }
}

}  // namespace hlsgym::dist::detail
