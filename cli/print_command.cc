// hlsgym print DESIGN: the module as XLA HLO text.
#include <fmt/core.h>

#include "cli/commands.h"
#include "frontend/load.h"
#include "ir/printer.h"

namespace hlsgym::cli {

void add_print_command(CLI::App& app) {
  struct Flags {
    std::string design;
    bool operand_shapes = false;
    bool no_opaque = false;
  };
  auto flags = std::make_shared<Flags>();
  CLI::App* cmd = app.add_subcommand(
      "print", "Print a design as XLA HLO text (printing what was parsed is a fixed point).");
  cmd->add_option("DESIGN", flags->design, "a .yaml design or a .hlo XLA HLO text file")
      ->required();
  cmd->add_flag("--operand-shapes", flags->operand_shapes,
                "print operand shapes before operand names, as older XLA printers did");
  cmd->add_flag("--no-metadata", flags->no_opaque,
                "leave out attributes hlsgym keeps but does not interpret (metadata, "
                "sharding, backend_config, ...)");
  cmd->callback([flags] {
    frontend::Design d = frontend::load_design(flags->design);
    ir::PrintOptions opts;
    opts.print_operand_shapes = flags->operand_shapes;
    opts.print_opaque = !flags->no_opaque;
    fmt::print("{}", ir::print_module(d.module, opts));
  });
}

}  // namespace hlsgym::cli
