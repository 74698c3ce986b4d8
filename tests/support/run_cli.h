// Runs the real hlsgym executable (path baked in at configure time) and captures its
// exit code, stdout and stderr.
#pragma once
#include <string>

namespace hlsgym::testing {

struct CliResult {
  int exit_code = -1;
  std::string out, err;
};

// `args` is appended to the executable path as-is (the caller quotes as needed).
CliResult run_cli(const std::string& args);

}  // namespace hlsgym::testing
