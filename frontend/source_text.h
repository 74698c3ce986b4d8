// Reading an input file whole, with errors that name the file.
#pragma once
#include <string>

namespace hlsgym::frontend {

// Reads `path` into memory with '\n' line ends (CRLF and CR become LF, so line numbers
// in messages are right); throws hlsgym::Error naming the file when it cannot.
std::string read_file(const std::string& path);

}  // namespace hlsgym::frontend
