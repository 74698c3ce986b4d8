// Shared by the binding files: where designs/ and the targets are, loading graph sets,
// and the objects the bindings hand to Python.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "frontend/yaml_design.h"
#include "hwmodel/target.h"
#include "rl/gym_env.h"

namespace hlsgym::python {
namespace py = pybind11;

// designs/ of this package: $HLSGYM_DESIGNS_DIR, the copy inside an installed package
// (set by the Python side at import, see hlsgym/__init__.py), then the source tree the
// module was built from.
std::filesystem::path designs_dir();
void set_package_designs_dir(const std::string& dir);
std::vector<std::filesystem::path> target_search_dirs();

// A loaded design, shared between Python objects without copying the module.
struct PyDesign {
  frontend::Design design;
};
using DesignPtr = std::shared_ptr<PyDesign>;  // pybind11 holders cannot be shared_ptr<const T>
using TargetPtr = std::shared_ptr<const hwmodel::Target>;
using TargetHolder = std::shared_ptr<hwmodel::Target>;  // the Python object's holder

// Folders (every .hlo/.yaml inside, sorted), files and PyDesign objects, as `train
// --graphs` reads them, each named by its stem (a PyDesign by its design name).
std::shared_ptr<rl::GraphSet> load_graph_set(const py::object& graphs);
TargetPtr load_target(const std::string& name_or_path, const std::string& design_target = {});
py::object json_to_python(const std::string& json_text);  // via Python's json module

// The graph observation (rl/graph_observation.h) as a dict of NumPy arrays.
py::dict graph_dict(const ir::Module& m);

void bind_env(py::module_& m);
void bind_library(py::module_& m);

}  // namespace hlsgym::python
