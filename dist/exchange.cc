#include "dist/exchange.h"

#include <climits>
#include <cstdint>

#include "dist/polling.h"
#include "dist/world.h"

namespace hlsgym::dist {
namespace {

constexpr int kGatherTag = 11;

int byte_count(size_t n) {
  if (n > static_cast<size_t>(INT_MAX)) abort_job("a message of " + std::to_string(n) + " bytes is over MPI's 2 GiB count");
  return static_cast<int>(n);
}

}  // namespace

std::vector<std::string> gather_to_root(const std::string& mine) {
  if (size() == 1) return {mine};
  if (!is_root()) {
    MPI_Request req;
    detail::check(MPI_Isend(mine.data(), byte_count(mine.size()), MPI_BYTE, 0, kGatherTag, MPI_COMM_WORLD, &req), "send");
    detail::wait(req);
    return {};
  }
  std::vector<std::string> all(static_cast<size_t>(size()));
  all[0] = mine;
  for (int r = 1; r < size(); ++r) {  // in rank order, whatever order they arrive in
    MPI_Status s = detail::wait_probe(r, kGatherTag);
    int n = 0;
    MPI_Get_count(&s, MPI_BYTE, &n);
    std::string& buf = all[static_cast<size_t>(r)];
    buf.resize(static_cast<size_t>(n));
    detail::check(MPI_Recv(buf.data(), n, MPI_BYTE, r, kGatherTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "receive");
  }
  return all;
}

std::string broadcast_from_root(const std::string& mine) {
  if (size() == 1) return mine;
  uint64_t n = is_root() ? mine.size() : 0;
  MPI_Request req;
  detail::check(MPI_Ibcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &req), "broadcast");
  detail::wait(req);
  std::string buf = is_root() ? mine : std::string(static_cast<size_t>(n), '\0');
  detail::check(MPI_Ibcast(buf.data(), byte_count(buf.size()), MPI_BYTE, 0, MPI_COMM_WORLD, &req), "broadcast");
  detail::wait(req);
  return buf;
}

}  // namespace hlsgym::dist
