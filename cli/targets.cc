#include "cli/targets.h"

#include <cstdlib>

#include "ir/error.h"
#include "rl/policy_file.h"

namespace hlsgym::cli {
namespace fs = std::filesystem;

std::vector<fs::path> target_search_dirs() {
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("HLSGYM_TARGETS_DIR")) dirs.emplace_back(env);
  dirs.emplace_back(fs::path(HLSGYM_SOURCE_DIR) / "designs" / "targets");
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    dirs.push_back(exe.parent_path() / ".." / ".." / "designs" / "targets");
    dirs.push_back(exe.parent_path() / ".." / "share" / "hlsgym" / "targets");
  }
  return dirs;
}

std::shared_ptr<const hwmodel::Target> load_cli_target(const std::string& name_or_path,
                                                        const std::string& design_target) {
  std::string name = name_or_path;
  if (name.empty()) name = design_target.empty() || design_target == "inline" ? "fpga" : design_target;
  return std::make_shared<const hwmodel::Target>(hwmodel::load_target(name, target_search_dirs()));
}

std::string shipped_policy_path(const std::string& name) {
  for (const auto& d : target_search_dirs()) {
    const fs::path p = d.parent_path() / "policies" / (name + ".policy");
    if (fs::exists(p)) return p.string();
  }
  throw Error("the shipped policy '" + name + "' was not found (designs/policies/" + name + ".policy)");
}

std::string resolve_policy(const std::string& spec, const std::string& reward, const std::string& target) {
  return spec == "learned" ? shipped_policy_path(rl::shipped_policy_name(reward, target)) : spec;
}

}  // namespace hlsgym::cli
