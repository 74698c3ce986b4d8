// hlsgym stats DESIGN [--json]: parse, verify, count, cost, features.
#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "frontend/load.h"
#include "ir/cost_analysis.h"
#include "ir/features.h"

namespace hlsgym::cli {
namespace {

struct StatsFlags {
  std::string design;
  bool json = false;
};

std::vector<std::pair<std::string, int>> sorted_opcode_counts(const ir::Features& f) {
  std::vector<std::pair<std::string, int>> out;
  for (int i = 0; i < ir::kOpcodeCount; ++i)
    if (f.opcode_counts[i] > 0)
      out.emplace_back(std::string(ir::name(static_cast<ir::Opcode>(i))), f.opcode_counts[i]);
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

void run_stats(const StatsFlags& flags) {
  const auto t0 = std::chrono::steady_clock::now();
  frontend::Design d = frontend::load_design(flags.design);
  const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const ir::Features f = ir::extract_features(d.module);
  const auto counts = sorted_opcode_counts(f);
  const auto names = ir::Features::names();
  const auto values = f.to_vector();

  if (flags.json) {
    nlohmann::json j;
    j["design"] = d.name;
    j["file"] = flags.design;
    j["instructions"] = f.instructions;
    j["entry_instructions"] = f.entry_instructions;
    j["computations"] = f.computations;
    nlohmann::json ops = nlohmann::json::object();
    for (const auto& [n, c] : counts) ops[n] = c;
    j["opcodes"] = ops;
    j["flops"] = f.flops;
    j["transcendentals"] = f.transcendentals;
    j["bytes_accessed"] = f.bytes_accessed;
    nlohmann::json feats = nlohmann::json::object();
    for (size_t i = ir::kOpcodeCount; i < names.size(); ++i) feats[names[i]] = values[i];
    j["features"] = feats;
    j["load_seconds"] = load_s;
    fmt::print("{}\n", j.dump(2));
    return;
  }
  fmt::print("design            {}\n", d.name);
  if (!d.description.empty()) fmt::print("description       {}\n", d.description);
  fmt::print("instructions      {} ({} in the entry, {} computations)\n", f.instructions,
             f.entry_instructions, f.computations);
  fmt::print("flops             {:.6g}\n", f.flops);
  fmt::print("transcendentals   {:.6g}\n", f.transcendentals);
  fmt::print("bytes accessed    {:.6g}\n", f.bytes_accessed);
  fmt::print("load + verify     {:.3f} s\n\n", load_s);
  fmt::print("{:<28}{:>8}\n", "opcode", "count");
  for (const auto& [n, c] : counts) fmt::print("{:<28}{:>8}\n", n, c);
  fmt::print("\n{:<28}{:>14}\n", "feature", "value");
  for (size_t i = ir::kOpcodeCount; i < names.size(); ++i)
    fmt::print("{:<28}{:>14.6g}\n", names[i], values[i]);
}

}  // namespace

void add_stats_command(CLI::App& app) {
  auto flags = std::make_shared<StatsFlags>();
  CLI::App* cmd = app.add_subcommand(
      "stats", "Parse and verify a design; print instruction counts by opcode, flops,\n"
               "transcendentals, bytes accessed and graph features.");
  cmd->add_option("DESIGN", flags->design, "a .yaml design or a .hlo XLA HLO text file")
      ->required();
  cmd->add_flag("--json", flags->json, "print one JSON object instead of tables");
  cmd->callback([flags] { run_stats(*flags); });
}

}  // namespace hlsgym::cli
