#include "ir/output_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "ir/error.h"

namespace hlsgym::ir {
namespace {

std::string directory_of(const std::string& path) {
  const std::filesystem::path p(path);
  return p.has_parent_path() ? p.parent_path().string() : ".";
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw Error(what + ": " + std::strerror(errno), {path});
}

// A comment line to CSV readers (pandas comment="#"), like the datasets' header.
constexpr std::string_view kEndMarker = "# end-of-file fnv1a64=";

uint64_t fnv1a64(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

}  // namespace

std::string with_end_marker(std::string text) {
  if (!text.empty() && text.back() != '\n') text += '\n';
  const uint64_t h = fnv1a64(text);
  text += kEndMarker;
  text += fmt::format("{:016x}\n", h);
  return text;
}

std::string_view strip_end_marker(std::string_view text, const std::string& path) {
  const size_t line_length = kEndMarker.size() + 16 + 1;
  const size_t at = text.size() >= line_length ? text.size() - line_length : std::string_view::npos;
  if (at == std::string_view::npos || (at > 0 && text[at - 1] != '\n') ||
      text.substr(at, kEndMarker.size()) != kEndMarker || text.back() != '\n')
    throw Error("the file is truncated or incomplete (its end-of-file line is missing)", {path});
  const std::string_view body = text.substr(0, at);
  if (fmt::format("{:016x}", fnv1a64(body)) != text.substr(at + kEndMarker.size(), 16))
    throw Error("the file is damaged or was edited (its checksum does not match)", {path});
  return body;
}

void check_output_path(const std::string& path) {
  if (path.empty()) throw Error("empty output path");
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode))
      throw Error("refusing to write over a symbolic link (the rename would replace the link, not its target)", {path});
    if (!S_ISREG(st.st_mode)) throw Error("refusing to write: it exists and is not a regular file", {path});
    // Mode bits as well as access(): root may write anything, but a file its owner made
    // read-only is one someone meant to keep.
    if (::access(path.c_str(), W_OK) != 0 || (st.st_mode & 0222) == 0)
      throw Error("refusing to write: the file is read-only", {path});
  } else if (errno != ENOENT) {
    fail(path, "cannot inspect the output path");
  }
  const std::string dir = directory_of(path);
  if (::access(dir.c_str(), W_OK | X_OK) != 0) fail(path, "cannot write in directory " + dir);
}

void write_file_atomically(const std::string& path, std::string_view content) {
  check_output_path(path);
  std::string tmp = path + ".tmp.XXXXXX";
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) fail(path, "cannot create a temporary file next to it");
  auto give_up = [&](const std::string& what) {
    const int saved = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    errno = saved;
    fail(path, what);
  };
  // A new file of mkstemp is 0600; outputs get the usual 0666 & ~umask.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::fchmod(fd, 0666 & ~mask) != 0) give_up("cannot set the permissions");
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) give_up("write failed (disk full?)");
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) give_up("fsync failed");
  if (::close(fd) != 0) {
    ::unlink(tmp.c_str());
    fail(path, "close failed");
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(tmp.c_str());
    errno = saved;
    fail(path, "cannot rename the finished file into place");
  }
  // The rename itself is durable once the directory is synced.
  const int dfd = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

OutputLock::OutputLock(const std::string& path) : lock_path_(path + ".lock") {
  for (int attempt = 0; attempt < 16; ++attempt) {
    fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd_ < 0) fail(path, "cannot create the lock file " + lock_path_);
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd_);
      fd_ = -1;
      if (errno == EWOULDBLOCK) throw Error("another hlsgym process is writing this file (" + lock_path_ + " is locked)", {path});
      fail(path, "cannot lock " + lock_path_);
    }
    // The previous holder removes the lock file when it is done; a lock taken on a file
    // that was removed meanwhile locks nothing, so check that ours is still the one there.
    struct stat held {}, there {};
    if (::fstat(fd_, &held) == 0 && ::stat(lock_path_.c_str(), &there) == 0 && held.st_ino == there.st_ino &&
        held.st_dev == there.st_dev)
      return;
    ::close(fd_);
    fd_ = -1;
  }
  throw Error("cannot take the lock " + lock_path_ + " (it keeps being replaced)", {path});
}

OutputLock::~OutputLock() {
  if (fd_ < 0) return;
  ::unlink(lock_path_.c_str());
  ::close(fd_);
}

}  // namespace hlsgym::ir
