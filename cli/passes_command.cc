// hlsgym passes [--json]: every pass of the registry, the RL action space, in order.
#include "cli/commands.h"

namespace hlsgym::cli {
void add_passes_command(CLI::App& app) {}
}  // namespace hlsgym::cli
