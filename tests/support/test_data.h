// Locating test inputs: the real XLA HLO files and the designs folder. A missing data
// folder is a test failure with a message saying where it was looked for, never a skip.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace hlsgym::testing {

// HLSGYM_HLO_DATA_DIR (env var, else the configure-time path) with train/ and test/.
std::filesystem::path hlo_data_dir();
// Every *.hlo under train/ and test/, sorted by path. Fails the test if none is found.
std::vector<std::filesystem::path> all_hlo_files();
// Every designs/*.yaml of the source tree, sorted.
std::vector<std::filesystem::path> all_designs();
std::filesystem::path source_dir();
// `name` in this checkout's own scratch folder under the system temp folder (created), so
// that two checkouts' test runs on one machine (a CI clone beside a worktree) never share
// files.
std::filesystem::path scratch(const std::string& name);

}  // namespace hlsgym::testing
