// hlsgym optimize DESIGN --order ...: apply a pass order and report before/after.
#include "cli/commands.h"

namespace hlsgym::cli {
void add_optimize_command(CLI::App& app) {}
}  // namespace hlsgym::cli
