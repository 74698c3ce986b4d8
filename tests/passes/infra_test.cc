// Pass infrastructure and the first passes: registry, pipeline and fixed point; golden
// rewrites; `changed == false` leaves the module identical; and a differential check
// (interpreter before/after) on every design and on small real modules.
#include <gtest/gtest.h>

#include <tuple>

#include "frontend/hlo_parser.h"
#include "frontend/load.h"
#include "frontend/source_text.h"
#include "ir/error.h"
#include "ir/evaluate.h"
#include "ir/features.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/pipeline.h"
#include "passes/equivalence.h"
#include "passes/registry.h"
#include "tests/support/test_data.h"

namespace hlsgym::passes {
namespace {

ir::Module parse(const std::string& body) {
  ir::Module m = frontend::parse_hlo("HloModule t\n\n" + body, "p.hlo");
  ir::verify(m);
  return m;
}

// Runs `pass` and returns whether it changed the module; checks the verifier after it.
bool apply(const std::string& pass, ir::Module& m) {
  bool changed = Registry::global().create(pass)->run(m);
  auto issues = ir::verify_all(m);
  EXPECT_TRUE(issues.empty()) << pass << ": " << issues.front().message;
  return changed;
}

TEST(Registry, NamesAreXlasAndUnknownNamesSuggest) {
  const auto& all = Registry::global().all();
  ASSERT_GE(all.size(), 8u);
  // Sorted by action group, then by name (the action list is append-only: registry.h).
  for (size_t k = 1; k < all.size(); ++k)
    EXPECT_LT(std::tie(all[k - 1].group, all[k - 1].name), std::tie(all[k].group, all[k].name));
  for (const char* n : {"cse", "dce", "tuple-simplifier", "call-inliner", "flatten-call-graph",
                        "zero_sized_hlo_elimination", "cse_barrier_expander", "sharding-remover"})
    EXPECT_NE(Registry::global().find(n), nullptr) << n;
  try {
    Registry::global().create("csee");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean 'cse'?"), std::string::npos) << e.what();
  }
}

TEST(Pipeline, FixedPointStopsWhenNothingChanges) {
  ir::Module m = parse("ENTRY e {\n a = f32[4] parameter(0)\n b = f32[4] negate(a)\n c = f32[4] negate(a)\n"
                       " d = f32[4] add(b, c)\n e2 = f32[4] add(b, c)\n ROOT r = f32[4] multiply(d, e2)\n}\n");
  FixedPoint fix(Registry::global().create("cse"));
  EXPECT_TRUE(fix.run(m));
  EXPECT_EQ(fix.last_iterations(), 2);  // one run merges both pairs, the second sees no change
  EXPECT_EQ(m.instruction_count(), 4u);
  EXPECT_FALSE(fix.run(m));
  EXPECT_EQ(fix.last_iterations(), 1);
}

TEST(Passes, GoldenRewrites) {
  ir::Module m = parse("ENTRY e {\n a = f32[4] parameter(0)\n x = f32[4] exponential(a)\n"
                       " t = (f32[4], f32[4]) tuple(a, x)\n g = f32[4] get-tuple-element(t), index=1\n"
                       " o = f32[4] opt-barrier(g)\n ROOT r = f32[4] negate(o)\n}\n");
  EXPECT_TRUE(apply("cse_barrier_expander", m));
  EXPECT_TRUE(apply("tuple-simplifier", m));
  const std::string text = ir::print_module(m);
  EXPECT_NE(text.find("ROOT r = f32[4] negate(x)"), std::string::npos) << text;
  EXPECT_EQ(m.instruction_count(), 3u);  // the tuple, gte and barrier are gone

  ir::Module calls = parse("sq {\n p = f32[4] parameter(0)\n ROOT m = f32[4] multiply(p, p)\n}\n"
                           "ENTRY e {\n a = f32[4] parameter(0)\n c1 = f32[4] call(a), to_apply=sq\n"
                           " ROOT c2 = f32[4] call(c1), to_apply=sq\n}\n");
  ir::Module flat = calls;
  EXPECT_TRUE(apply("flatten-call-graph", flat));
  EXPECT_EQ(flat.live_computations().size(), 3u);  // each call site has its own copy
  EXPECT_TRUE(apply("call-inliner", calls));
  EXPECT_EQ(calls.live_computations().size(), 1u);
  EXPECT_EQ(ir::extract_features(calls).opcode_counts[static_cast<int>(ir::Opcode::kMultiply)], 2);
}

TEST(Passes, NoChangeLeavesTheModuleIdentical) {
  for (const auto& info : Registry::global().all()) {
    SCOPED_TRACE(info.name);
    // A module with nothing for any of these passes to do; unroll-x2 always has lanes to
    // add to an arithmetic op, so it gets the op with all the lanes it has work for.
    const std::string lanes = info.name == "unroll-x2" ? ", frontend_attributes={lanes=\"4\"}" : "";
    ir::Module m = parse("ENTRY e {\n a = s32[4] parameter(0)\n b = s32[4] parameter(1)\n"
                         " ROOT r = s32[4] add(a, b)" + lanes + "\n}\n");
    const std::string before = ir::print_module(m);
    EXPECT_FALSE(info.make()->run(m));
    EXPECT_EQ(ir::print_module(m), before);
  }
}

// Every pass alone on every design and every small real module: verifier clean and the
// interpreter gives bit-identical outputs — or, for the passes that declare they may
// reround floats, outputs within the checker's stated per-type tolerance.
TEST(Passes, DifferentialOnDesignsAndSmallRealModules) {
  std::vector<ir::Module> modules;
  for (const auto& d : testing::all_designs()) modules.push_back(frontend::load_design(d.string()).module);
  for (const auto& f : testing::all_hlo_files()) {
    ir::Module m = frontend::parse_hlo(frontend::read_file(f.string()), f.string());
    const ir::Features ft = ir::extract_features(m);
    if (ft.instructions <= 300 && ft.max_tensor_elements <= 20000 && ft.while_loops == 0) modules.push_back(std::move(m));
  }
  ASSERT_GE(modules.size(), 40u);
  int changed = 0;
  for (const auto& original : modules) {
    const auto args = ir::random_inputs(original, 9);
    const ir::Literal expected = ir::evaluate(original, args).value;
    for (const auto& info : Registry::global().all()) {
      SCOPED_TRACE(original.name() + " / " + info.name);
      ir::Module m = original;
      changed += apply(info.name, m);
      if (!info.make()->reassociates_floats()) {
        EXPECT_EQ(ir::evaluate(m, args).value, expected);
        continue;
      }
      EquivalenceOptions o;
      o.float_tolerance = true;
      o.seed = 9;
      const EquivalenceResult r = check_equivalence(original, m, o);
      EXPECT_NE(r.status, CheckStatus::kFailed) << r.detail;
    }
  }
  EXPECT_GT(changed, 0);
}

}  // namespace
}  // namespace hlsgym::passes
