// hlsgym: learn compiler pass orderings against hardware cost.
#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>
#include <string>

#include "cli/commands.h"
#include "dist/world.h"
#include "ir/error.h"

namespace {

std::string one_line(std::string what) {
  for (char& c : what)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return what;
}

int run(int argc, char** argv) {
  CLI::App app{
      "hlsgym: XLA-HLO dataflow graphs from YAML designs or real XLA HLO text, optimized by\n"
      "pass orderings (default, explicit, learned or searched) and costed on hardware models."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "hlsgym 0.1.0");
  hlsgym::cli::add_stats_command(app);
  hlsgym::cli::add_print_command(app);
  hlsgym::cli::add_run_command(app);
  hlsgym::cli::add_passes_command(app);
  hlsgym::cli::add_optimize_command(app);
  hlsgym::cli::add_report_command(app);
  hlsgym::cli::add_search_command(app);
  hlsgym::cli::add_rtl_command(app);
  hlsgym::cli::add_evaluate_command(app);
  hlsgym::cli::add_train_command(app);
  hlsgym::cli::add_collect_command(app);
  hlsgym::cli::add_distill_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {  // a subcommand's own exit code (its message is printed)
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    // --help and --version print and succeed; any other option error is a user error:
    // one `error:` line and exit 1, like every other error a user can cause.
    // Under mpirun every rank parses the same flags: one rank prints.
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return hlsgym::dist::is_root() ? app.exit(e) : 0;
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    hlsgym::dist::finish_after_user_error(what + "; see --help");
    return 1;
  } catch (const hlsgym::Error& e) {
    // One line, whatever the message quotes from the input (a name with a line break...),
    // printed once however many ranks met it (they all read the same files).
    hlsgym::dist::finish_after_user_error(one_line(e.what()));
    return 1;
  } catch (const std::bad_alloc&) {
    if (hlsgym::dist::size() > 1) hlsgym::dist::abort_job("out of memory");
    fmt::print(stderr, "error: out of memory\n");
    return 1;
  } catch (const std::exception& e) {
    if (hlsgym::dist::size() > 1) hlsgym::dist::abort_job(std::string("internal: ") + e.what());
    fmt::print(stderr, "error: internal: {}\n", e.what());
    return 2;
  }
  return 0;
}

}  // namespace

// One binary alone or under `mpirun -np R` (dist/world.h): the world is joined first and
// left last, after every subcommand has finished with it.
int main(int argc, char** argv) {
  hlsgym::dist::World world(argc, argv);
  return run(argc, argv);
}
