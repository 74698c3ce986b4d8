// computation-deduplicator buckets computations by a hash before comparing them; the hash
// covers tuple shapes, constant bytes and some attributes so that computations differing
// only there (while conditions over different tuples or bounds) are not all compared with
// each other. These tests hold that the hash never separates equal computations: after
// the pass no two eligible computations that call the same callees are still equal, on
// random modules full of such near-twins and on hand-written ones.
#include <gtest/gtest.h>

#include "ir/random_module.h"
#include "passes/structural_equality.h"
#include "tests/passes/pass_golden.h"

namespace hlsgym::passes {
namespace {
using ir::CompId;
using ir::InstrId;

// The computations the pass may merge: not the entry, not a fusion body or a collective's
// computation, at most 128 instructions and 1 KiB of constants (the pass's own rules).
std::vector<CompId> eligible(const ir::Module& m) {
  std::vector<bool> excluded(m.computation_slots(), false);
  for (CompId c : m.live_computations())
    for (InstrId i : m.instructions(c))
      if (m.opcode(i) == ir::Opcode::kFusion || ir::info(m.opcode(i)).category == ir::OpCategory::kCollective)
        for (CompId k : m.called(i)) excluded[k] = true;
  std::vector<CompId> out;
  for (CompId c : m.live_computations()) {
    if (c == m.entry() || excluded[c] || m.instruction_count(c) > 128) continue;
    int64_t bytes = 0;
    for (InstrId i : m.instructions(c))
      if (m.opcode(i) == ir::Opcode::kConstant) bytes += m.shape(i).byte_size();
    if (bytes <= 1024) out.push_back(c);
  }
  return out;
}

// Pairs of eligible computations still equal (callees equal when they are the same one).
int equal_pairs_left(const ir::Module& m) {
  const std::vector<CompId> cs = eligible(m);
  int left = 0;
  for (size_t a = 0; a < cs.size(); ++a)
    for (size_t b = a + 1; b < cs.size(); ++b)
      left += same_computation(m, cs[a], cs[b], [](CompId x, CompId y) { return x == y; });
  return left;
}

TEST(ComputationDeduplicatorProperty, NoEqualPairLeftOnRandomModules) {
  int merged = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    ir::RandomModuleOptions o;
    o.instructions = 1500;
    o.seed = seed;
    o.max_dim = 8;
    const ir::Module before = ir::random_module(o);
    ir::Module m = before;
    if (testing::run_pass("computation-deduplicator", m)) ++merged;
    EXPECT_EQ(equal_pairs_left(m), 0) << "seed " << seed;
  }
  EXPECT_GT(merged, 0);  // the modules do hold equal computations
}

// Three while loops: two with the same condition (merged), one whose condition differs
// only in its bound and one only in its tuple's element shape (both kept).
TEST(ComputationDeduplicatorProperty, ConditionsDifferingInConstantOrTupleShapeStay) {
  auto cond = [](const std::string& name, const std::string& elem, int bound) {
    return name + " {\n s = (s32[], " + elem + ") parameter(0)\n i = s32[] get-tuple-element(s), index=0\n"
           " b = s32[] constant(" + std::to_string(bound) + ")\n ROOT lt = pred[] compare(i, b), direction=LT\n}\n";
  };
  auto body = [](const std::string& name, const std::string& elem) {
    return name + " {\n s = (s32[], " + elem + ") parameter(0)\n i = s32[] get-tuple-element(s), index=0\n"
           " one = s32[] constant(1)\n n = s32[] add(i, one)\n v = " + elem + " get-tuple-element(s), index=1\n"
           " ROOT t = (s32[], " + elem + ") tuple(n, v)\n}\n";
  };
  const std::string text = "HloModule twins\n" + cond("c1", "f32[4]", 3) + cond("c2", "f32[4]", 3) +
                           cond("c3", "f32[4]", 5) + cond("c4", "f32[8]", 3) + body("b1", "f32[4]") +
                           body("b2", "f32[4]") + body("b3", "f32[4]") + body("b4", "f32[8]") +
                           "ENTRY e {\n x = f32[4] parameter(0)\n y = f32[8] parameter(1)\n z = s32[] constant(0)\n"
                           " t1 = (s32[], f32[4]) tuple(z, x)\n w1 = (s32[], f32[4]) while(t1), condition=c1, body=b1\n"
                           " w2 = (s32[], f32[4]) while(w1), condition=c2, body=b2\n"
                           " w3 = (s32[], f32[4]) while(w2), condition=c3, body=b3\n"
                           " t4 = (s32[], f32[8]) tuple(z, y)\n w4 = (s32[], f32[8]) while(t4), condition=c4, body=b4\n"
                           " a = f32[4] get-tuple-element(w3), index=1\n b = f32[8] get-tuple-element(w4), index=1\n"
                           " ROOT r = (f32[4], f32[8]) tuple(a, b)\n}\n";
  const ir::Module m = testing::run_golden("computation-deduplicator", text, /*expect_change=*/true);
  std::vector<std::string> names;
  for (CompId c : m.live_computations()) names.push_back(m.computation(c).name);
  EXPECT_EQ(names, (std::vector<std::string>{"c1", "c3", "c4", "b1", "b4", "e"}));
  EXPECT_EQ(equal_pairs_left(m), 0);
}

}  // namespace
}  // namespace hlsgym::passes
