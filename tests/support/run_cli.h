// Runs the real hlsgym executable (path baked in at configure time) and captures its
// exit code, stdout and stderr.
#pragma once
#include <filesystem>
#include <string>

namespace hlsgym::testing {

struct CliResult {
  int exit_code = -1;
  std::string out, err;
};

// `args` is appended to the executable path as-is (the caller quotes as needed).
CliResult run_cli(const std::string& args);
// The same with `launcher` (e.g. "mpirun -np 2 ") in front of the executable.
CliResult run_cli_under(const std::string& launcher, const std::string& args);

// A whole file as bytes ("" when it cannot be read).
std::string slurp(const std::filesystem::path& p);

}  // namespace hlsgym::testing
