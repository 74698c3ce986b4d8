#include "cli/graphs.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

#include "dist/world.h"
#include "frontend/load.h"
#include "ir/error.h"

namespace hlsgym::cli {
namespace fs = std::filesystem;

// The entries of a split file: one graph file or folder per line, relative to the list's
// folder; blank lines and lines starting with # are left out.
std::vector<std::string> split_entries(const fs::path& list) {
  std::ifstream in(list);
  if (!in) throw Error(list.string() + ": cannot read the graph list");
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const fs::path p = list.parent_path() / line;
    if (!fs::exists(p)) throw Error(list.string() + ": lists " + line + ", which does not exist");
    out.push_back(p.string());
  }
  if (out.empty()) throw Error(list.string() + ": the graph list is empty");
  return out;
}

std::vector<std::pair<std::string, ir::Module>> load_graphs(const std::vector<std::string>& given) {
  std::vector<std::string> args;  // a list file's entries in its place
  for (const auto& a : given) {
    if (fs::is_regular_file(a) && fs::path(a).extension() == ".txt") {
      const auto entries = split_entries(a);
      args.insert(args.end(), entries.begin(), entries.end());
    } else {
      args.push_back(a);
    }
  }
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

std::vector<std::pair<std::string, ir::Module>> keep_costable(std::vector<std::pair<std::string, ir::Module>> graphs,
                                                              const rl::EnvOptions& o, const std::string& command) {
  const size_t total = graphs.size();
  rl::CostableSplit split = rl::split_costable(std::move(graphs), o);
  if (split.left_out.empty()) return std::move(split.kept);
  const auto& [id, why] = split.left_out.front();
  if (split.kept.empty())
    throw Error(fmt::format("{}: none of the {} graphs has a hardware cost for the reward '{}' ({}: {})", command, total,
                            o.reward, id, why));
  if (dist::is_root())  // every rank of an MPI job loads the same graphs; one says so
    fmt::print(stderr, "note: {} left out {} of {} graphs: the hardware model cannot cost them for the reward '{}' "
             "(first: {}: {})\n", command, split.left_out.size(), total, o.reward, id, why);
  return std::move(split.kept);
}

}  // namespace hlsgym::cli
