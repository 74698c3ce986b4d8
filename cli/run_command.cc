// hlsgym run DESIGN [--seed N | --inputs FILE.json] [--sample K] [--json]: interpret.
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/json_output.h"
#include "frontend/load.h"
#include "frontend/source_text.h"
#include "ir/error.h"
#include "ir/evaluate.h"

namespace hlsgym::cli {
namespace {

struct RunFlags {
  std::string design;
  uint64_t seed = 0;
  std::string inputs_file;
  int sample = 0;
  int64_t max_elements = 16;
  bool json = false;
  double max_bytes = 8e9;
  double max_steps = 3e8;  // about six seconds
};

// Work charged to --max-steps besides the interpretation's own steps, in the same unit
// (about one elementwise element): a random input element is one step, a printed value
// fifteen (formatting a number and holding it as JSON was measured at ~15x an add).
constexpr double kStepsPerPrintedValue = 15;

double leaf_elements(const ir::Shape& s, int64_t cap) {
  if (s.is_tuple()) {
    double n = 0;
    for (const ir::Shape& e : s.tuple_elements()) n += leaf_elements(e, cap);
    return n;
  }
  const auto n = static_cast<double>(s.element_count());
  return cap > 0 ? std::min(n, static_cast<double>(cap)) : n;
}

std::vector<std::string> parameter_names(const ir::Module& m) {
  std::vector<std::string> names;
  for (ir::InstrId p : m.computation(m.entry()).params)
    names.push_back(p == ir::kNoId ? "?" : m.name(p));
  return names;
}

void print_value(const std::string& label, const ir::Literal& v, int64_t max_elements) {
  if (v.is_tuple()) {
    for (size_t k = 0; k < v.tuple_elements().size(); ++k)
      print_value(label + "." + std::to_string(k), v.tuple_elements()[k], max_elements);
    return;
  }
  fmt::print("{} : {} = {}\n", label, v.shape().to_string(false),
             literal_to_json(v, max_elements).dump());
}

void run(const RunFlags& flags) {
  frontend::Design d = frontend::load_design(flags.design);
  const ir::Module& m = d.module;
  // Refused before anything is allocated: random inputs of a 400 GB parameter would
  // end in "out of memory" (or the OOM killer).
  double input_bytes = 0;
  for (ir::InstrId p : m.computation(m.entry()).params) input_bytes += static_cast<double>(m.shape(p).byte_size());
  if (input_bytes > flags.max_bytes)
    throw Error(fmt::format("the inputs take {:.3g} bytes, over the interpreter's memory budget of {:.3g} (--max-bytes)",
                            input_bytes, flags.max_bytes), {flags.design});
  // Refused up front as well: generating a few hundred million random inputs, or printing
  // them as JSON (--json prints every element), takes minutes and gigabytes by itself.
  double input_elements = 0, printed = 0;
  const int64_t cap = flags.json ? 0 : flags.max_elements;
  for (ir::InstrId p : m.computation(m.entry()).params) {
    input_elements += leaf_elements(m.shape(p), 0);
    if (flags.sample == 0 || flags.json) printed += leaf_elements(m.shape(p), cap);
  }
  if (flags.sample == 0) printed += leaf_elements(m.shape(m.computation(m.entry()).root), cap);
  const double own = (flags.inputs_file.empty() ? input_elements : 0) + kStepsPerPrintedValue * printed;
  if (own > flags.max_steps)
    throw Error(fmt::format("generating the inputs and printing {:.3g} values take {:.3g} steps, over the budget "
                            "of {:.3g} (--max-steps){}", printed, own, flags.max_steps,
                            flags.json ? "; without --json the table prints --max-elements per array" : ""),
                {flags.design});
  ir::EvalOptions eo;
  eo.max_bytes = flags.max_bytes;
  eo.max_steps = flags.max_steps;
  std::vector<ir::Literal> args = flags.inputs_file.empty()
                                      ? ir::random_inputs(m, flags.seed)
                                      : inputs_from_json_file(m, flags.inputs_file);
  const auto names = parameter_names(m);
  const auto t0 = std::chrono::steady_clock::now();
  nlohmann::json out;
  bool placeholders = false;
  std::vector<std::string> placeholder_ops;
  try {
    if (flags.sample > 0) {
      ir::SampledResult r = ir::evaluate_sampled(m, args, flags.sample, flags.seed, eo);
      placeholders = r.uses_placeholders;
      nlohmann::json leaves = nlohmann::json::array();
      for (size_t k = 0; k < r.indices.size(); ++k)
        leaves.push_back({{"leaf", k}, {"indices", r.indices[k]},
                          {"values", literal_to_json(r.values[k])}});
      out["samples"] = leaves;
    } else {
      ir::EvalResult r = ir::evaluate(m, args, eo);
      placeholders = r.uses_placeholders;
      placeholder_ops = r.placeholder_ops;
      out["output"] = literal_to_json(r.value, flags.json ? 0 : flags.max_elements);
      if (!flags.json) {
        for (size_t k = 0; k < args.size(); ++k) print_value("input " + names[k], args[k], flags.max_elements);
        print_value("output", r.value, flags.max_elements);
      }
    }
  } catch (const ir::EvalBudgetExceeded& e) {
    throw Error(fmt::format("{}; raise --max-steps (--max-bytes), or evaluate a few output elements with --sample K",
                            e.what()));
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (flags.json) {
    nlohmann::json inputs = nlohmann::json::object();
    for (size_t k = 0; k < args.size(); ++k) inputs[names[k]] = literal_to_json(args[k]);
    out["design"] = d.name;
    out["seed"] = flags.seed;
    out["inputs"] = inputs;
    out["uses_placeholders"] = placeholders;
    out["placeholder_ops"] = placeholder_ops;
    out["seconds"] = secs;
    fmt::print("{}\n", out.dump(2));
    return;
  }
  if (flags.sample > 0) fmt::print("{}\n", out["samples"].dump(2));
  if (placeholders)
    fmt::print("note: outputs depend on placeholder values for ops hlsgym does not interpret "
               "(custom-calls or elided constants): {}\n",
               placeholder_ops.empty() ? std::string("see --json") : fmt::format("{}", fmt::join(placeholder_ops, ", ")));
  fmt::print("evaluated in {:.3f} s\n", secs);
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto flags = std::make_shared<RunFlags>();
  CLI::App* cmd = app.add_subcommand(
      "run", "Interpret a design on random (seeded) or given inputs and print the outputs.");
  cmd->add_option("DESIGN", flags->design, "a .yaml design or a .hlo XLA HLO text file")
      ->required();
  cmd->add_option("--seed", flags->seed, "seed of the random inputs")->capture_default_str();
  cmd->add_option("--inputs", flags->inputs_file,
                  "JSON file with the inputs: {\"param\": value, ...} or [value, ...]; values are "
                  "nested lists, \"nan\"/\"inf\" for non-finite floats");
  cmd->add_option("--sample", flags->sample,
                  "evaluate only K randomly chosen elements of each output (for graphs too big "
                  "to interpret whole)");
  cmd->add_option("--max-bytes", flags->max_bytes,
                  "memory budget of the interpretation in bytes: inputs and values that would\n"
                  "exceed it are refused before they are allocated")
      ->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--max-steps", flags->max_steps,
                  "work budget in steps (about one element of an elementwise op each; dot products,\n"
                  "reduced inputs, generated inputs and printed values count too): past it `run`\n"
                  "stops with an error instead of running for minutes")
      ->check(CLI::PositiveNumber)->capture_default_str();
  cmd->add_option("--max-elements", flags->max_elements,
                  "elements printed per array in the table (0 = all)")
      ->capture_default_str();
  cmd->add_flag("--json", flags->json, "print one JSON object (all elements)");
  cmd->callback([flags] { run(*flags); });
}

}  // namespace hlsgym::cli
