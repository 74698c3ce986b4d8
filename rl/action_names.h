// The pass names an action index meant when a file (policy, dataset) was written, checked
// against this build's action list, so stored action indices never silently drive the
// wrong passes after the registry grows.
#pragma once
#include <string>
#include <vector>

namespace hlsgym::rl {

std::vector<std::string> action_names();  // Env::action_name(0..action_count-1)
// Accepts the actions of this build or a prefix of them (a file written before passes were
// appended: passes/registry.h); throws hlsgym::Error naming `file` and the first action
// that differs, or the count when the file has more actions than this build.
void check_action_names(const std::vector<std::string>& stored, const std::string& file);

}  // namespace hlsgym::rl
