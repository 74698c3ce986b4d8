// Errors a user can cause (bad input files, unknown names, shape mismatches) are thrown
// as hlsgym::Error and printed by the CLI as one line: "error: FILE:LINE:COL: message".
// Internal invariants use assert / the verifier instead.
#pragma once
#include <stdexcept>
#include <string>

namespace hlsgym {

struct SourceLocation {
  std::string file;
  int line = 0;    // 1-based; 0 = unknown
  int column = 0;  // 1-based; 0 = unknown
};

class Error : public std::runtime_error {
 public:
  explicit Error(std::string message, SourceLocation where = {})
      : std::runtime_error(format(message, where)), message_(std::move(message)),
        where_(std::move(where)) {}
  const std::string& message() const { return message_; }
  const SourceLocation& where() const { return where_; }

  static std::string format(const std::string& message, const SourceLocation& w) {
    std::string s;
    if (!w.file.empty()) {
      s += w.file;
      if (w.line > 0) {
        s += ':' + std::to_string(w.line);
        if (w.column > 0) s += ':' + std::to_string(w.column);
      }
      s += ": ";
    }
    return s + message;
  }

 private:
  std::string message_;
  SourceLocation where_;
};

}  // namespace hlsgym
