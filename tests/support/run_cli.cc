#include "tests/support/run_cli.h"

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace hlsgym::testing {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CliResult run_cli(const std::string& args) { return run_cli_under("", args); }

CliResult run_cli_under(const std::string& launcher, const std::string& args) {
  namespace fs = std::filesystem;
  static int counter = 0;
  const fs::path dir = fs::temp_directory_path() /
                       ("hlsgym_cli_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
  fs::create_directories(dir);
  const std::string cmd = launcher + HLSGYM_CLI + " " + args + " >" + (dir / "out").string() +
                          " 2>" + (dir / "err").string();
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(dir / "out");
  r.err = slurp(dir / "err");
  fs::remove_all(dir);
  return r;
}

}  // namespace hlsgym::testing
