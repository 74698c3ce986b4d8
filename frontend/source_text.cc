#include "frontend/source_text.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "ir/error.h"
#include "ir/line_endings.h"

namespace hlsgym::frontend {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(std::string("cannot open file: ") + std::strerror(errno), {path});
  std::ostringstream ss;
  ss << in.rdbuf();
  return normalize_line_endings(std::move(ss).str());
}

}  // namespace hlsgym::frontend
