// Cheap applicability (passes/applicability.h) is sound: wherever a state's opcode counts
// say a pass cannot change the module, running the pass changes nothing. Checked on every
// design, every real HLO graph and random graphs, each before and after XLA's default order
// (a different opcode mix), so an entry that forgets an opcode its pass acts on fails here.
#include <gtest/gtest.h>

#include "frontend/load.h"
#include "ir/features.h"
#include "ir/module_hash.h"
#include "ir/random_module.h"
#include "passes/applicability.h"
#include "passes/default_order.h"
#include "passes/registry.h"
#include "tests/support/test_data.h"

namespace hlsgym::passes {
namespace {

// Runs every pass whose test says "cannot change" on `m`; returns how many were checked.
int check_sound(const ir::Module& m, const std::string& where) {
  const ir::Features f = ir::extract_features(m);
  int checked = 0;
  for (const auto& info : Registry::global().all()) {
    if (!cannot_change(info.name, f.opcode_counts)) continue;
    ir::Module copy = m;
    const bool changed = info.make()->run(copy);
    EXPECT_FALSE(changed) << info.name << " changed " << where << " although none of its opcodes occurs there";
    // The structural hash, not the printed text: printing the large graphs for every
    // masked pass made this test take minutes.
    EXPECT_EQ(ir::structural_hash(copy), ir::structural_hash(m)) << info.name << " edited " << where;
    ++checked;
  }
  return checked;
}

void check_with_default_order(const ir::Module& m, const std::string& where, int& checked) {
  checked += check_sound(m, where);
  // The default order on the largest graphs (up to ~10k instructions) was most of this
  // test's time; their initial states are checked, and the smaller graphs after it too.
  if (ir::extract_features(m).instructions > 2000) return;
  ir::Module d = m;
  make_default_order()->run(d);
  checked += check_sound(d, where + " after the default order");
}

TEST(Applicability, NeverMasksAPassThatWouldChangeTheModule) {
  int checked = 0;
  for (const auto& path : testing::all_designs())
    check_with_default_order(frontend::load_design(path.string()).module, path.string(), checked);
  for (const auto& path : testing::all_hlo_files())
    check_with_default_order(frontend::load_design(path.string()).module, path.string(), checked);
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    ir::RandomModuleOptions o;
    o.seed = seed;
    o.instructions = 15 + static_cast<int>(seed % 50);
    check_with_default_order(ir::random_module(o), "random graph " + std::to_string(seed), checked);
  }
  EXPECT_GT(checked, 1000);  // the test has teeth: most graphs lack most of these opcodes
}

TEST(Applicability, EveryEntryNamesARegisteredPass) {
  int with_test = 0;
  for (const auto& info : Registry::global().all()) with_test += !opcodes_acted_on(info.name).empty();
  EXPECT_EQ(opcodes_acted_on("no-such-pass").size(), 0u);
  EXPECT_EQ(with_test, 41);  // every entry of the table found among the registered passes
  EXPECT_FALSE(cannot_change("algsimp", {}));  // no test: never masked
}

}  // namespace
}  // namespace hlsgym::passes
