// The checker of big graphs relies on sampled evaluation; passes create op patterns
// (expanded batch-norms, scatter loops, fusions, ...) that the real files alone do not
// contain. So: after every pass, on every design and every small real module, sampled
// evaluation must agree bit for bit with whole evaluation.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "frontend/load.h"
#include "frontend/source_text.h"
#include "ir/error.h"
#include "ir/evaluate.h"
#include "passes/equivalence.h"
#include "passes/registry.h"
#include "tests/support/test_data.h"

namespace hlsgym::passes {
namespace {

// Compares whole and sampled evaluation of `m` on one input set; returns false (with a
// failure naming `what`) on the first difference.
bool sampled_matches_whole(const ir::Module& m, const std::string& what) {
  const std::vector<ir::Literal> args = ir::random_inputs(m, 5);
  ir::EvalResult whole;
  try {
    whole = ir::evaluate(m, args);
  } catch (const Error&) {
    return true;  // not interpretable (e.g. a custom-call): nothing to compare
  }
  const ir::SampledResult s = ir::evaluate_sampled(m, args, 16, 3);
  std::vector<const ir::Literal*> leaves;
  if (whole.value.is_tuple())
    for (const auto& e : whole.value.tuple_elements()) leaves.push_back(&e);
  else
    leaves.push_back(&whole.value);
  EXPECT_EQ(s.indices.size(), leaves.size()) << what;
  if (s.indices.size() != leaves.size()) return false;
  for (size_t l = 0; l < leaves.size(); ++l) {
    if (leaves[l]->is_tuple()) continue;
    for (size_t k = 0; k < s.indices[l].size(); ++k) {
      const int64_t at = s.indices[l][k];
      if (s.values[l].get_bits(static_cast<int64_t>(k)) != leaves[l]->get_bits(at)) {
        ADD_FAILURE() << what << ": output leaf " << l << " element " << at << " sampled "
                      << s.values[l].get_double(static_cast<int64_t>(k)) << ", whole " << leaves[l]->get_double(at);
        return false;
      }
    }
  }
  return true;
}

std::vector<std::pair<std::string, ir::Module>> small_modules() {
  std::vector<std::pair<std::string, ir::Module>> out;
  for (const auto& p : testing::all_designs()) out.emplace_back(p.stem().string(), frontend::load_design(p.string()).module);
  for (const auto& f : testing::all_hlo_files()) {
    ir::Module m = frontend::parse_hlo(frontend::read_file(f.string()), f.string());
    if (evaluation_work(m) <= 2e5) out.emplace_back(f.filename().string(), std::move(m));
  }
  return out;
}

TEST(SampledCheck, AgreesWithWholeEvaluationAfterEveryPass) {
  const auto modules = small_modules();
  ASSERT_GE(modules.size(), 50u);
  int compared = 0;
  for (const PassInfo& info : Registry::global().all()) {
    const std::string& pass = info.name;
    for (const auto& [name, original] : modules) {
      ir::Module m = original;
      if (!info.make()->run(m)) continue;
      ++compared;
      if (!sampled_matches_whole(m, pass + " on " + name)) break;  // one report per pass
    }
  }
  EXPECT_GE(compared, 100);
}

}  // namespace
}  // namespace hlsgym::passes
