// The interpreter on the real XLA modules: every file small enough to interpret whole
// (by instruction count and tensor size, so the selection is deterministic) evaluates
// without error, and sampled evaluation agrees bit for bit with whole evaluation.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "frontend/source_text.h"
#include "ir/evaluate.h"
#include "ir/features.h"
#include "tests/support/test_data.h"

namespace hlsgym::ir {
namespace {

TEST(EvaluateReal, SmallRealFilesEvaluateAndSamplesMatchWholeEvaluation) {
  int evaluated = 0, with_placeholders = 0;
  for (const auto& path : testing::all_hlo_files()) {
    Module m = frontend::parse_hlo(frontend::read_file(path.string()), path.string());
    const Features f = extract_features(m);
    if (f.instructions > 400 || f.max_tensor_elements > 20000 || f.while_loops > 0) continue;
    SCOPED_TRACE(path.filename().string());
    const auto args = random_inputs(m, 3);
    EvalResult whole;
    try {
      whole = evaluate(m, args);
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    ++evaluated;
    with_placeholders += whole.uses_placeholders;
    SampledResult s = evaluate_sampled(m, args, 8, 11);
    std::vector<const Literal*> leaves;
    if (whole.value.is_tuple())
      for (const auto& e : whole.value.tuple_elements()) leaves.push_back(&e);
    else
      leaves.push_back(&whole.value);
    ASSERT_EQ(s.indices.size(), leaves.size());
    for (size_t l = 0; l < leaves.size(); ++l) {
      if (leaves[l]->is_tuple()) continue;
      for (size_t k = 0; k < s.indices[l].size(); ++k)
        EXPECT_EQ(s.values[l].get_bits(static_cast<int64_t>(k)), leaves[l]->get_bits(s.indices[l][k]))
            << "leaf " << l << " element " << s.indices[l][k];
    }
  }
  // The selection is fixed by the data; a drop means files stopped qualifying or parsing.
  EXPECT_GE(evaluated, 30);
  RecordProperty("evaluated", evaluated);
  RecordProperty("with_placeholders", with_placeholders);
}

}  // namespace
}  // namespace hlsgym::ir
