// Writing the files hlsgym produces (optimized modules, policies, checkpoints, datasets,
// logs) so that none is ever lost or half-written: the destination is checked up front
// (a symlink, FIFO, directory or unwritable file is refused before any work), the text
// goes to a temporary file in the same directory that is written whole, checked, fsynced
// and renamed over the destination, and a lock refuses a second process writing the same
// path at the same time.
#pragma once
#include <string>
#include <string_view>

namespace hlsgym::ir {

// Throws hlsgym::Error when `path` cannot be an output: it exists and is not a regular
// file (symlinks included), or it or its directory is not writable.
void check_output_path(const std::string& path);

// Writes `content` to `path` whole or not at all (temporary file, checked writes, fsync,
// rename, fsync of the directory). Throws hlsgym::Error on any failure; `path` is then
// unchanged.
void write_file_atomically(const std::string& path, std::string_view content);

// An exclusive advisory lock on `path` (flock of `path`.lock, removed on release), held
// for the lifetime of the object. A second holder, in this or another process, gets an
// hlsgym::Error naming the path.
// Files read back (policies, checkpoints, datasets) end with a line
// "# end-of-file fnv1a64=<16 hex digits>" over every byte before it, so a file cut short
// anywhere, even inside its last number, is refused instead of read as complete.
std::string with_end_marker(std::string text);
// The text before a valid end marker; throws hlsgym::Error naming `path` when the marker
// is missing (truncated) or does not match (altered).
std::string_view strip_end_marker(std::string_view text, const std::string& path);

class OutputLock {
 public:
  explicit OutputLock(const std::string& path);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  std::string lock_path_;
  int fd_ = -1;
};

}  // namespace hlsgym::ir
