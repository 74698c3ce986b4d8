// structural_hash: invariant under names, metadata and printing round trips; sensitive
// to every change of meaning.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "ir/module_hash.h"
#include "ir/printer.h"
#include "ir/random_module.h"

namespace hlsgym::ir {
namespace {

uint64_t hash_of(const std::string& body) {
  return structural_hash(frontend::parse_hlo("HloModule t\n\n" + body, "t.hlo"));
}

const char* kBase =
    "ENTRY e {\n a = s32[2,3] parameter(0)\n b = s32[2,3] parameter(1)\n"
    " s = s32[2,3] subtract(a, b)\n t = s32[3,2] transpose(s), dimensions={1,0}\n"
    " c = s32[] constant(7)\n ROOT r = s32[3,2] add(t, t)\n}\n";

TEST(StructuralHash, IgnoresNamesAndMetadata) {
  const uint64_t h = hash_of(kBase);
  EXPECT_EQ(h, hash_of("ENTRY other {\n x = s32[2,3] parameter(0)\n y = s32[2,3] parameter(1)\n"
                       " d = s32[2,3] subtract(x, y), metadata={op_name=\"foo\"}\n"
                       " u = s32[3,2] transpose(d), dimensions={1,0}\n c9 = s32[] constant(7)\n"
                       " ROOT q = s32[3,2] add(u, u)\n}\n"));
}

TEST(StructuralHash, SeesEveryChangeOfMeaning) {
  const std::string base = kBase;
  const uint64_t h = hash_of(base);
  auto changed = [&](const std::string& from, const std::string& to) {
    std::string s = base;
    s.replace(s.find(from), from.size(), to);
    return hash_of(s);
  };
  EXPECT_NE(h, changed("subtract(a, b)", "subtract(b, a)"));  // operand order
  EXPECT_NE(h, changed("subtract(a, b)", "multiply(a, b)"));  // opcode
  EXPECT_NE(h, changed("constant(7)", "constant(8)"));        // constant value
  EXPECT_NE(h, changed("parameter(1)", "parameter(2)"));      // parameter number
  EXPECT_NE(h, changed(" ROOT r = s32[3,2] add(t, t)", " r = s32[3,2] add(t, t)\n ROOT rr = s32[3,2] negate(r)"));
  // Same output shape, different permutation.
  EXPECT_NE(hash_of("ENTRY e {\n a = s32[2,2] parameter(0)\n ROOT t = s32[2,2] transpose(a), dimensions={1,0}\n}\n"),
            hash_of("ENTRY e {\n a = s32[2,2] parameter(0)\n ROOT t = s32[2,2] transpose(a), dimensions={0,1}\n}\n"));
}

TEST(StructuralHash, OneSharedCalleeDiffersFromTwoCopies) {
  const std::string callee = "f {\n x = s32[] parameter(0)\n ROOT n = s32[] negate(x)\n}\n";
  const std::string shared = callee +
      "ENTRY e {\n a = s32[] parameter(0)\n c1 = s32[] call(a), to_apply=f\n c2 = s32[] call(c1), to_apply=f\n"
      " ROOT r = s32[] add(c1, c2)\n}\n";
  std::string copies = "g {\n x = s32[] parameter(0)\n ROOT n = s32[] negate(x)\n}\n" + shared;
  copies.replace(copies.find("to_apply=f\n c2"), 10, "to_apply=g");
  EXPECT_NE(hash_of(shared), hash_of(copies));
  // An uncalled computation is still part of the state (it counts until removed).
  EXPECT_NE(hash_of(shared), hash_of("h {\n y = s32[] parameter(0)\n ROOT z = s32[] abs(y)\n}\n" + shared));
}

TEST(StructuralHash, SurvivesCloneAndPrintParseOfRandomModules) {
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    RandomModuleOptions o;
    o.seed = seed;
    const Module m = random_module(o);
    const Module copy = m;
    EXPECT_EQ(structural_hash(m), structural_hash(copy));
    EXPECT_EQ(structural_hash(m), structural_hash(frontend::parse_hlo(print_module(m), "r.hlo"))) << seed;
  }
}

}  // namespace
}  // namespace hlsgym::ir
