// The environment classes as Python sees them: _core.Env (one GymEnv; hlsgym.envs
// subclasses it as the Gymnasium-shaped PassOrderEnv), _core.VectorEnv and the graph
// observation. step() is written against the C API where pybind11's conveniences cost
// time (interned dict keys, one NumPy allocation per array): the bar is a Python step at
// most 3 us slower than the C++ step it wraps (bench/python_bench.py measures it).
#include <chrono>
#include <cstring>

#include "common.h"
#include "ir/error.h"
#include "ir/printer.h"
#include "rl/graph_observation.h"
#include "rl/spaces.h"
#include "rl/vector_env.h"

namespace hlsgym::python {
namespace {

struct Keys {
  py::object pass = py::reinterpret_steal<py::object>(PyUnicode_InternFromString("pass"));
  py::object changed = py::reinterpret_steal<py::object>(PyUnicode_InternFromString("changed"));
  py::object refused = py::reinterpret_steal<py::object>(PyUnicode_InternFromString("refused"));
  py::object refusal = py::reinterpret_steal<py::object>(PyUnicode_InternFromString("refusal"));
  py::object failed = py::reinterpret_steal<py::object>(PyUnicode_InternFromString("failed"));
  py::object error = py::reinterpret_steal<py::object>(PyUnicode_InternFromString("error"));
  py::object instructions = py::reinterpret_steal<py::object>(PyUnicode_InternFromString("instructions"));
  py::object cost = py::reinterpret_steal<py::object>(PyUnicode_InternFromString("cost"));
  py::object mask = py::reinterpret_steal<py::object>(PyUnicode_InternFromString("action_mask"));
  py::object graph = py::reinterpret_steal<py::object>(PyUnicode_InternFromString("graph"));
  std::vector<py::object> action_names;
  Keys() {
    for (int a = 0; a < rl::Env::action_count(); ++a) action_names.push_back(py::str(rl::Env::action_name(a)));
  }
};
const Keys& keys() {
  static const Keys* k = new Keys();  // never destroyed: Python objects outlive no interpreter
  return *k;
}

void set(PyObject* dict, const py::object& key, PyObject* value) {  // steals value
  PyDict_SetItem(dict, key.ptr(), value);
  Py_DECREF(value);
}

template <typename T>
py::array_t<T> to_array(const std::vector<T>& v) {
  py::array_t<T> a(static_cast<py::ssize_t>(v.size()));
  if (!v.empty()) std::memcpy(a.mutable_data(), v.data(), v.size() * sizeof(T));
  return a;
}

std::vector<std::string> graph_ids(const rl::GymEnv& e) {
  std::vector<std::string> ids;
  for (const auto& g : e.graphs()) ids.push_back(g.first);
  return ids;
}

}  // namespace

py::dict graph_dict(const ir::Module& m) {
  const rl::GraphObservation g = rl::graph_observation(m);
  py::array_t<float> features({static_cast<py::ssize_t>(g.nodes()), static_cast<py::ssize_t>(rl::kGraphNodeFeatures)});
  if (!g.features.empty()) std::memcpy(features.mutable_data(), g.features.data(), g.features.size() * sizeof(float));
  py::dict d;
  d["opcode"] = to_array(g.opcode);
  d["features"] = features;
  d["row_ptr"] = to_array(g.row_ptr);
  d["col"] = to_array(g.col);
  d["edge_type"] = to_array(g.edge_type);
  return d;
}

namespace {

// "tried": passes run in this state that changed nothing (free); "exact": every pass is
// also tried on a copy of each new state (rl/gym_env.h).
bool mask_mode(const std::string& name) {
  if (name != "tried" && name != "exact")
    throw Error("action_mask '" + name + "': expected tried (passes seen to change nothing, free) or exact "
                "(every pass tried on each new state)");
  return name == "exact";
}

int to_action(py::handle a) {
  PyObject* index = PyNumber_Index(a.ptr());
  if (!index) {
    PyErr_Clear();
    throw py::value_error("action must be an integer in [0, " + std::to_string(rl::Env::action_count()) + "), got " +
                          py::repr(a).cast<std::string>());
  }
  const long long v = PyLong_AsLongLong(index);
  Py_DECREF(index);
  if (PyErr_Occurred()) PyErr_Clear();
  if (v < 0 || v >= rl::Env::action_count())
    throw py::value_error("action " + std::to_string(v) + " is out of range [0, " +
                          std::to_string(rl::Env::action_count()) + ")");
  return static_cast<int>(v);
}

rl::EnvOptions env_options(const std::string& observation, const std::string& reward, const py::object& target,
                           int max_steps, bool normalize, bool shaping, double gamma, const py::object& hw_weights) {
  rl::EnvOptions o;
  o.observation = observation, o.reward = reward, o.max_steps = max_steps;
  o.normalize_by_default = normalize, o.shaping = shaping, o.gamma = gamma;
  if (!hw_weights.is_none()) {
    o.hw_weights.clear();
    for (auto [k, v] : hw_weights.cast<py::dict>()) {
      const std::string key = k.cast<std::string>();
      if (key != "cycles" && key != "energy" && key != "area" && key != "memory")
        throw Error("hw_weights: unknown key '" + key + "'; expected cycles, energy, area or memory");
      o.hw_weights[key] = v.cast<double>();
    }
  }
  if (py::isinstance<py::str>(target)) o.target = load_target(target.cast<std::string>());
  else if (!target.is_none()) o.target = TargetPtr(target.cast<TargetHolder>());
  return o;
}

// Graphs the reward can cost; the others are left out with a Python warning (as `train`
// says so on stderr), an error when none is left.
std::shared_ptr<const rl::GraphSet> costable(std::shared_ptr<rl::GraphSet> graphs, const rl::EnvOptions& o) {
  rl::CostableSplit split = rl::split_costable(std::move(*graphs), o);
  if (split.kept.empty())
    throw Error("none of the graphs has a hardware cost for the reward '" + o.reward + "' (" +
                split.left_out.front().first + ": " + split.left_out.front().second + ")");
  if (!split.left_out.empty()) {
    std::string msg = std::to_string(split.left_out.size()) + " graphs left out: the hardware model cannot cost them (first: " +
                      split.left_out.front().first + ": " + split.left_out.front().second + ")";
    PyErr_WarnEx(PyExc_RuntimeWarning, msg.c_str(), 2);
  }
  return std::make_shared<const rl::GraphSet>(std::move(split.kept));
}

struct PyEnv {
  rl::GymEnv env;
  bool graph_obs = false;

  py::object observation() const {
    if (graph_obs) return graph_dict(env.env().module());
    py::array_t<float> a(env.observation_size());
    env.observation(a.mutable_data());
    return a;
  }
  py::array_t<int8_t> mask() const {
    const auto& m = env.action_mask();
    py::array_t<int8_t> a(static_cast<py::ssize_t>(m.size()));
    std::memcpy(a.mutable_data(), m.data(), m.size());
    return a;
  }
  void add_state_info(PyObject* info) const {
    const auto& k = keys();
    set(info, k.instructions, PyFloat_FromDouble(env.env().metrics().instructions()));
    set(info, k.cost, PyFloat_FromDouble(env.env().cost()));
    set(info, k.mask, mask().release().ptr());
  }

  py::tuple reset(std::optional<uint64_t> seed, const py::object& options) {
    std::string graph;
    if (!options.is_none()) {
      py::dict d = options.cast<py::dict>();
      for (auto [key, value] : d) {
        const std::string name = key.cast<std::string>();
        if (name != "graph") throw Error("reset options: unknown key '" + name + "'; the only one is 'graph'");
        graph = value.cast<std::string>();
      }
    }
    env.reset(seed, graph);
    py::dict info;
    info[keys().graph] = py::str(env.graph_id());
    add_state_info(info.ptr());
    return py::make_tuple(observation(), info);
  }

  py::tuple step(py::handle action) {
    const int a = to_action(action);
    const rl::GymStep s = env.step(a);
    const auto& k = keys();
    PyObject* info = PyDict_New();
    PyDict_SetItem(info, k.pass.ptr(), k.action_names[static_cast<size_t>(a)].ptr());
    PyDict_SetItem(info, k.changed.ptr(), s.changed ? Py_True : Py_False);
    PyDict_SetItem(info, k.refused.ptr(), s.refused ? Py_True : Py_False);
    PyDict_SetItem(info, k.failed.ptr(), s.error.empty() ? Py_False : Py_True);
    if (s.refused) set(info, k.refusal, PyUnicode_FromString(s.refusal.c_str()));
    if (!s.error.empty()) set(info, k.error, PyUnicode_FromString(s.error.c_str()));
    if (env.started()) add_state_info(info);
    return py::reinterpret_steal<py::tuple>(
        PyTuple_Pack(5, observation().ptr(), py::float_(s.reward).ptr(), s.terminated ? Py_True : Py_False,
                     s.truncated ? Py_True : Py_False, py::reinterpret_steal<py::object>(info).ptr()));
  }

  // The same steps as a C++ loop over GymEnv (observation into a buffer, reset when an
  // episode ends), for the Python-overhead benchmark: seconds taken.
  double run_in_cpp(const std::vector<int>& actions) {
    std::vector<float> obs(static_cast<size_t>(env.observation_size()));
    const auto t0 = std::chrono::steady_clock::now();
    for (int a : actions) {
      if (env.done()) env.reset();
      env.step(a);
      env.observation(obs.data());
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
};

struct PyVectorEnv {
  std::unique_ptr<rl::VectorEnv> vec;

  py::tuple reset(std::optional<uint64_t> seed) {
    const int n = vec->num_envs(), d = vec->observation_size(), a = rl::Env::action_count();
    py::array_t<float> obs({n, d});
    py::array_t<int8_t> masks({n, a});
    rl::VectorStepBuffers b;
    b.observations = obs.mutable_data();
    b.action_masks = reinterpret_cast<uint8_t*>(masks.mutable_data());
    {
      py::gil_scoped_release release;
      vec->reset(seed, b);
    }
    py::dict info;
    info["action_mask"] = masks;
    where(info);
    return py::make_tuple(obs, info);
  }

  // Where each environment is after a reset or step: its cost (the reward space's cost,
  // as PassOrderEnv.cost) and its graph as an index into graph_ids, so that a trainer can
  // keep the best state its own episodes reached on each graph.
  void where(py::dict& info) const {
    const int n = vec->num_envs();
    py::array_t<double> cost(n);
    py::array_t<int32_t> graph(n);
    for (int i = 0; i < n; ++i) {
      cost.mutable_data()[i] = vec->env(i).env().cost();
      graph.mutable_data()[i] = static_cast<int32_t>(vec->env(i).graph_index());
    }
    info["cost"] = cost, info["graph_index"] = graph;
  }

  py::tuple step(const py::handle& actions_in) {
    const int n = vec->num_envs(), d = vec->observation_size(), a = rl::Env::action_count();
    auto actions = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(actions_in);
    if (!actions || actions.ndim() != 1 || actions.shape(0) != n)
      throw py::value_error("actions must be an integer array of shape (" + std::to_string(n) + ",)");
    const int64_t* act = actions.data();
    for (int i = 0; i < n; ++i)
      if (act[i] < 0 || act[i] >= a)
        throw py::value_error("action " + std::to_string(act[i]) + " of environment " + std::to_string(i) +
                              " is out of range [0, " + std::to_string(a) + ")");
    py::array_t<float> obs({n, d});
    py::array_t<double> rewards(n);
    py::array_t<bool> term(n), trunc(n), changed(n), refused(n), failed(n);
    py::array_t<int8_t> masks({n, a});
    rl::VectorStepBuffers b;
    b.observations = obs.mutable_data();
    b.rewards = rewards.mutable_data();
    auto u8 = [](py::array_t<bool>& x) { return reinterpret_cast<uint8_t*>(x.mutable_data()); };
    b.terminated = u8(term), b.truncated = u8(trunc), b.changed = u8(changed), b.refused = u8(refused);
    b.failed = u8(failed);
    b.action_masks = reinterpret_cast<uint8_t*>(masks.mutable_data());
    {
      py::gil_scoped_release release;
      vec->step(act, b);
    }
    py::dict info;
    info["changed"] = changed, info["refused"] = refused, info["failed"] = failed, info["action_mask"] = masks;
    where(info);
    if (!vec->errors().empty()) {
      py::dict errors;
      for (const auto& [i, msg] : vec->errors()) errors[py::int_(i)] = msg;
      info["error"] = errors;
    }
    return py::make_tuple(obs, rewards, term, trunc, info);
  }
};

}  // namespace

void bind_env(py::module_& m) {
  keys();
  py::class_<PyEnv>(m, "Env", py::dynamic_attr())
      // First, so that an Env argument is never taken for a `graphs` argument.
      .def(py::init([](const PyEnv& other) {
             return PyEnv{other.env.fork(), other.graph_obs};
           }),
           "An independent copy in the same state (fork).")
      .def(py::init([](const py::object& graphs, const std::string& observation, const std::string& reward,
                       const py::object& target, int max_steps, bool normalize, bool shaping, double gamma,
                       const py::object& hw_weights, const std::string& action_mask) {
             const bool exact = mask_mode(action_mask);
             const bool graph = observation == "graph";
             rl::EnvOptions o = env_options(graph ? "opcount" : observation, reward, target, max_steps, normalize,
                                            shaping, gamma, hw_weights);
             rl::Env check(o);  // bad names fail here, before graphs are loaded
             auto set = costable(load_graph_set(graphs), o);
             PyEnv env{rl::GymEnv(std::move(set), std::move(o)), graph};
             env.env.set_exact_mask(exact);
             return env;
           }),
           py::arg("graphs"), py::arg("observation") = "opcount", py::arg("reward") = "opcount",
           py::arg("target") = py::none(), py::arg("max_steps") = 30, py::arg("normalize") = false,
           py::arg("shaping") = false, py::arg("gamma") = 0.99, py::arg("hw_weights") = py::none(),
           py::arg("action_mask") = "tried")
      .def("reset", &PyEnv::reset, py::kw_only(), py::arg("seed") = py::none(), py::arg("options") = py::none())
      .def("step", &PyEnv::step, py::arg("action"))
      .def("_run_in_cpp", &PyEnv::run_in_cpp)
      .def_property_readonly("observation_size", [](const PyEnv& e) { return e.env.observation_size(); })
      .def_property_readonly("graph_observation_mode", [](const PyEnv& e) { return e.graph_obs; })
      .def_property_readonly("exact_action_mask", [](const PyEnv& e) { return e.env.exact_mask(); })
      .def_property_readonly("observation_low", [](const PyEnv& e) { return to_array(e.env.observation_low()); })
      .def_property_readonly("action_mask", &PyEnv::mask)
      .def_property_readonly("graph", [](const PyEnv& e) { return e.env.graph_id(); })
      .def_property_readonly("graph_ids", [](const PyEnv& e) { return graph_ids(e.env); })
      .def_property_readonly("cost", [](const PyEnv& e) { return e.env.env().cost(); })
      .def_property_readonly("initial_cost", [](const PyEnv& e) { return e.env.env().initial_cost(); })
      .def_property_readonly("instructions", [](const PyEnv& e) { return e.env.env().metrics().instructions(); })
      .def_property_readonly("steps", [](const PyEnv& e) { return e.env.env().steps(); })
      .def_property_readonly("state", [](const PyEnv& e) { return e.env.env().state().to_text(); },
                             "DESIGN|pass,pass,...: replays exactly with replay()")
      .def("replay", [](PyEnv& e, const std::string& state) {
             e.env.replay(rl::EnvState::from_text(state));
             return e.observation();
           })
      .def("render_text", [](const PyEnv& e) { return e.env.env().render(); })
      .def("module_text", [](const PyEnv& e) { return ir::print_module(e.env.env().module()); })
      .def("graph_observation", [](const PyEnv& e) { return graph_dict(e.env.env().module()); })
      .def("validate", [](const PyEnv& e, int input_sets) {
             passes::EquivalenceOptions o;
             o.input_sets = input_sets;
             passes::EquivalenceResult r;
             {
               py::gil_scoped_release release;
               r = e.env.env().validate(o);
             }
             py::dict d;
             d["status"] = std::string(passes::status_name(r.status));
             d["passed"] = r.status == passes::CheckStatus::kPassed;
             d["detail"] = r.detail, d["sampled"] = r.sampled, d["compared"] = r.compared;
             d["uses_placeholders"] = r.uses_placeholders;
             return d;
           }, py::arg("input_sets") = 2);

  py::class_<PyVectorEnv>(m, "VectorEnv")
      .def(py::init([](int num_envs, const py::object& graphs, const std::string& observation,
                       const std::string& reward, const py::object& target, int max_steps, bool normalize,
                       bool shaping, double gamma, const py::object& hw_weights, int threads,
                       const std::string& action_mask) {
             const bool exact = mask_mode(action_mask);
             rl::EnvOptions o = env_options(observation, reward, target, max_steps, normalize, shaping, gamma,
                                            hw_weights);
             rl::Env check(o);
             auto set = costable(load_graph_set(graphs), o);
             PyVectorEnv v{std::make_unique<rl::VectorEnv>(std::move(set), std::move(o), num_envs, threads)};
             v.vec->set_exact_mask(exact);
             return v;
           }),
           py::arg("num_envs"), py::arg("graphs"), py::arg("observation") = "opcount", py::arg("reward") = "opcount",
           py::arg("target") = py::none(), py::arg("max_steps") = 30, py::arg("normalize") = false,
           py::arg("shaping") = false, py::arg("gamma") = 0.99, py::arg("hw_weights") = py::none(),
           py::arg("threads") = 2, py::arg("action_mask") = "tried")
      .def("reset", &PyVectorEnv::reset, py::kw_only(), py::arg("seed") = py::none())
      .def("step", &PyVectorEnv::step, py::arg("actions"))
      .def_property_readonly("num_envs", [](const PyVectorEnv& v) { return v.vec->num_envs(); })
      .def_property_readonly("observation_size", [](const PyVectorEnv& v) { return v.vec->observation_size(); })
      .def_property_readonly("observation_low", [](const PyVectorEnv& v) { return to_array(v.vec->env(0).observation_low()); })
      .def_property_readonly("graph_ids", [](const PyVectorEnv& v) { return graph_ids(v.vec->env(0)); })
      .def("state", [](const PyVectorEnv& v, int i) {
             if (i < 0 || i >= v.vec->num_envs()) throw py::index_error("no environment " + std::to_string(i));
             return v.vec->env(i).env().state().to_text();
           });

  m.def("action_names", [] {
    std::vector<std::string> n;
    for (int a = 0; a < rl::Env::action_count(); ++a) n.push_back(rl::Env::action_name(a));
    return n;
  });
  m.def("graph_node_feature_names", &rl::graph_node_feature_names);
  m.def("opcode_names", [] {
    std::vector<std::string> n;
    for (int i = 0; i < ir::kOpcodeCount; ++i) n.emplace_back(ir::name(static_cast<ir::Opcode>(i)));
    return n;
  });
  m.def("observation_names", [] { return std::vector<std::string>{"opcount", "features", "cost", "history", "graph-wl", "graph"}; });
  m.def("reward_names", [] { return std::vector<std::string>{"opcount", "cycles", "energy", "area", "memory", "hw"}; });
}

}  // namespace hlsgym::python
