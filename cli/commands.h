// The hlsgym subcommands. Each registers its flags on the CLI11 app and runs by calling
// the libraries; none holds logic of its own beyond formatting the result.
#pragma once
#include <CLI/CLI.hpp>

namespace hlsgym::cli {

void add_stats_command(CLI::App& app);
void add_print_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_passes_command(CLI::App& app);
void add_optimize_command(CLI::App& app);
void add_report_command(CLI::App& app);
void add_search_command(CLI::App& app);
void add_rtl_command(CLI::App& app);
void add_evaluate_command(CLI::App& app);
void add_train_command(CLI::App& app);
void add_distill_command(CLI::App& app);
void add_collect_command(CLI::App& app);

}  // namespace hlsgym::cli
