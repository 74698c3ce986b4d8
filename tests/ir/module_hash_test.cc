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

// The payload caches its part of the hash (PayloadHash): an edit through mutable_payload,
// in place or on a copy that shared the payload, must be seen, and the other copy keep its hash.
TEST(StructuralHash, SeesPayloadEditsAfterItWasComputed) {
  Module m = frontend::parse_hlo(std::string("HloModule t\n\n") + kBase, "t.hlo");
  const uint64_t before = structural_hash(m);
  InstrId t = kNoId, c = kNoId;
  for (InstrId i = 0; i < m.instruction_slots(); ++i) {
    if (m.opcode(i) == Opcode::kTranspose) t = i;
    if (m.opcode(i) == Opcode::kConstant) c = i;
  }
  ASSERT_NE(t, kNoId);
  ASSERT_NE(c, kNoId);
  const Module copy = m;  // shares every payload with m
  m.mutable_payload(t).attrs.dimensions = {0, 1};
  const uint64_t edited = structural_hash(m);
  EXPECT_NE(before, edited);
  EXPECT_EQ(before, structural_hash(copy));
  // A module that holds its payloads alone is edited in place.
  Module alone = frontend::parse_hlo(std::string("HloModule t\n\n") + kBase, "t.hlo");
  EXPECT_EQ(before, structural_hash(alone));
  ASSERT_EQ(alone.opcode(c), Opcode::kConstant);
  alone.mutable_payload(c).literal = std::make_shared<const Literal>(Literal::scalar_int(ElementType::kS32, 8));
  EXPECT_NE(before, structural_hash(alone));
  // A renamed clone of an instruction keeps the cached hash, which does not cover names.
  Module cloned = copy;
  const InstrId k = cloned.add_clone(cloned.entry(), c, {});
  EXPECT_EQ(cloned.payload(k).content_hash.get(), copy.payload(c).content_hash.get());
}

}  // namespace
}  // namespace hlsgym::ir
