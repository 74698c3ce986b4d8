#include "dist/world.h"

#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "dist/activity.h"

namespace hlsgym::dist {
namespace {

bool g_mpi = false;
int g_rank = 0, g_size = 1;

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return s;
}

// MPI errors (a peer gone, a broken message) end the job with a message naming this rank
// instead of MPI's default of aborting with an opaque code, or hanging.
void on_mpi_error(MPI_Comm*, int* code, ...) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(*code, text, &len);
  abort_job("MPI error: " + std::string(text, static_cast<size_t>(len)));
}

}  // namespace

bool launched_by_mpirun() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

World::World(int& argc, char**& argv) {
  if (!launched_by_mpirun()) return;
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
    std::fprintf(stderr, "error: MPI_Init_thread failed\n");
    std::exit(1);
  }
  g_mpi = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  if (provided < MPI_THREAD_MULTIPLE)
    abort_job("this MPI library does not support MPI_THREAD_MULTIPLE, which hlsgym's rank threads need");
  MPI_Errhandler handler;
  MPI_Comm_create_errhandler(on_mpi_error, &handler);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler);
  install_fault_reporting();
}

World::~World() {
  if (g_mpi) MPI_Finalize();
}

int rank() { return g_rank; }
int size() { return g_size; }

void abort_job(const std::string& message) {
  if (!g_mpi) {
    std::fprintf(stderr, "error: %s\n", one_line(message).c_str());
    std::exit(1);
  }
  std::fprintf(stderr, "error: rank %d: %s\n", g_rank, one_line(message).c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);  // MPI_Abort does not return; this is for the compiler and for broken MPIs
}

void finish_after_user_error(const std::string& message, double agree_seconds) {
  if (!g_mpi || g_size == 1) {
    std::fprintf(stderr, "error: %s\n", one_line(message).c_str());
    return;
  }
  MPI_Request barrier;
  MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(agree_seconds);
  for (;;) {
    int done = 0;
    MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
    if (done) break;
    if (std::chrono::steady_clock::now() > deadline)
      abort_job(message + " (this rank alone: the others went on without it)");
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (g_rank == 0) std::fprintf(stderr, "error: %s\n", one_line(message).c_str());
}

}  // namespace hlsgym::dist
