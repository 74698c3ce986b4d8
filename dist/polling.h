// Internal to dist/: waiting for MPI without spinning. Open MPI's blocking calls poll the
// network in a tight loop; on a node with more ranks than cores (the tests run 3 ranks on
// 2 cores) a waiting rank would take the core the learner or a worker needs. These waits
// test, then sleep 20 µs growing to 1 ms, so a wait costs at most ~1 ms of latency.
#pragma once
#include <mpi.h>

namespace hlsgym::dist::detail {

void wait(MPI_Request& request, MPI_Status* status = MPI_STATUS_IGNORE);
// Blocks until a message from `source` (or MPI_ANY_SOURCE) with `tag` is pending.
MPI_Status wait_probe(int source, int tag);
// Throws nothing: MPI errors end the job (world.cc's error handler).
void check(int mpi_result, const char* what);

}  // namespace hlsgym::dist::detail
