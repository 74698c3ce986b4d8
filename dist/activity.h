// What each rank is working on, for the message that ends a job when a rank dies. A rank
// killed by a signal cannot say anything itself: mpirun notices, names it ("process rank 1
// ... exited on signal 9") and sends SIGTERM to the others. Rank 0 keeps a table of every
// rank's current work (the graph a work-queue item is, a trainer rank's environments and
// their graphs) and its SIGTERM handler prints it, so the job's output names both the rank
// that died and the graph it was on. Other ranks print their own line.
#pragma once
#include <string>

namespace hlsgym::dist {

// Rank 0's table entry for `rank` (any rank may set its own entry too; only rank 0 prints
// the whole table). Thread-safe.
void set_activity(int rank, const std::string& what);
// Installs the SIGTERM handler (only in an MPI job of more than one rank: a single process
// keeps the default behaviour of SIGTERM).
void install_fault_reporting();
// The table as the handler prints it (tests, and abort messages).
std::string activity_report();
// Rank 0 also keeps the table in `path`, rewritten (atomically) at every change: mpirun
// forwards the handler's output only while it is still reading the ranks' stderr, which
// a loaded machine can miss, while the file always holds the last table. "" stops it.
void set_activity_file(const std::string& path);

}  // namespace hlsgym::dist
