// Text files written on Windows (CRLF) or classic Mac OS (CR) read like Unix ones: every
// reader of user text (designs, HLO, policies, datasets) sees '\n' line ends, so its
// line numbers and its last field on a line are right whatever the file's convention.
#pragma once
#include <string>

namespace hlsgym {

// "\r\n" and a lone '\r' become '\n'; text without '\r' is returned as it is.
inline std::string normalize_line_endings(std::string text) {
  if (text.find('\r') == std::string::npos) return text;
  std::string out;
  out.reserve(text.size());
  for (size_t k = 0; k < text.size(); ++k) {
    if (text[k] != '\r') out += text[k];
    else if (k + 1 == text.size() || text[k + 1] != '\n') out += '\n';
  }
  return out;
}

}  // namespace hlsgym
