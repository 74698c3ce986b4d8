// hlsgym._core: the C++ side of the `hlsgym` Python package (see python/CMakeLists.txt).
#include <cstdlib>

#include "common.h"
#include "ir/error.h"

namespace hlsgym::python {
namespace fs = std::filesystem;

namespace {
std::string& package_designs() {
  static std::string dir;
  return dir;
}
}  // namespace

void set_package_designs_dir(const std::string& dir) { package_designs() = dir; }

fs::path designs_dir() {
  if (const char* env = std::getenv("HLSGYM_DESIGNS_DIR")) return env;
  if (!package_designs().empty() && fs::is_directory(package_designs())) return package_designs();
  return fs::path(HLSGYM_SOURCE_DIR) / "designs";
}

std::vector<fs::path> target_search_dirs() {
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("HLSGYM_TARGETS_DIR")) dirs.emplace_back(env);
  dirs.push_back(designs_dir() / "targets");
  return dirs;
}

TargetPtr load_target(const std::string& name_or_path, const std::string& design_target) {
  std::string name = name_or_path;
  if (name.empty()) name = design_target.empty() || design_target == "inline" ? "fpga" : design_target;
  return std::make_shared<const hwmodel::Target>(hwmodel::load_target(name, target_search_dirs()));
}

py::object json_to_python(const std::string& json_text) {
  return py::module_::import("json").attr("loads")(py::str(json_text));
}

}  // namespace hlsgym::python

PYBIND11_MODULE(_core, m) {
  namespace hp = hlsgym::python;
  m.doc() = "hlsgym's C++ core; use the `hlsgym` package, which wraps it.";
  // Every error a user can cause (bad file with its file:line:col, unknown pass, reward,
  // target or space name with the choices) is hlsgym.Error, a ValueError.
  static pybind11::exception<hlsgym::Error> error(m, "Error", PyExc_ValueError);
  pybind11::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const hlsgym::Error& e) {
      PyErr_SetString(error.ptr(), e.what());
    }
  });
  m.def("_set_package_designs_dir", &hp::set_package_designs_dir);
  m.def("designs_dir", [] { return hp::designs_dir().string(); }, "The designs/ folder the package reads.");
  hp::bind_env(m);
  hp::bind_library(m);
}
