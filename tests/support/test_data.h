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

}  // namespace hlsgym::testing
