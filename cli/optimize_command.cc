// hlsgym optimize DESIGN --order default|p1,p2,...|FILE|POLICY|MAPPING [--check] [-o OUT] [--json]:
// apply a pass order; print before/after instruction counts by opcode, flops,
// transcendentals, bytes and the time taken; --check proves the outputs unchanged;
// --target T adds the hardware estimate before and after (cycles, II, DSP/LUT/FF/BRAM,
// energy, memory), an error when the model cannot cost either (as in `report`).
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/json_output.h"
#include "frontend/load.h"
#include "hwmodel/estimate.h"
#include "ir/error.h"
#include "ir/features.h"
#include "ir/output_file.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/equivalence.h"
#include "passes/order.h"
#include "rl/distill.h"
#include "rl/guided_search.h"
#include "rl/policy_file.h"
#include "cli/targets.h"

namespace hlsgym::cli {
namespace {

struct OptimizeFlags {
  std::string design, order, output, target, inputs;
  std::string reward = "opcount";  // which shipped policy `--order learned` means
  bool check = false, json = false;
  uint64_t seed = 1;
  int input_sets = 2, samples = 48;
  double max_steps = 5e8, max_bytes = 4e9;
  int64_t refine_budget = 0;  // pass runs for policy-guided search (rl/guided_search.h); 0: none
  int refine_top_k = 2;  // rl::GuidedOptions::top_k
};

// Exit code of a --check that proved nothing (budget exceeded, nothing compared): not a
// failure of the passes (1), not a success (0).
constexpr int kInconclusiveExit = 3;

struct Summary {
  ir::Features f;
  std::map<std::string, int> opcodes;
};

Summary summarize(const ir::Module& m) {
  Summary s{ir::extract_features(m), {}};
  for (int i = 0; i < ir::kOpcodeCount; ++i)
    if (s.f.opcode_counts[i] > 0) s.opcodes[std::string(ir::name(static_cast<ir::Opcode>(i)))] = s.f.opcode_counts[i];
  return s;
}

nlohmann::json summary_json(const Summary& s) {
  return {{"instructions", s.f.instructions}, {"entry_instructions", s.f.entry_instructions},
          {"computations", s.f.computations}, {"opcodes", s.opcodes}, {"flops", s.f.flops},
          {"transcendentals", s.f.transcendentals}, {"bytes_accessed", s.f.bytes_accessed},
          {"depth", s.f.depth}};
}

// The hardware estimate of one side, never a guess: an op without a cost model or a loop
// of unproven trip count is `report`'s error (with its file:line). A design too big for
// the part is still estimated (fits = false), so the delta shows whether passes help.
hwmodel::Estimate checked_estimate(const ir::Module& m, const hwmodel::Target& t, const char* which) {
  hwmodel::EstimateOptions o;
  o.lenient = true;
  hwmodel::Estimate e = hwmodel::estimate(m, t, o);
  if (e.uncosted_ops.empty() && e.unknown_trip_counts == 0) return e;
  o.lenient = false;
  try {
    hwmodel::estimate(m, t, o);
  } catch (const Error& err) {
    throw Error(fmt::format("--target {}: the design {} the passes has no hardware cost: {}", t.name, which,
                            err.message()), err.where());
  }
  throw Error(fmt::format("--target {}: the design {} the passes has no hardware cost", t.name, which));
}

struct HardwareDelta {
  std::string target;
  hwmodel::Estimate before, after;
};

std::vector<std::pair<std::string, std::pair<double, double>>> hardware_rows(const HardwareDelta& h) {
  const auto& a = h.before;
  const auto& b = h.after;
  return {{"cycles", {static_cast<double>(a.cycles), static_cast<double>(b.cycles)}},
          {"ii", {static_cast<double>(a.ii), static_cast<double>(b.ii)}},
          {"dsp", {a.area.dsp, b.area.dsp}},
          {"lut", {a.area.lut, b.area.lut}},
          {"ff", {a.area.ff, b.area.ff}},
          {"bram18k", {a.area.bram18k, b.area.bram18k}},
          {"energy_pj", {a.energy_pj, b.energy_pj}},
          {"memory_bytes", {static_cast<double>(a.memory_bytes), static_cast<double>(b.memory_bytes)}}};
}

void print_table(const std::string& design, const passes::Order& order, const Summary& a,
                 const Summary& b, double seconds, const passes::EquivalenceResult* check,
                 const std::optional<HardwareDelta>& hw) {
  fmt::print("design            {}\n", design);
  fmt::print("order             {} ({} passes): {}\n", order.spec, order.names.size(), fmt::join(order.names, ","));
  fmt::print("time              {:.3f} ms\n\n", seconds * 1e3);
  fmt::print("{:<28}{:>12}{:>12}{:>10}\n", "", "before", "after", "change");
  auto row = [](const std::string& n, double x, double y) {
    const double pct = x != 0 ? 100.0 * (y - x) / x : 0.0;
    fmt::print("{:<28}{:>12.6g}{:>12.6g}{:>9.1f}%\n", n, x, y, pct);
  };
  row("instructions", static_cast<double>(a.f.instructions), static_cast<double>(b.f.instructions));
  row("entry instructions", static_cast<double>(a.f.entry_instructions), static_cast<double>(b.f.entry_instructions));
  row("flops", a.f.flops, b.f.flops);
  row("transcendentals", a.f.transcendentals, b.f.transcendentals);
  row("bytes accessed", a.f.bytes_accessed, b.f.bytes_accessed);
  row("depth", static_cast<double>(a.f.depth), static_cast<double>(b.f.depth));
  if (hw) {
    fmt::print("\n{:<28}{:>12}{:>12}{:>10}\n", fmt::format("hardware ({})", hw->target), "before", "after", "change");
    for (const auto& [n, v] : hardware_rows(*hw)) row(n, v.first, v.second);
    fmt::print("{:<28}{:>12}{:>12}\n", "fits the part", hw->before.fits ? "yes" : "no", hw->after.fits ? "yes" : "no");
  }
  fmt::print("\n{:<28}{:>12}{:>12}\n", "opcode", "before", "after");
  std::map<std::string, std::pair<int, int>> ops;
  for (const auto& [n, c] : a.opcodes) ops[n].first = c;
  for (const auto& [n, c] : b.opcodes) ops[n].second = c;
  for (const auto& [n, c] : ops)
    fmt::print("{:<28}{:>12}{:>12}{}\n", n, c.first, c.second, c.first != c.second ? "  *" : "");
  if (check)
    fmt::print("\ncheck             {} ({} output elements compared{}{}){}{}\n", passes::status_name(check->status),
               check->compared, check->sampled ? ", sampled" : "",
               check->uses_placeholders ? ", outputs depend on placeholder values" : "",
               check->detail.empty() ? "" : ": ", check->detail);
}

// The order to run and, for a mapping file, the cluster that chose it.
struct ChosenOrder {
  passes::Order order;
  std::optional<nlohmann::json> mapping;
  std::optional<rl::GuidedResult> refined;  // --refine-budget: the policy's order and the search's
  std::string policy_file;  // the policy that chose the order (`learned`: the shipped one picked)
};

// `default`, a list, an order file, a trained policy file (rl/policy_file.h), whose
// greedy episode on this design gives the order, or a mapping from `hlsgym distill`
// (rl/distill.h), whose nearest centroid to this design's features gives it.
ChosenOrder order_from_spec(const std::string& given, const ir::Module& design, const OptimizeFlags& flags) {
  const std::string spec = resolve_policy(given, flags.reward, flags.target);
  ChosenOrder chosen;
  chosen.order.spec = given;
  if (rl::is_mapping_file(spec)) {
    const rl::Mapping mapping = rl::load_mapping(spec);
    const rl::MappingMatch match = rl::lookup(mapping, design);
    const rl::MappingCluster& c = mapping.clusters[static_cast<size_t>(match.cluster)];
    chosen.order.names = c.sequence;
    chosen.mapping = nlohmann::json{{"file", spec}, {"cluster", match.cluster}, {"clusters", mapping.clusters.size()},
                                    {"distance", match.distance}, {"members", c.members}};
  } else if (rl::is_policy_file(spec)) {
    rl::PolicyFile policy = rl::load_policy(spec);
    chosen.policy_file = spec;
    rl::EnvOptions eo;
    // The policy acts on the target it was trained for (its cost observation and fixed-point
    // rounds read that target's costs); --target only chooses what the table reports.
    if (rl::needs_hardware(rl::parse_reward_space(policy.reward))) eo.target = load_cli_target(policy.target, "");
    if (flags.refine_budget > 0) {
      rl::GuidedOptions go;
      go.budget_steps = flags.refine_budget, go.top_k = flags.refine_top_k, go.seed = flags.seed;
      chosen.refined = rl::guided_order(policy, design, eo, go);
      chosen.order.names = chosen.refined->order;
    } else {
      chosen.order.names = rl::policy_order(policy, design, eo);
    }
  } else {
    if (flags.refine_budget > 0)
      throw Error("--refine-budget refines a policy's order: give --order learned or a policy file");
    chosen.order = passes::parse_order(spec);
    return chosen;
  }
  chosen.order.pipeline = passes::make_pipeline(chosen.order.names);
  return chosen;
}

int run_optimize(const OptimizeFlags& flags) {
  // Refused before any work: an -o that is a symlink, FIFO, directory or read-only file,
  // or one another run is writing.
  std::optional<ir::OutputLock> lock;
  if (!flags.output.empty()) {
    ir::check_output_path(flags.output);
    lock.emplace(flags.output);
  }
  frontend::Design d = frontend::load_design(flags.design);
  std::string spec = flags.order;
  if (spec.empty()) spec = d.passes.empty() ? "default" : fmt::format("{}", fmt::join(d.passes, ","));
  ChosenOrder chosen = order_from_spec(spec, d.module, flags);
  passes::Order& order = chosen.order;

  const ir::Module before = d.module;
  ir::Module after = d.module;
  const auto t0 = std::chrono::steady_clock::now();
  order.pipeline->run(after);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (auto issues = ir::verify_all(after); !issues.empty())
    throw Error(fmt::format("internal: the module does not verify after the passes: {}", issues.front().message));

  passes::EquivalenceResult check;
  check.detail = "not requested (--check)";
  if (flags.check) {
    passes::EquivalenceOptions o;
    o.seed = flags.seed;
    o.input_sets = flags.input_sets;
    o.samples = flags.samples;
    o.float_tolerance = order.pipeline->reassociates_floats();
    o.max_steps = flags.max_steps;
    o.max_bytes = flags.max_bytes;
    if (!flags.inputs.empty()) o.given_inputs.push_back(inputs_from_json_file(before, flags.inputs));
    check = passes::check_equivalence(before, after, o);
  }
  // A module that failed --check is not written: a later step would take it for a
  // checked one. One whose check was skipped is written, and the run says so and fails.
  const bool write = !flags.output.empty() && check.status != passes::CheckStatus::kFailed;
  if (write) ir::write_file_atomically(flags.output, ir::print_module(after));
  const Summary a = summarize(before), b = summarize(after);
  std::optional<HardwareDelta> hw;
  if (!flags.target.empty()) {
    const auto target = load_cli_target(flags.target, d.target);
    hw = HardwareDelta{target->name, checked_estimate(before, *target, "before"),
                       checked_estimate(after, *target, "after")};
  }
  if (flags.json) {
    nlohmann::json j;
    j["design"] = d.name;
    j["order_spec"] = order.spec;
    j["order"] = order.names;
    if (chosen.mapping) j["mapping"] = *chosen.mapping;
    if (!chosen.policy_file.empty()) j["policy_file"] = chosen.policy_file;
    if (chosen.refined)
      j["refined"] = {{"policy_order", chosen.refined->policy_order}, {"pass_runs", chosen.refined->evaluations},
                      {"policy_pass_runs", chosen.refined->policy_evaluations}, {"searched", chosen.refined->searched},
                      {"budget", flags.refine_budget}, {"top_k", flags.refine_top_k}};
    j["before"] = summary_json(a);
    j["after"] = summary_json(b);
    j["seconds"] = seconds;
    j["check"] = passes::status_name(check.status);
    j["check_detail"] = check.detail;
    j["check_sampled"] = check.sampled;
    j["check_compared"] = check.compared;
    j["float_tolerance"] = order.pipeline->reassociates_floats();
    if (!flags.output.empty()) j["output_written"] = write;
    if (hw) {
      nlohmann::json h = {{"target", hw->target}};
      for (const auto& [n, v] : hardware_rows(*hw)) {
        h["before"][n] = v.first;
        h["after"][n] = v.second;
        h["change"][n] = v.second - v.first;
      }
      h["before"]["fits"] = hw->before.fits;
      h["after"]["fits"] = hw->after.fits;
      j["hardware"] = h;
    }
    fmt::print("{}\n", j.dump(2));
  } else {
    if (chosen.mapping) {
      const auto& mj = *chosen.mapping;
      auto members = mj["members"].get<std::vector<std::string>>();
      const size_t n = members.size();
      if (n > 4) members.resize(3), members.push_back(fmt::format("{} more", n - 3));
      fmt::print("mapping           cluster {} of {} (distance {:.4g}; distilled on {})\n", mj["cluster"].get<int>(),
                 mj["clusters"].get<size_t>(), mj["distance"].get<double>(), fmt::join(members, ", "));
    }
    if (!chosen.policy_file.empty() && chosen.policy_file != order.spec)
      fmt::print("policy            {}\n", chosen.policy_file);
    if (chosen.refined) {
      const rl::GuidedResult& g = *chosen.refined;
      fmt::print("refined           from the policy's order ({} passes: {}) by a beam over its top {} actions and fixed-point rounds: {} "
                 "pass runs of {} ({} the policy's){}\n", g.policy_order.size(), fmt::join(g.policy_order, ","),
                 flags.refine_top_k, g.evaluations, flags.refine_budget, g.policy_evaluations,
                 g.searched ? "" : "; no budget left to search");
    }
    print_table(d.name, order, a, b, seconds, flags.check ? &check : nullptr, hw);
  }
  if (check.status == passes::CheckStatus::kFailed) {
    fmt::print(stderr, "error: {}: check FAILED: the optimized module computes different outputs: {}{}\n",
               flags.design, check.detail, flags.output.empty() ? "" : "; " + flags.output + " was not written");
    return 1;
  }
  if (check.status == passes::CheckStatus::kInconclusive) {
    fmt::print(stderr, "error: {}: check inconclusive: {}{}\n", flags.design, check.detail,
               write ? "; " + flags.output + " is written but unchecked" : "");
    return kInconclusiveExit;
  }
  if (flags.check && write && check.status == passes::CheckStatus::kSkipped) {
    fmt::print(stderr, "error: {}: --check was skipped ({}); {} is written but unchecked\n", flags.design,
               check.detail, flags.output);
    return 1;
  }
  return 0;
}

}  // namespace

void add_optimize_command(CLI::App& app) {
  auto flags = std::make_shared<OptimizeFlags>();
  CLI::App* cmd = app.add_subcommand(
      "optimize",
      "Apply a pass order to a design and print before/after instruction counts by opcode,\n"
      "flops, transcendentals, bytes accessed and the time taken. With --check, interpret\n"
      "the design before and after on random inputs (sampled output elements on graphs too\n"
      "big to interpret whole) and fail on any difference: bit-exact for integers, equal\n"
      "values for floats, and a stated per-type tolerance only when a pass of the order\n"
      "reorders float arithmetic (`hlsgym passes` marks those with *).");
  cmd->add_option("DESIGN", flags->design, "a .yaml design or a .hlo XLA HLO text file")->required();
  cmd->add_option("--order", flags->order,
                  "`default` (XLA's CPU pipeline order), a comma-separated list of pass names,\n"
                  "a file of pass names, a policy file from `hlsgym train`, `learned` (the\n"
                  "shipped policy for --reward and --target: op count designs/policies/learned.policy,\n"
                  "cycles on fpga fpga-cycles.policy, cycles on cpu cpu-cycles.policy), or a mapping from\n"
                  "`hlsgym distill` (the sequence of the cluster nearest this design's\n"
                  "features; --json names the cluster); default: the design's `passes:` or\n"
                  "`default`");
  cmd->add_option("--reward", flags->reward,
                  "the cost `--order learned` was trained to lower: picks the shipped policy (opcount\n"
                  "or cycles; other rewards have none)")
      ->capture_default_str();
  cmd->add_option("--refine-budget", flags->refine_budget,
                  "with a policy: refine its order from its end state (a beam over its top-k actions\n"
                  "per state, fixed-point rounds of the passes that changed the cost, a beam again),\n"
                  "within this many pass runs in all (the policy's own included);\n"
                  "never worse than the policy's order (rl/guided_search.h); 0: the policy's order")
      ->check(CLI::NonNegativeNumber)->capture_default_str();
  cmd->add_option("--refine-top-k", flags->refine_top_k, "the policy's best actions tried per state by --refine-budget")
      ->check(CLI::Range(1, 1000))->capture_default_str();
  cmd->add_flag("--check", flags->check, "prove the outputs unchanged on random inputs");
  cmd->add_option("--seed", flags->seed, "seed of the random inputs for --check")->capture_default_str();
  cmd->add_option("--input-sets", flags->input_sets, "random input sets for --check")
      ->check(CLI::Range(1, 1000))->capture_default_str();
  cmd->add_option("--samples", flags->samples, "sampled elements per output on big graphs")
      ->check(CLI::Range(1, 100000))->capture_default_str();
  cmd->add_option("--inputs", flags->inputs,
                  "JSON file of inputs for --check instead of random ones (as `run --inputs`)");
  cmd->add_option("--max-steps", flags->max_steps,
                  "--check: interpretation budget of the whole check (every input set, before and\n"
                  "after) in steps of about one element of an elementwise op (~20 ns; dot products,\n"
                  "reduced inputs and calls count too); past it the check is inconclusive (exit 3)")->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--max-bytes", flags->max_bytes,
                  "--check: memory budget of the interpretation in bytes (exit 3 past it)")
      ->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("-o,--output", flags->output, "write the optimized module as HLO text");
  cmd->add_option("--target", flags->target,
                  "also estimate the hardware before and after on this target (fpga, cpu or\n"
                  "FILE.yaml): cycles, II, DSP, LUT, FF, BRAM18K, energy and memory, and the change");
  cmd->add_flag("--json", flags->json, "print one JSON object instead of tables");
  cmd->callback([flags] {
    if (int rc = run_optimize(*flags); rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace hlsgym::cli
