#include "tests/support/test_data.h"

#include <functional>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

namespace hlsgym::testing {
namespace fs = std::filesystem;

fs::path hlo_data_dir() {
  if (const char* env = std::getenv("HLSGYM_HLO_DATA_DIR")) return env;
  return HLSGYM_HLO_DATA_DIR;
}

std::vector<fs::path> all_hlo_files() {
  std::vector<fs::path> out;
  const fs::path root = hlo_data_dir();
  for (const char* split : {"train", "test"}) {
    const fs::path dir = root / split;
    if (!fs::is_directory(dir)) continue;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".hlo") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  if (out.empty())
    ADD_FAILURE() << "no real HLO files found under " << root
                  << " (set HLSGYM_HLO_DATA_DIR to the folder holding train/ and test/)";
  return out;
}

fs::path source_dir() { return HLSGYM_SOURCE_DIR; }

std::vector<fs::path> all_designs() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(source_dir() / "designs"))
    if (e.path().extension() == ".yaml") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  if (out.empty()) ADD_FAILURE() << "no designs found in " << source_dir() / "designs";
  return out;
}

std::filesystem::path scratch(const std::string& name) {
  const std::filesystem::path d = std::filesystem::temp_directory_path() /
                                  ("hlsgym_tests_" + std::to_string(std::hash<std::string>{}(source_dir().string()) % 1000000007));
  std::filesystem::create_directories(d);
  return d / name;
}

}  // namespace hlsgym::testing
