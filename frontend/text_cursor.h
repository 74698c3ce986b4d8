// A cursor over HLO text: skipping blanks and comments, reading names, numbers and
// quoted strings, skipping balanced brackets, and turning offsets into line:column for
// error messages. Character-level and allocation-free, since big modules are megabytes.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "ir/error.h"

namespace hlsgym::frontend {

class TextCursor {
 public:
  TextCursor(std::string_view text, std::string filename)
      : text_(text), file_(std::move(filename)) {}

  size_t pos() const { return pos_; }
  void set_pos(size_t p) { pos_ = p; }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  std::string_view rest() const { return text_.substr(pos_); }
  std::string_view text() const { return text_; }
  const std::string& file() const { return file_; }

  // Blanks, newlines, /* */ and // comments.
  void skip_space();
  // One /* */ or // comment at the cursor, if there is one.
  bool skip_comment();
  // Blanks and comments but not newlines; true if a newline (or end) follows.
  bool skip_space_in_line();
  bool consume(char c);             // after skip_space
  bool consume(std::string_view s);  // literal text, after skip_space
  void expect(char c, std::string_view what);

  // [%]?[A-Za-z_][A-Za-z0-9_.-]* (the % is dropped). Empty if none.
  std::string_view name();
  // Like name() but also accepts leading digits and '-' (enum-like attribute values).
  std::string_view word();
  bool integer(int64_t& out);
  // A quoted string with escapes kept verbatim (returned without the quotes).
  std::string_view quoted();
  // Raw text of an attribute value: up to ',' or end of line at bracket depth 0.
  std::string_view raw_value();
  // Raw text from an opening bracket to its matching close, brackets included.
  std::string_view balanced();

  SourceLocation location(size_t offset) const;
  SourceLocation location() const { return location(pos_); }
  [[noreturn]] void fail(const std::string& message) const { fail_at(pos_, message); }
  [[noreturn]] void fail_at(size_t offset, const std::string& message) const;

  // Cheap running line count for the instruction being read (1-based).
  int line_of(size_t offset);
  // 1-based column of `offset` (scans back to the line start only).
  int column_of(size_t offset) const;

 private:
  std::string_view text_;
  std::string file_;
  size_t pos_ = 0;
  size_t line_pos_ = 0;  // line_of() memo: offset and line reached so far
  int line_ = 1;
};

inline bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool is_name_char(char c) {
  return is_name_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
}

}  // namespace hlsgym::frontend
