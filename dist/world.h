// The world of ranks hlsgym runs in. One binary runs alone or under `mpirun -np R`:
// launched by mpirun (Open MPI's or any PMIx launcher's environment is present) it joins
// the MPI job; started directly it is a job of size 1 without calling MPI_Init at all,
// because an Open MPI singleton init costs ~0.7 s (it starts a runtime daemon) and every
// single-process command would pay it. Every function here works in both cases.
#pragma once
#include <string>

namespace hlsgym::dist {

// Joins the MPI job when launched by mpirun (MPI_THREAD_MULTIPLE: a rank's rollout and
// work-queue threads talk to other ranks), and finalizes it on destruction. One per process.
class World {
 public:
  World(int& argc, char**& argv);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;
};

int rank();
int size();
inline bool is_root() { return rank() == 0; }
bool launched_by_mpirun();  // whether MPI is in use (size 1 under `mpirun -np 1` too)

// Ends the whole job now: prints "error: rank R: MESSAGE" (one line) on stderr and aborts
// every rank (MPI_Abort, exit code 1). Without MPI it prints "error: MESSAGE" and exits 1.
// For a failure inside a phase where other ranks wait on this one: returning normally
// would leave them blocked forever.
[[noreturn]] void abort_job(const std::string& message);

// After a user error (bad input, bad flag) that every rank met in the same place before any
// message was exchanged (they all read the same files): rank 0 alone prints `message`, and
// every rank returns so that main exits 1. If not every rank arrives here within
// `agree_seconds` (the failure was this rank's alone: a file only it cannot read), this
// rank prints its message and aborts the job instead of leaving the others waiting.
void finish_after_user_error(const std::string& message, double agree_seconds = 10);

}  // namespace hlsgym::dist
