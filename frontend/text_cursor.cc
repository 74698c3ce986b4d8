#include "frontend/text_cursor.h"

#include <algorithm>
#include <charconv>

namespace hlsgym::frontend {

namespace {
std::string fmt_hex(unsigned v) {
  static const char* d = "0123456789abcdef";
  return std::string{d[(v >> 4) & 15], d[v & 15]};
}
}  // namespace

bool TextCursor::skip_comment() {
  if (peek() != '/') return false;
  if (peek(1) == '*') {
    const size_t end = text_.find("*/", pos_ + 2);
    if (end == std::string_view::npos) fail("unterminated /* comment");
    pos_ = end + 2;
    return true;
  }
  if (peek(1) == '/') {  // a line comment stops before its newline
    const size_t end = text_.find('\n', pos_);
    pos_ = end == std::string_view::npos ? text_.size() : end;
    return true;
  }
  return false;
}

void TextCursor::skip_space() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') ++pos_;
    else if (!skip_comment()) return;
  }
}

bool TextCursor::skip_space_in_line() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\r') ++pos_;
    else if (!skip_comment()) return c == '\n';
  }
  return true;
}

bool TextCursor::consume(char c) {
  skip_space();
  if (peek() != c) return false;
  ++pos_;
  return true;
}

bool TextCursor::consume(std::string_view s) {
  skip_space();
  if (text_.substr(pos_, s.size()) != s) return false;
  pos_ += s.size();
  return true;
}

void TextCursor::expect(char c, std::string_view what) {
  if (consume(c)) return;
  std::string got = at_end() ? std::string("end of file") : "'" + std::string(1, peek()) + "'";
  if (!at_end() && (static_cast<unsigned char>(peek()) < 32 || static_cast<unsigned char>(peek()) > 126))
    got = "byte 0x" + fmt_hex(static_cast<unsigned char>(peek()));
  fail("expected '" + std::string(1, c) + "' " + std::string(what) + ", got " + got);
}

std::string_view TextCursor::name() {
  skip_space();
  size_t start = pos_;
  if (peek() == '%') ++start;
  if (start >= text_.size() || !is_name_start(text_[start])) return {};
  size_t end = start + 1;
  while (end < text_.size() && is_name_char(text_[end])) ++end;
  pos_ = end;
  return text_.substr(start, end - start);
}

std::string_view TextCursor::word() {
  skip_space();
  size_t start = pos_, end = pos_;
  while (end < text_.size() && (is_name_char(text_[end]) || text_[end] == '%')) ++end;
  pos_ = end;
  return text_.substr(start, end - start);
}

bool TextCursor::integer(int64_t& out) {
  skip_space();
  const char* b = text_.data() + pos_;
  const char* e = text_.data() + text_.size();
  auto [p, ec] = std::from_chars(b, e, out);
  if (ec != std::errc()) return false;
  pos_ += static_cast<size_t>(p - b);
  return true;
}

std::string_view TextCursor::quoted() {
  skip_space();
  if (peek() != '"') fail("expected a quoted string");
  const size_t start = ++pos_;
  while (pos_ < text_.size() && text_[pos_] != '"') {
    if (text_[pos_] == '\\') ++pos_;
    ++pos_;
  }
  if (pos_ >= text_.size()) fail_at(start - 1, "unterminated string");
  return text_.substr(start, pos_++ - start);
}

std::string_view TextCursor::balanced() {
  skip_space();
  const size_t start = pos_;
  int depth = 0;
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == '"') {
      quoted();
      continue;
    }
    if (c == '/' && peek(1) == '*') {
      skip_space();
      continue;
    }
    ++pos_;
    if (c == '{' || c == '(' || c == '[') ++depth;
    else if (c == '}' || c == ')' || c == ']') {
      if (--depth == 0) return text_.substr(start, pos_ - start);
      if (depth < 0) fail_at(pos_ - 1, "unbalanced '" + std::string(1, c) + "'");
    }
  }
  fail_at(start, "unterminated bracket (no matching close before end of file)");
}

std::string_view TextCursor::raw_value() {
  skip_space_in_line();
  const size_t start = pos_;
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == ',' || c == '\n' || c == '\r') break;
    if (c == '"') {
      quoted();
      continue;
    }
    if (c == '{' || c == '(' || c == '[') {
      balanced();
      continue;
    }
    if (c == '}' || c == ')' || c == ']') break;
    ++pos_;
  }
  size_t end = pos_;
  while (end > start && (text_[end - 1] == ' ' || text_[end - 1] == '\t')) --end;
  return text_.substr(start, end - start);
}

int TextCursor::line_of(size_t offset) {
  if (offset < line_pos_) {
    line_pos_ = 0;
    line_ = 1;
  }
  const size_t end = std::min(offset, text_.size());
  if (end > line_pos_) {  // std::count vectorises; a per-character loop showed in profiles
    line_ += static_cast<int>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(line_pos_),
                                         text_.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
    line_pos_ = end;
  }
  return line_;
}

int TextCursor::column_of(size_t offset) const {
  offset = std::min(offset, text_.size());
  size_t k = offset;
  while (k > 0 && text_[k - 1] != '\n') --k;
  return static_cast<int>(offset - k) + 1;
}

SourceLocation TextCursor::location(size_t offset) const {
  int line = 1;
  size_t line_start = 0;
  offset = std::min(offset, text_.size());
  for (size_t k = 0; k < offset; ++k)
    if (text_[k] == '\n') ++line, line_start = k + 1;
  return {file_, line, static_cast<int>(offset - line_start) + 1};
}

void TextCursor::fail_at(size_t offset, const std::string& message) const {
  throw Error(message, location(offset));
}

}  // namespace hlsgym::frontend
