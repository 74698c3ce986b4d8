#include "cli/graphs.h"

#include <algorithm>
#include <filesystem>

#include "frontend/load.h"
#include "ir/error.h"

namespace hlsgym::cli {
namespace fs = std::filesystem;

std::vector<std::pair<std::string, ir::Module>> load_graphs(const std::vector<std::string>& args) {
  std::vector<fs::path> files;
  for (const auto& a : args) {
    if (fs::is_directory(a)) {
      std::vector<fs::path> in;
      for (const auto& e : fs::directory_iterator(a))
        if (e.path().extension() == ".hlo" || e.path().extension() == ".yaml") in.push_back(e.path());
      std::sort(in.begin(), in.end());
      if (in.empty()) throw Error(a + ": no .hlo or .yaml graphs in this folder");
      files.insert(files.end(), in.begin(), in.end());
    } else if (fs::is_regular_file(a)) {
      files.emplace_back(a);
    } else {
      throw Error(a + ": no such graph file or folder");
    }
  }
  std::vector<std::pair<std::string, ir::Module>> out;
  for (const auto& f : files) out.emplace_back(f.stem().string(), frontend::load_design(f.string()).module);
  return out;
}

}  // namespace hlsgym::cli
