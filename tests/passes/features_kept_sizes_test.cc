// A payload keeps its value sizes once feature extraction has read them
// (InstrPayload::sizes, shared by module copies, dropped by Module::mutable_payload). A
// pass that changed a shape without dropping them would leave the next RL state's
// features stale. Here every pass runs on modules whose sizes were filled first (as in
// an RL episode, where the state before was observed), and the features after it must
// equal the definition read from the shapes, bit for bit.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "frontend/hlo_parser.h"
#include "frontend/load.h"
#include "frontend/source_text.h"
#include "ir/features.h"
#include "ir/random_module.h"
#include "passes/registry.h"
#include "tests/support/features_reference.h"
#include "tests/support/test_data.h"

namespace hlsgym::passes {
namespace {

// Runs `info`'s pass on a copy of `original` whose sizes were filled, then checks its
// features (which read the sizes the pass left shared).
void expect_fresh_features_after(const PassInfo& info, const ir::Module& original, const std::string& where) {
  SCOPED_TRACE(info.name + " on " + where);
  ir::extract_features(original);
  ir::Module m = original;
  info.make()->run(m);
  testing::expect_features_identical(m);
}

TEST(FeaturesKeptSizes, EveryPassOnRandomGraphs) {
  for (uint64_t seed = 1; seed <= 120; ++seed) {
    ir::RandomModuleOptions o;
    o.seed = seed;
    o.instructions = 15 + static_cast<int>(seed % 50);
    o.integers = seed % 6 != 0;
    o.floats = seed % 5 != 0;
    const ir::Module original = ir::random_module(o);
    for (const auto& info : Registry::global().all())
      expect_fresh_features_after(info, original, "random graph seed " + std::to_string(seed));
  }
}

TEST(FeaturesKeptSizes, EveryPassOnEveryDesign) {
  for (const auto& path : testing::all_designs()) {
    const ir::Module original = frontend::load_design(path.string()).module;
    for (const auto& info : Registry::global().all()) expect_fresh_features_after(info, original, path.string());
  }
}

// Real files: an RL episode's chain of states, each observed before the next pass runs on
// it (a random order of passes per file).
TEST(FeaturesKeptSizes, RandomOrdersOnEveryRealFile) {
  const auto& all = Registry::global().all();
  uint64_t state = 2024;
  auto next = [&] { state = state * 6364136223846793005ull + 1442695040888963407ull; return state >> 33; };
  for (const auto& path : testing::all_hlo_files()) {
    ir::Module m = frontend::parse_hlo(frontend::read_file(path.string()), path.string());
    for (int k = 0; k < 6; ++k) {
      const PassInfo& info = all[next() % all.size()];
      SCOPED_TRACE(info.name + " (step " + std::to_string(k) + ") on " + path.filename().string());
      ir::extract_features(m);
      const ir::Module before = m;  // the state before, sharing its payloads with m
      info.make()->run(m);
      testing::expect_features_identical(m);
      testing::expect_features_identical(before);
    }
  }
}

}  // namespace
}  // namespace hlsgym::passes
