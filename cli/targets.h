// Where `--target NAME` is looked up, shared by every subcommand that takes a target.
#pragma once
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "hwmodel/target.h"

namespace hlsgym::cli {

// $HLSGYM_TARGETS_DIR, the source tree this binary was built from, then designs/targets
// relative to the executable (build/cli/hlsgym) and an installed share/hlsgym/targets.
std::vector<std::filesystem::path> target_search_dirs();

// `name_or_path` empty: the design's own `target:` or else "fpga".
std::shared_ptr<const hwmodel::Target> load_cli_target(const std::string& name_or_path,
                                                        const std::string& design_target);

// designs/policies/NAME.policy beside the targets (`--order learned`); throws when absent.
std::string shipped_policy_path(const std::string& name);
// What a policy argument names: `learned` is the shipped policy for `reward` on `target`
// (rl::shipped_policy_name; an Error naming the shipped ones if none), anything else a path.
std::string resolve_policy(const std::string& spec, const std::string& reward, const std::string& target);

}  // namespace hlsgym::cli
