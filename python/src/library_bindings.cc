// The command line's verbs as functions (load, print, stats, run, passes, optimize,
// report, rtl, search, train, evaluate, policy_order): each calls the same library code
// as its `hlsgym` subcommand and returns what `--json` prints, as Python objects, so a
// result here and the CLI's agree (python/tests/test_library.py checks it).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "common.h"
#include "frontend/hlo_parser.h"
#include "frontend/load.h"
#include "hwmodel/estimate.h"
#include "hwmodel/report.h"
#include "hwmodel/schedulers/schedulers.h"
#include "ir/error.h"
#include "ir/evaluate.h"
#include "ir/features.h"
#include "ir/printer.h"
#include "passes/default_order.h"
#include "passes/equivalence.h"
#include "passes/order.h"
#include "passes/registry.h"
#include "rl/action_names.h"
#include "rl/agent.h"
#include "rl/evaluation.h"
#include "rl/graph_train_env.h"
#include "rl/policy_file.h"
#include "rl/search.h"
#include "rtl/driver.h"
#include "rtl/rtl.h"

namespace hlsgym::python {
namespace fs = std::filesystem;

std::shared_ptr<rl::GraphSet> load_graph_set(const py::object& graphs) {
  auto out = std::make_shared<rl::GraphSet>();
  std::vector<py::object> items;
  if (graphs.is_none()) items.push_back(py::str(designs_dir().string()));  // the shipped designs
  else if (py::isinstance<py::str>(graphs) || py::isinstance<PyDesign>(graphs) || py::hasattr(graphs, "__fspath__"))
    items.push_back(graphs);
  else
    for (py::handle h : graphs) items.push_back(py::reinterpret_borrow<py::object>(h));
  for (const py::object& item : items) {
    if (py::isinstance<PyDesign>(item)) {
      const auto& d = item.cast<const PyDesign&>().design;
      out->emplace_back(d.name.empty() ? d.module.name() : d.name, d.module);
      continue;
    }
    const std::string a = py::str(py::module_::import("os").attr("fspath")(item)).cast<std::string>();
    std::vector<fs::path> files;
    if (fs::is_directory(a)) {  // as `train --graphs DIR`: its .hlo and .yaml files, not sub-folders
      for (const auto& e : fs::directory_iterator(a))
        if (e.path().extension() == ".hlo" || e.path().extension() == ".yaml") files.push_back(e.path());
      std::sort(files.begin(), files.end());
      if (files.empty()) throw Error(a + ": no .hlo or .yaml graphs in this folder");
    } else if (fs::is_regular_file(a)) {
      files.emplace_back(a);
    } else {
      throw Error(a + ": no such graph file or folder");
    }
    for (const auto& f : files) out->emplace_back(f.stem().string(), frontend::load_design(f.string()).module);
  }
  if (out->empty()) throw Error("no graphs given");
  return out;
}

namespace {

DesignPtr as_design(const py::object& d) {
  if (py::isinstance<PyDesign>(d)) return d.cast<DesignPtr>();
  const std::string path = py::str(py::module_::import("os").attr("fspath")(d)).cast<std::string>();
  return std::make_shared<PyDesign>(PyDesign{frontend::load_design(path)});
}

TargetPtr target_for(const py::object& target, const frontend::Design& d) {
  if (target.is_none()) return load_target("", d.target);
  if (py::isinstance<hwmodel::Target>(target)) return TargetPtr(target.cast<TargetHolder>());
  return load_target(py::str(target).cast<std::string>(), d.target);
}

// A literal as NumPy (float64 for floats, int64 for integers and pred; tuples as tuples).
py::object literal_to_numpy(const ir::Literal& v) {
  if (v.is_tuple()) {
    py::tuple t(v.tuple_elements().size());
    for (size_t k = 0; k < v.tuple_elements().size(); ++k) t[k] = literal_to_numpy(v.tuple_elements()[k]);
    return t;
  }
  const auto& dims = v.shape().dims();
  std::vector<py::ssize_t> shape(dims.begin(), dims.end());
  const int64_t n = v.element_count();
  if (ir::is_floating(v.shape().element_type()) || ir::is_complex(v.shape().element_type())) {
    py::array_t<double> a(shape);
    for (int64_t i = 0; i < n; ++i) a.mutable_data()[i] = v.get_double(i);
    return a;
  }
  py::array_t<int64_t> a(shape);
  for (int64_t i = 0; i < n; ++i) a.mutable_data()[i] = static_cast<int64_t>(std::llround(v.get_double(i)));
  return a;
}

py::dict summary(const ir::Module& m) {
  const ir::Features f = ir::extract_features(m);
  py::dict ops;
  std::vector<std::pair<std::string, int>> counts;
  for (int i = 0; i < ir::kOpcodeCount; ++i)
    if (f.opcode_counts[i] > 0) counts.emplace_back(std::string(ir::name(static_cast<ir::Opcode>(i))), f.opcode_counts[i]);
  std::stable_sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  for (const auto& [n, c] : counts) ops[py::str(n)] = c;
  py::dict d;
  d["instructions"] = f.instructions, d["entry_instructions"] = f.entry_instructions;
  d["computations"] = f.computations, d["opcodes"] = ops, d["flops"] = f.flops;
  d["transcendentals"] = f.transcendentals, d["bytes_accessed"] = f.bytes_accessed, d["depth"] = f.depth;
  return d;
}

rl::EnvOptions search_env(const std::string& reward, const py::object& target, const frontend::Design* d) {
  rl::EnvOptions eo;
  eo.reward = reward;
  rl::parse_reward_space(reward);  // unknown names fail before anything is loaded
  if (rl::needs_hardware(rl::parse_reward_space(reward)) || !target.is_none()) {
    if (!target.is_none() && py::isinstance<hwmodel::Target>(target)) eo.target = TargetPtr(target.cast<TargetHolder>());
    else eo.target = load_target(target.is_none() ? "" : py::str(target).cast<std::string>(), d ? d->target : "");
  }
  return eo;
}

// A policy acts on the target it was trained for (a hardware-reward policy file records it).
rl::EnvOptions policy_env(const rl::PolicyFile& p) {
  rl::EnvOptions eo;
  if (rl::needs_hardware(rl::parse_reward_space(p.reward))) eo.target = load_target(p.target, "");
  return eo;
}

std::string policy_path(const std::string& spec) {
  if (spec != "learned") return spec;
  const fs::path p = designs_dir() / "policies" / "learned.policy";
  if (!fs::exists(p)) throw Error("the shipped policy 'learned' was not found (" + p.string() + ")");
  return p.string();
}

}  // namespace

void bind_library(py::module_& m) {
  py::class_<hwmodel::Target, TargetHolder>(m, "Target")
      .def_property_readonly("name", [](const hwmodel::Target& t) { return t.name; })
      .def_property_readonly("is_cpu", &hwmodel::Target::is_cpu)
      .def("__repr__", [](const hwmodel::Target& t) { return "<hlsgym.Target " + t.name + ">"; });
  m.def("load_target", [](const std::string& n) { return std::const_pointer_cast<hwmodel::Target>(load_target(n)); }, py::arg("name_or_path"),
        "A hardware target by name (fpga, cpu: designs/targets/NAME.yaml) or a .yaml path.");
  m.def("target_names", [] { return hwmodel::available_targets(target_search_dirs()); });

  py::class_<PyDesign, DesignPtr>(m, "Design")
      .def_property_readonly("name", [](const PyDesign& d) { return d.design.name; })
      .def_property_readonly("description", [](const PyDesign& d) { return d.design.description; })
      .def_property_readonly("target", [](const PyDesign& d) { return d.design.target; })
      .def_property_readonly("path", [](const PyDesign& d) { return d.design.path; })
      .def_property_readonly("instructions", [](const PyDesign& d) { return d.design.module.instruction_count(); })
      .def("text", [](const PyDesign& d, bool operand_shapes) {
             ir::PrintOptions o;
             o.print_operand_shapes = operand_shapes;
             return ir::print_module(d.design.module, o);
           }, py::arg("operand_shapes") = false, "The module as HLO text (as `hlsgym print`).")
      .def("__repr__", [](const PyDesign& d) {
        return fmt::format("<hlsgym.Design {} ({} instructions)>", d.design.name, d.design.module.instruction_count());
      });

  m.def("load", [](const py::object& path) { return as_design(path); }, py::arg("path"),
        "Loads and verifies a .yaml design or .hlo file; errors say FILE:LINE:COL as the CLI does.");
  m.def("parse_hlo", [](const std::string& text, const std::string& filename) {
          frontend::Design d;
          d.module = frontend::parse_hlo(text, filename);
          d.name = d.module.name();
          d.path = filename;
          return std::make_shared<PyDesign>(PyDesign{std::move(d)});
        }, py::arg("text"), py::arg("filename") = "<input>");
  m.def("print_hlo", [](const py::object& d) { return ir::print_module(as_design(d)->design.module); }, py::arg("design"));

  m.def("stats", [](const py::object& design) {
          const DesignPtr d = as_design(design);
          const ir::Features f = ir::extract_features(d->design.module);
          py::dict out = summary(d->design.module);
          out["design"] = d->design.name;
          const auto names = ir::Features::names();
          const auto values = f.to_vector();
          py::dict feats;
          for (size_t i = ir::kOpcodeCount; i < names.size(); ++i) feats[py::str(names[i])] = values[i];
          out["features"] = feats;
          return out;
        }, py::arg("design"), "As `hlsgym stats --json` (without the timing).");

  m.def("run", [](const py::object& design, uint64_t seed) {
          const DesignPtr d = as_design(design);
          const ir::Module& mod = d->design.module;
          const std::vector<ir::Literal> args = ir::random_inputs(mod, seed);
          ir::EvalResult r;
          {
            py::gil_scoped_release release;
            r = ir::evaluate(mod, args);
          }
          py::dict inputs;
          const auto& params = mod.computation(mod.entry()).params;
          for (size_t k = 0; k < args.size(); ++k)
            inputs[py::str(params[k] == ir::kNoId ? "?" : mod.name(params[k]))] = literal_to_numpy(args[k]);
          py::dict out;
          out["design"] = d->design.name, out["seed"] = seed, out["inputs"] = inputs;
          out["output"] = literal_to_numpy(r.value);
          out["uses_placeholders"] = r.uses_placeholders;
          return out;
        }, py::arg("design"), py::arg("seed") = 0,
        "Interprets on seeded random inputs (as `hlsgym run --seed N`); arrays are float64 or int64.");

  m.def("passes", [] {
    py::list out;
    const auto& all = passes::Registry::global().all();
    for (size_t a = 0; a < all.size(); ++a) {
      py::dict d;
      d["action"] = a, d["name"] = all[a].name, d["description"] = all[a].description;
      out.append(d);
    }
    return out;
  });
  m.def("default_order", &passes::default_order_names);

  m.def("optimize", [](const py::object& design, const py::object& order, bool check, uint64_t seed, int input_sets,
                       const py::object& target) {
          const DesignPtr d = as_design(design);
          std::string spec = order.is_none() ? "default" : "";
          if (!order.is_none()) {
            if (py::isinstance<py::str>(order)) spec = order.cast<std::string>();
            else for (py::handle p : order) spec += (spec.empty() ? "" : ",") + p.cast<std::string>();
          }
          if (spec == "learned") spec = policy_path(spec);
          frontend::Design after = d->design;
          std::vector<std::string> names;
          bool float_tolerance = false;
          if (rl::is_policy_file(spec)) {
            rl::PolicyFile p = rl::load_policy(spec);
            names = rl::policy_order(p, d->design.module, policy_env(p));
            spec = fmt::format("{}", fmt::join(names, ","));
          }
          passes::Order o = passes::parse_order(spec.empty() ? "default" : spec);
          if (names.empty()) names = o.names;
          const auto t0 = std::chrono::steady_clock::now();
          {
            py::gil_scoped_release release;
            o.pipeline->run(after.module);
          }
          const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          for (const auto& n : names)
            if (const auto* info = passes::Registry::global().find(n); info && info->make()->reassociates_floats())
              float_tolerance = true;
          py::dict out;
          out["design"] = d->design.name, out["order"] = names, out["seconds"] = seconds;
          out["before"] = summary(d->design.module), out["after"] = summary(after.module);
          if (check) {
            passes::EquivalenceOptions eo;
            eo.seed = seed, eo.input_sets = input_sets, eo.float_tolerance = float_tolerance;
            passes::EquivalenceResult r;
            {
              py::gil_scoped_release release;
              r = passes::check_equivalence(d->design.module, after.module, eo);
            }
            py::dict c;
            c["status"] = std::string(passes::status_name(r.status)), c["detail"] = r.detail;
            c["sampled"] = r.sampled, c["compared"] = r.compared;
            out["check"] = c;
          }
          if (!target.is_none()) {
            const TargetPtr t = target_for(target, d->design);
            hwmodel::EstimateOptions eo;
            eo.lenient = false;  // as `optimize --target`: an uncostable side is an error
            const hwmodel::Estimate a = hwmodel::estimate(d->design.module, *t, eo);
            const hwmodel::Estimate b = hwmodel::estimate(after.module, *t, eo);
            py::dict hw;
            auto side = [](const hwmodel::Estimate& e) {
              py::dict s;
              s["cycles"] = e.cycles, s["ii"] = e.ii, s["dsp"] = e.area.dsp, s["lut"] = e.area.lut;
              s["ff"] = e.area.ff, s["bram18k"] = e.area.bram18k, s["energy_pj"] = e.energy_pj;
              s["memory_bytes"] = e.memory_bytes, s["fits"] = e.fits;
              return s;
            };
            hw["target"] = t->name, hw["before"] = side(a), hw["after"] = side(b);
            out["hardware"] = hw;
          }
          return py::make_tuple(std::make_shared<PyDesign>(PyDesign{std::move(after)}), out);
        }, py::arg("design"), py::arg("order") = py::none(), py::arg("check") = false, py::arg("seed") = 1,
        py::arg("input_sets") = 2, py::arg("target") = py::none(),
        "Applies an order (default, learned, a list or 'p1,p2', a file, a policy file): (optimized design, report).");

  m.def("report", [](const py::object& design, const py::object& target, const std::string& schedule, int lanes,
                     bool lenient) {
          const DesignPtr d = as_design(design);
          const TargetPtr t = target_for(target, d->design);
          hwmodel::EstimateOptions o;
          const auto kind = hwmodel::scheduler_from_name(schedule);
          if (!kind) throw Error("schedule: expected asap, alap, list or exact, got '" + schedule + "'");
          o.scheduler = *kind, o.lanes = lanes, o.lenient = lenient, o.keep_details = true;
          hwmodel::Estimate e;
          {
            py::gil_scoped_release release;
            e = hwmodel::estimate(d->design.module, *t, o);
          }
          return json_to_python(hwmodel::report_json(d->design.module, *t, e));
        }, py::arg("design"), py::arg("target") = py::none(), py::arg("schedule") = "list", py::arg("lanes") = 0,
        py::arg("lenient") = false, "The HLS-style report as a dict: exactly `hlsgym report --json`.");

  m.def("rtl", [](const py::object& design, const std::string& out_dir, const py::object& target, bool sim,
                  int vectors, uint64_t seed) {
          const DesignPtr d = as_design(design);
          TargetPtr t = target_for(target, d->design);
          if (target.is_none() && t->is_cpu()) t = load_target("fpga");  // as `rtl`: a CPU target does not apply
          rtl::EmitOptions o;
          o.module_name = rtl::module_name_for(d->design.name.empty() ? d->design.module.name() : d->design.name);
          const rtl::EmittedDesign e = rtl::emit(d->design.module, *t, o);
          const rtl::Files files = rtl::write_files(e, out_dir);
          py::dict j;
          j["design"] = o.module_name, j["verilog"] = files.verilog.string();
          j["testbench"] = files.testbench.string(), j["estimated_cycles"] = e.estimated_cycles;
          j["lines"] = e.inventory.lines;
          if (sim) {
            rtl::SimResult r;
            {
              py::gil_scoped_release release;
              const rtl::BuildResult b = rtl::build_model(e, files, false, 600);
              r = rtl::simulate(d->design.module, e, files, b, rtl::SimOptions{vectors, seed, false});
            }
            j["vectors"] = r.vectors, j["mismatches"] = r.mismatches, j["measured_cycles"] = r.measured_cycles;
            j["min_measured_cycles"] = r.min_measured_cycles, j["timeouts"] = r.timeouts;
            j["passed"] = r.passed();
            if (r.first) j["first_mismatch"] = rtl::describe(*r.first);
          }
          return j;
        }, py::arg("design"), py::arg("out_dir"), py::arg("target") = py::none(), py::arg("sim") = false,
        py::arg("vectors") = 16, py::arg("seed") = 1,
        "Emits Verilog and a testbench into out_dir; sim=True builds it with Verilator and cosimulates.");

  m.def("search", [](const py::object& design, const std::string& algo, const std::string& reward,
                     const py::object& target, double budget_s, int64_t budget_steps, int max_len, uint64_t seed) {
          const DesignPtr d = as_design(design);
          const rl::EnvOptions eo = search_env(reward, target, &d->design);
          rl::SearchOptions so;
          so.algo = rl::parse_search_algo(algo);
          so.budget_seconds = budget_s, so.budget_steps = budget_steps, so.max_len = max_len, so.seed = seed;
          rl::SearchResult r;
          {
            py::gil_scoped_release release;
            r = rl::search(d->design.module, d->design.name, eo, so);
          }
          py::dict j;
          j["design"] = d->design.name, j["algo"] = algo, j["reward"] = reward, j["order"] = r.order;
          j["instructions"] = r.instructions, j["cost"] = r.cost, j["initial_cost"] = r.initial_cost;
          j["default_cost"] = r.default_cost ? py::object(py::float_(*r.default_cost)) : py::object(py::none());
          j["evaluations"] = r.evaluations, j["states"] = r.states, j["seconds"] = r.seconds;
          j["optimal"] = r.optimal, j["budget_exhausted"] = r.budget_exhausted, j["refused"] = r.refused;
          if (eo.target) j["target"] = eo.target->name;
          return j;
        }, py::arg("design"), py::arg("algo") = "greedy", py::arg("reward") = "opcount", py::arg("target") = py::none(),
        py::arg("budget_s") = 0.0, py::arg("budget_steps") = 0, py::arg("max_len") = 30, py::arg("seed") = 1,
        "Searches pass orders (random, greedy, beam, ga, exhaustive): as `hlsgym search --json`.");

  m.def("train", [](const py::object& graphs, const std::string& output, const std::string& algo,
                    const std::string& reward, const py::object& target, int64_t steps, uint64_t seed,
                    int episode_len, const std::string& observation, bool normalize) {
          if (algo != "ppo" && algo != "a2c" && algo != "dqn") throw Error("algo '" + algo + "': expected ppo, a2c or dqn");
          rl::EnvOptions eo = search_env(reward, target, nullptr);
          eo.observation = observation, eo.max_steps = episode_len, eo.normalize_by_default = normalize;
          auto set = load_graph_set(graphs);
          rl::GraphTrainEnv env(rl::split_costable(std::move(*set), eo).kept, eo);
          rl::AgentOptions ao;
          ao.algo = algo, ao.seed = seed, ao.planned_steps = steps;
          rl::PolicyFile policy;
          policy.agent = rl::make_agent(ao, env.observation_size(), rl::Env::action_count());
          policy.algo = algo, policy.observation = eo.observation, policy.reward = eo.reward;
          policy.max_steps = eo.max_steps, policy.actions = rl::action_names();
          py::list curve;
          std::vector<std::pair<int64_t, double>> points;
          {
            py::gil_scoped_release release;
            policy.agent->train(env, steps, [&](const rl::TrainProgress& p) {
              if (p.episodes) points.emplace_back(p.steps, p.mean_return);
            });
          }
          rl::save_policy(policy, output);
          for (const auto& [s, r] : points) curve.append(py::make_tuple(s, r));
          py::dict j;
          j["policy"] = output, j["steps"] = policy.agent->steps_done(), j["curve"] = curve;
          return j;
        }, py::arg("graphs"), py::arg("output"), py::arg("algo") = "ppo", py::arg("reward") = "opcount",
        py::arg("target") = py::none(), py::arg("steps") = 20000, py::arg("seed") = 1, py::arg("episode_len") = 30,
        py::arg("observation") = "opcount", py::arg("normalize") = false,
        "Trains a policy (as `hlsgym train`) and writes it to output; returns the learning curve.");

  m.def("policy_order", [](const std::string& policy, const py::object& design) {
          rl::PolicyFile p = rl::load_policy(policy_path(policy));
          return rl::policy_order(p, as_design(design)->design.module, policy_env(p));
        }, py::arg("policy"), py::arg("design"), "The pass order a policy file (or 'learned') picks for a design.");

  m.def("evaluate", [](const py::object& graphs, const std::string& policy, const std::string& reward,
                       const py::object& target, bool baselines, uint64_t seed) {
          rl::EnvOptions eo = search_env(reward, target, nullptr);
          auto set = load_graph_set(graphs);
          rl::OrderPolicy op;
          // As `evaluate --policy`: a policy file (or `learned`), else a search policy by name.
          const std::string path = policy == "learned" ? policy_path(policy) : policy;
          if (fs::is_regular_file(path) && rl::is_policy_file(path)) {
            auto file = std::make_shared<rl::PolicyFile>(rl::load_policy(path));
            op.name = policy;
            op.order = [file, eo](const ir::Module& g, const std::string&) { return rl::policy_order(*file, g, eo); };
          } else {
            op = rl::search_policy(policy, eo);
          }
          rl::EvalOptions o;
          o.baselines = baselines, o.seed = seed;
          rl::EvalReport r;
          {
            py::gil_scoped_release release;
            r = rl::evaluate_policy(*set, eo, op, o);
          }
          py::list rows;
          for (const auto& g : r.graphs) {
            py::dict d;
            d["graph"] = g.graph, d["order"] = g.order;
            if (!g.uncostable.empty()) d["uncostable"] = g.uncostable;
            else {
              d["initial"] = g.initial, d["default"] = g.default_cost, d["policy"] = g.policy_cost;
              d["ratio"] = g.ratio ? py::object(py::float_(*g.ratio)) : py::object(py::none());
              d["at_least_default"] = g.policy_cost <= g.default_cost;
            }
            rows.append(d);
          }
          py::dict j;
          j["policy"] = r.policy, j["reward"] = r.reward, j["geomean"] = r.geomean_ratio;
          j["at_least_default"] = r.at_least_default, j["geomean_speedup"] = r.geomean_speedup;
          j["undefined_ratio"] = r.undefined_ratio, j["uncostable"] = r.uncostable, j["graphs"] = rows;
          return j;
        }, py::arg("graphs"), py::arg("policy") = "learned", py::arg("reward") = "opcount",
        py::arg("target") = py::none(), py::arg("baselines") = false, py::arg("seed") = 1,
        "A policy's orders against XLA's default order (as `hlsgym evaluate --json`).");

  m.def("graph_observation", [](const py::object& design) { return graph_dict(as_design(design)->design.module); },
        py::arg("design"), "A design as a graph (nodes, features, CSR edges): see rl/graph_observation.h.");
}

}  // namespace hlsgym::python
