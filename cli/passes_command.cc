// hlsgym passes [--json]: every pass of the registry — the RL action space, in its order —
// with its one-line description, and the default order.
#include <fmt/core.h>

#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "passes/default_order.h"
#include "passes/registry.h"

namespace hlsgym::cli {
namespace {

void run_passes(bool json) {
  const auto& all = passes::Registry::global().all();
  if (json) {
    nlohmann::json j;
    j["passes"] = nlohmann::json::array();
    for (size_t k = 0; k < all.size(); ++k) {
      auto p = all[k].make();
      j["passes"].push_back({{"action", k}, {"name", all[k].name}, {"description", all[k].description},
                             {"reassociates_floats", p->reassociates_floats()}});
    }
    j["default_order"] = passes::default_order_names();
    j["default_order_missing"] = passes::default_order_missing();
    fmt::print("{}\n", j.dump(2));
    return;
  }
  size_t width = 0;
  for (const auto& p : all) width = std::max(width, p.name.size());
  fmt::print("{} passes (action index, name, description; * = may reorder float arithmetic)\n\n", all.size());
  for (size_t k = 0; k < all.size(); ++k) {
    const bool fp = all[k].make()->reassociates_floats();
    fmt::print("{:>3}  {:<{}} {} {}\n", k, all[k].name, width, fp ? '*' : ' ', all[k].description);
  }
  fmt::print("\ndefault order (XLA CPU pipeline, 2023): {}\n", fmt::join(passes::default_order_names(), ","));
}

}  // namespace

void add_passes_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand(
      "passes", "List every optimization pass (the RL action space, in action-index order)\n"
                "with its one-line description, and XLA's default order.");
  cmd->add_flag("--json", *json, "print one JSON object instead of a table");
  cmd->callback([json] { run_passes(*json); });
}

}  // namespace hlsgym::cli
