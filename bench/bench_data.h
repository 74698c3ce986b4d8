// Where the benchmarks find their inputs: the real XLA HLO files (HLSGYM_HLO_DATA_DIR, from
// the environment or the build) and the source tree's designs.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <vector>

namespace hlsgym::bench {

inline std::filesystem::path hlo_data_dir() {
  const char* env = std::getenv("HLSGYM_HLO_DATA_DIR");
  return env ? env : HLSGYM_HLO_DATA_DIR;
}

// Every .hlo file of train/ and test/.
inline std::vector<std::filesystem::path> hlo_files() {
  std::vector<std::filesystem::path> out;
  for (const char* split : {"train", "test"})
    for (const auto& e : std::filesystem::directory_iterator(hlo_data_dir() / split))
      if (e.path().extension() == ".hlo") out.push_back(e.path());
  return out;
}

// The largest real HLO file by bytes (Gemma-2 2B generate today).
inline const std::filesystem::path& largest_hlo_file() {
  static const std::filesystem::path best = [] {
    std::filesystem::path b;
    uintmax_t size = 0;
    for (const auto& f : hlo_files())
      if (std::filesystem::file_size(f) > size) size = std::filesystem::file_size(f), b = f;
    return b;
  }();
  return best;
}

}  // namespace hlsgym::bench
