// Shared by the rtl tests: targets, designs, random graphs after random pass orders, and
// a scratch folder per test (a Verilator build per design, reused across its vectors).
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "frontend/load.h"
#include "hwmodel/target.h"
#include "ir/error.h"
#include "ir/random_module.h"
#include "ir/verifier.h"
#include "passes/registry.h"
#include "rtl/driver.h"
#include "rtl/rtl.h"
#include "tests/support/test_data.h"

namespace hlsgym::testing {

inline const hwmodel::Target& rtl_fpga() {
  static const hwmodel::Target t = hwmodel::load_target("fpga", {source_dir() / "designs" / "targets"});
  return t;
}

inline frontend::Design rtl_design(const std::string& name) {
  return frontend::load_design((source_dir() / "designs" / (name + ".yaml")).string());
}

// A fresh folder for one test's files: the test's name keeps parallel tests apart, the
// checkout's path keeps two checkouts' test runs on one machine apart.
inline std::filesystem::path rtl_work_dir(const std::string& name) {
  const std::filesystem::path d = scratch("rtl") / name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

// Whether every array value of `m` has an integer or pred element type.
inline bool integer_only(const ir::Module& m) {
  for (ir::CompId c : m.live_computations())
    for (ir::InstrId i : m.instructions(c))
      if (m.shape(i).is_array() && ir::is_floating(m.shape(i).element_type())) return false;
  return true;
}

// The designs of designs/ by name, split by whether they are integer designs (the
// cosimulation set) or float designs (cosimulated after --fixed quantization). Found on
// disk, so a design added to designs/ is cosimulated without editing the tests.
inline const std::vector<std::string>& designs_where(bool integer) {
  static const auto split = [] {
    std::vector<std::string> ints, floats;
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(source_dir() / "designs"))
      if (e.path().extension() == ".yaml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files)
      (integer_only(frontend::load_design(f.string()).module) ? ints : floats).push_back(f.stem().string());
    return std::make_pair(ints, floats);
  }();
  return integer ? split.first : split.second;
}
inline const std::vector<std::string>& integer_designs() { return designs_where(true); }
inline const std::vector<std::string>& float_designs() { return designs_where(false); }
// The integer designs and the loop and indexing designs, as paths (emission-only tests).
inline std::vector<std::string> integer_and_control_design_files() {
  std::vector<std::string> files;
  for (const std::string& d : integer_designs()) files.push_back((source_dir() / "designs" / (d + ".yaml")).string());
  for (const char* folder : {"loops", "indexing"})
    for (const auto& f : std::filesystem::directory_iterator(source_dir() / "designs" / folder))
      if (f.path().extension() == ".hlo" || f.path().extension() == ".yaml") files.push_back(f.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// The message of the hlsgym::Error `f` throws ("" when it throws none).
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Random graphs small enough for a quick Verilator build: rank <= 2, dims <= 4, two
// outputs, no calls; `floats` (f32 with f16/bf16 and integer converts) and `loops`
// (counted while loops) as asked.
inline ir::RandomModuleOptions small_rtl_graph_options(uint64_t seed, int instructions, bool floats, bool loops) {
  ir::RandomModuleOptions o;
  o.seed = seed;
  o.instructions = instructions;
  o.floats = floats;
  o.control_flow = loops;
  o.calls = false;
  o.max_rank = 2;
  o.max_dim = 4;
  o.outputs = 2;
  return o;
}

// A small integer graph (no floats; no control flow, or with `loops` counted while loops
// but no calls) after a random order of `passes` passes from the registry; the names
// applied go to `order`.
inline ir::Module random_rtl_graph(uint64_t seed, int passes, std::vector<std::string>& order, bool loops = false) {
  ir::Module m = ir::random_module(small_rtl_graph_options(seed, 10 + static_cast<int>(seed % 15), false, loops));
  m.set_name("random_" + std::to_string(seed));
  const auto& all = passes::Registry::global().all();
  std::mt19937_64 rng(seed * 7919 + 13);
  for (int k = 0; k < passes; ++k) {
    const passes::PassInfo& p = all[rng() % all.size()];
    p.make()->run(m);
    order.push_back(p.name);
  }
  ir::verify(m);
  return m;
}

inline std::string order_text(const std::vector<std::string>& order) {
  std::string s;
  for (const auto& n : order) s += (s.empty() ? "" : ",") + n;
  return s;
}

}  // namespace hlsgym::testing
