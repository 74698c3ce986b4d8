// The movement family (data movement, dot canonicalization, sorts, conversions): for every
// pass a rewrite it performs (checked on the result's opcodes and on the interpreter's
// outputs for several seeds) and a module it must leave untouched; then the family on
// every real HLO file (verifier clean) and on the designs (outputs unchanged).
#include <gtest/gtest.h>

#include <algorithm>

#include "frontend/hlo_parser.h"
#include "frontend/load.h"
#include "frontend/source_text.h"
#include "ir/evaluate.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/equivalence.h"
#include "passes/registry.h"
#include "tests/support/test_data.h"

namespace hlsgym::passes {
namespace {
using ir::Opcode;

ir::Module parse(const std::string& body) { return frontend::parse_hlo("HloModule t\n\n" + body, "p.hlo"); }

int count(const ir::Module& m, Opcode op) {
  int n = 0;
  for (ir::CompId c : m.live_computations())
    for (ir::InstrId i : m.instructions(c)) n += m.opcode(i) == op;
  return n;
}

struct Case {
  const char* pass;
  std::string hlo;
  Opcode gone;     // an opcode the rewrite removes (or kParameter: nothing to check)
  int gone_after;  // how many of it remain
};

const std::string kAdd = "add {\n x = s32[] parameter(0)\n y = s32[] parameter(1)\n ROOT r = s32[] add(x, y)\n}\n";
const std::string kAddF = "addf {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT r = f32[] add(x, y)\n}\n";
const std::string kLess2 =
    "less {\n a = s32[] parameter(0)\n b = s32[] parameter(1)\n c = f32[] parameter(2)\n d = f32[] parameter(3)\n"
    " ROOT r = pred[] compare(a, b), direction=LT\n}\n";
const std::string kLessEven =  // compares a/2: ties between 2k and 2k+1
    "lesseven {\n a = s32[] parameter(0)\n b = s32[] parameter(1)\n two = s32[] constant(2)\n"
    " ha = s32[] divide(a, two)\n hb = s32[] divide(b, two)\n ROOT r = pred[] compare(ha, hb), direction=LT\n}\n";

std::vector<Case> cases() {
  return {
      {"broadcast_canonicalizer",
       "ENTRY e {\n a = s32[2,3] parameter(0)\n ROOT b = s32[3,4,2] broadcast(a), dimensions={2,0}\n}\n",
       Opcode::kTranspose, 1},
      {"convert-mover",
       "ENTRY e {\n a = s16[2,3] parameter(0)\n c = s32[2,3] convert(a)\n ROOT t = s32[3,2] transpose(c), dimensions={1,0}\n}\n",
       Opcode::kConvert, 1},
      {"convert-mover",
       "ENTRY e {\n a = f32[2,3] parameter(0)\n r = f32[6] reshape(a)\n ROOT c = f16[6] convert(r)\n}\n",
       Opcode::kConvert, 1},
      {"reshape-mover",
       "ENTRY e {\n a = s32[2,3] parameter(0)\n b = s32[2,3] parameter(1)\n ra = s32[6] reshape(a)\n"
       " rb = s32[6] reshape(b)\n k = s32[] constant(3)\n kb = s32[6] broadcast(k), dimensions={}\n"
       " s = s32[6] add(ra, rb)\n ROOT m = s32[6] multiply(s, kb)\n}\n",
       Opcode::kReshape, 1},
      {"transpose-folding",
       "ENTRY e {\n a = f32[3,2] parameter(0)\n b = f32[3,4] parameter(1)\n t = f32[2,3] transpose(a), dimensions={1,0}\n"
       " ROOT d = f32[2,4] dot(t, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
       Opcode::kTranspose, 0},
      {"dot_dimension_sorter",
       "ENTRY e {\n a = s32[2,3,4] parameter(0)\n b = s32[4,3,5] parameter(1)\n"
       " ROOT d = s32[2,5] dot(a, b), lhs_contracting_dims={2,1}, rhs_contracting_dims={0,1}\n}\n",
       Opcode::kParameter, 2},
      {"batch-dot-simplification",
       "ENTRY e {\n a = s32[1,2,3] parameter(0)\n b = s32[1,3,4] parameter(1)\n"
       " ROOT d = s32[1,2,4] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, "
       "rhs_contracting_dims={1}\n}\n",
       Opcode::kParameter, 2},
      {"dot_decomposer",
       "ENTRY e {\n a = s32[3,2,4] parameter(0)\n b = s32[4,3,5] parameter(1)\n"
       " ROOT d = s32[2,5] dot(a, b), lhs_contracting_dims={0,2}, rhs_contracting_dims={1,0}\n}\n",
       Opcode::kParameter, 2},
      {"tree_reduction_rewriter",
       kAdd + "ENTRY e {\n a = s32[4,100] parameter(0)\n z = s32[] constant(0)\n"
              " ROOT r = s32[4] reduce(a, z), dimensions={1}, to_apply=add\n}\n",
       Opcode::kReduceWindow, 1},
      {"simplify-fp-conversions",
       "ENTRY e {\n a = bf16[4] parameter(0)\n w = f32[4] convert(a)\n ROOT n = bf16[4] convert(w)\n}\n",
       Opcode::kConvert, 0},
      {"defuser",
       "fused {\n x = s32[4] parameter(0)\n y = s32[4] parameter(1)\n m = s32[4] multiply(x, y)\n"
       " ROOT a = s32[4] add(m, x)\n}\nENTRY e {\n a = s32[4] parameter(0)\n b = s32[4] parameter(1)\n"
       " ROOT f = s32[4] fusion(a, b), kind=kLoop, calls=fused\n}\n",
       Opcode::kFusion, 0},
      {"simplify-sorts",
       kLess2 + "ENTRY e {\n k = s32[8] parameter(0)\n v = f32[8] parameter(1)\n"
                " s = (s32[8], f32[8]) sort(k, v), dimensions={0}, to_apply=less\n"
                " ROOT g = s32[8] get-tuple-element(s), index=0\n}\n",
       Opcode::kGetTupleElement, 0},
      {"stable-sort-expander",
       kLessEven + "ENTRY e {\n k = s32[16] parameter(0)\n"
                   " ROOT s = s32[16] sort(k), dimensions={0}, is_stable=true, to_apply=lesseven\n}\n",
       Opcode::kIota, 1},
      {"slice-sinker",
       "ENTRY e {\n a = s32[8] parameter(0)\n b = s32[8] parameter(1)\n a0 = s32[4] slice(a), slice={[0:4]}\n"
       " b0 = s32[4] slice(b), slice={[0:4]}\n a1 = s32[4] slice(a), slice={[4:8]}\n b1 = s32[4] slice(b), slice={[4:8]}\n"
       " x = s32[4] multiply(a0, b0)\n y = s32[4] multiply(a1, b1)\n ROOT t = (s32[4], s32[4]) tuple(x, y)\n}\n",
       Opcode::kMultiply, 1},
      {"dot-merger",
       "ENTRY e {\n a = s32[2,3] parameter(0)\n b = s32[3,4] parameter(1)\n c = s32[3,5] parameter(2)\n"
       " x = s32[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
       " y = s32[2,5] dot(a, c), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
       " ROOT t = (s32[2,4], s32[2,5]) tuple(x, y)\n}\n",
       Opcode::kDot, 1},
  };
}

void expect_same_outputs(const ir::Module& a, const ir::Module& b, bool tolerance) {
  EquivalenceOptions o;
  o.input_sets = 3;
  o.float_tolerance = tolerance;
  const EquivalenceResult r = check_equivalence(a, b, o);
  EXPECT_EQ(r.status, CheckStatus::kPassed) << r.detail << "\n" << ir::print_module(b);
}

TEST(MovementPasses, EachRewritesItsPatternExactly) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.pass);
    const ir::Module original = parse(c.hlo);
    ir::Module m = original;
    PassPtr p = Registry::global().create(c.pass);
    ASSERT_TRUE(p->run(m));
    const auto issues = ir::verify_all(m);
    ASSERT_TRUE(issues.empty()) << issues.front().message << "\n" << ir::print_module(m);
    if (c.gone != Opcode::kParameter) {
      EXPECT_EQ(count(m, c.gone), c.gone_after) << ir::print_module(m);
    }
    expect_same_outputs(original, m, p->reassociates_floats());
  }
}

TEST(MovementPasses, SpecificResults) {
  // dot_dimension_sorter: the contracting pairs sorted by lhs dimension.
  ir::Module m = parse(cases()[5].hlo);
  Registry::global().create("dot_dimension_sorter")->run(m);
  EXPECT_NE(ir::print_module(m).find("lhs_contracting_dims={1,2}, rhs_contracting_dims={1,0}"), std::string::npos)
      << ir::print_module(m);
  // dot_decomposer: canonical after one run, so a second changes nothing.
  ir::Module d = parse(cases()[7].hlo);
  PassPtr p = Registry::global().create("dot_decomposer");
  ASSERT_TRUE(p->run(d));
  EXPECT_FALSE(p->run(d));
  // tree_reduction_rewriter: a non-identity init is left alone (it would be folded in twice).
  std::string hlo = cases()[8].hlo;
  hlo.replace(hlo.find("constant(0)"), 11, "constant(5)");
  ir::Module t = parse(hlo);
  EXPECT_FALSE(Registry::global().create("tree_reduction_rewriter")->run(t));
  // simplify-fp-conversions: a narrowing round trip (f32 -> bf16 -> f32) changes values: kept.
  ir::Module f = parse("ENTRY e {\n a = f32[4] parameter(0)\n n = bf16[4] convert(a)\n ROOT w = f32[4] convert(n)\n}\n");
  EXPECT_FALSE(Registry::global().create("simplify-fp-conversions")->run(f));
  // slice-sinker: pieces that together compute fewer elements than a source holds stay
  // as they are (XLA's ShouldTransform); overlapping pieces of 4 + 4 of 8 would sink.
  std::string part = cases()[13].hlo;  // pieces [0:4] and [4:7]: 7 of 8 elements
  for (size_t at; (at = part.find("s32[4] slice(a), slice={[4:8]}")) != std::string::npos;)
    part.replace(at, 30, "s32[3] slice(a), slice={[4:7]}");
  for (size_t at; (at = part.find("s32[4] slice(b), slice={[4:8]}")) != std::string::npos;)
    part.replace(at, 30, "s32[3] slice(b), slice={[4:7]}");
  part.replace(part.find("y = s32[4]"), 10, "y = s32[3]");
  part.replace(part.find("(s32[4], s32[4])"), 16, "(s32[4], s32[3])");
  ir::Module ps = parse(part);
  ASSERT_TRUE(ir::verify_all(ps).empty());
  EXPECT_FALSE(Registry::global().create("slice-sinker")->run(ps)) << part;
  // dot-merger: a dot that depends on the other is not merged with it.
  ir::Module dep = parse(
      "ENTRY e {\n a = s32[2,2] parameter(0)\n b = s32[2,2] parameter(1)\n"
      " x = s32[2,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      " y = s32[2,2] dot(a, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n ROOT t = (s32[2,2], s32[2,2]) tuple(x, y)\n}\n");
  EXPECT_FALSE(Registry::global().create("dot-merger")->run(dep));
  // simplify-sorts: an operand the comparator reads stays.
  std::string both = cases()[11].hlo;
  both.replace(both.find("ROOT r = pred[] compare(a, b)"), 29, "ROOT r = pred[] compare(c, d)");
  ir::Module s = parse(both);
  EXPECT_FALSE(Registry::global().create("simplify-sorts")->run(s));
}

TEST(MovementPasses, NoChangeLeavesTheModuleUntouched) {
  const std::string plain =
      "ENTRY e {\n a = s32[4] parameter(0)\n b = s32[4] parameter(1)\n c = s32[4] add(a, b)\n"
      " ROOT d = s32[4] multiply(c, a)\n}\n";
  for (const PassInfo& info : Registry::global().all()) {
    ir::Module m = parse(plain);
    const std::string before = ir::print_module(m);
    if (info.make()->run(m)) continue;  // some passes (e.g. fusion) apply here
    EXPECT_EQ(ir::print_module(m), before) << info.name;
  }
  for (const Case& c : cases()) {  // after its rewrite, a pass reaches a state it leaves alone
    ir::Module m = parse(c.hlo);
    PassPtr p = Registry::global().create(c.pass);
    for (int k = 0; k < 4 && p->run(m); ++k) {
    }
    const std::string before = ir::print_module(m);
    EXPECT_FALSE(p->run(m)) << c.pass;
    EXPECT_EQ(ir::print_module(m), before) << c.pass;
  }
}

const char* const kFamily[] = {"broadcast_canonicalizer", "convert-mover", "reshape-mover", "transpose-folding",
                               "dot_dimension_sorter", "batch-dot-simplification", "dot_decomposer",
                               "tree_reduction_rewriter", "simplify-fp-conversions", "defuser", "simplify-sorts",
                               "stable-sort-expander", "slice-sinker", "dot-merger"};

TEST(MovementPasses, EveryRealFileStaysValid) {
  for (const auto& f : testing::all_hlo_files()) {
    const ir::Module original = frontend::parse_hlo(frontend::read_file(f.string()), f.string());
    for (const char* pass : kFamily) {
      ir::Module m = original;
      Registry::global().create(pass)->run(m);
      const auto issues = ir::verify_all(m);
      ASSERT_TRUE(issues.empty()) << pass << " on " << f.filename() << ": " << issues.front().message;
    }
  }
}

TEST(MovementPasses, SmallRealFilesAndDesignsKeepTheirOutputs) {
  std::vector<std::pair<std::string, ir::Module>> modules;
  for (const auto& p : testing::all_designs()) modules.emplace_back(p.stem().string(), frontend::load_design(p.string()).module);
  for (const auto& f : testing::all_hlo_files()) {
    ir::Module m = frontend::parse_hlo(frontend::read_file(f.string()), f.string());
    if (evaluation_work(m) <= 2e5) modules.emplace_back(f.filename().string(), std::move(m));
  }
  int fired = 0;
  for (const char* pass : kFamily)
    for (const auto& [name, original] : modules) {
      ir::Module m = original;
      PassPtr p = Registry::global().create(pass);
      if (!p->run(m)) continue;
      ++fired;
      EquivalenceOptions o;
      o.float_tolerance = p->reassociates_floats();
      const EquivalenceResult r = check_equivalence(original, m, o);
      EXPECT_NE(r.status, CheckStatus::kFailed) << pass << " on " << name << ": " << r.detail;
    }
  EXPECT_GT(fired, 10);
}

}  // namespace
}  // namespace hlsgym::passes
