// Feature extraction reads every shape once and costs each called computation once
// (ir::CostTable, issue 18 item 6). These tests hold it to the plain definition bit for
// bit on all the real XLA files and on random modules: the features are an RL
// observation, and the shipped policies were trained on the old numbers.
#include <gtest/gtest.h>

#include "frontend/hlo_parser.h"
#include "frontend/source_text.h"
#include "ir/cost_analysis.h"
#include "ir/features.h"
#include "ir/random_module.h"
#include "tests/support/features_reference.h"
#include "tests/support/test_data.h"

namespace hlsgym::ir {
namespace {

TEST(FeaturesReal, CostTableFeaturesEqualTheDefinitionOnEveryRealFile) {
  const auto files = testing::all_hlo_files();
  EXPECT_GE(files.size(), 100u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    testing::expect_features_identical(frontend::parse_hlo(frontend::read_file(path.string()), path.string()));
  }
}

TEST(FeaturesReal, CostTableFeaturesEqualTheDefinitionOnRandomModules) {
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    RandomModuleOptions o;
    o.seed = seed;
    o.instructions = static_cast<int>(20 + 11 * seed);
    SCOPED_TRACE(seed);
    testing::expect_features_identical(random_module(o));
  }
}

// A computation called from many places is costed once and read from the table after:
// the hundredth reduce sharing one to_apply costs what the first does.
TEST(FeaturesReal, SharedToApplyIsCostedOnceWithTheSameNumbers) {
  std::string text = "HloModule t\n\nadd {\n x = f32[] parameter(0)\n y = f32[] parameter(1)\n ROOT r = f32[] add(x, y)\n}\n"
                     "ENTRY e {\n a = f32[4,8] parameter(0)\n z = f32[] constant(0)\n";
  std::string tuple = " ROOT t = (";
  for (int k = 0; k < 100; ++k) {
    text += " r" + std::to_string(k) + " = f32[4] reduce(a, z), dimensions={1}, to_apply=add\n";
    tuple += std::string(k ? ", " : "") + "f32[4]";
  }
  tuple += ") tuple(";
  for (int k = 0; k < 100; ++k) tuple += std::string(k ? ", " : "") + "r" + std::to_string(k);
  const Module m = frontend::parse_hlo(text + tuple + ")\n}\n", "shared.hlo");
  testing::expect_features_identical(m);
  EXPECT_DOUBLE_EQ(extract_features(m).flops, 100.0 * (32 - 4));
}

// The sizes a payload keeps (InstrPayload::sizes) are shared by a module copy and kept by
// add_clone (same shape): the copy's and the clone's features, read from them, are the
// definition's.
TEST(FeaturesReal, KeptSizesServeCopiesAndClones) {
  Module m = frontend::parse_hlo("HloModule t\n\nENTRY e {\n a = f32[4,8] parameter(0)\n"
                                 " n = f32[4,8] negate(a)\n ROOT t = (f32[4,8], s8[3]) tuple(n, n)\n}\n", "keep.hlo");
  testing::expect_features_identical(m);  // fills the sizes
  Module copy = m;
  testing::expect_features_identical(copy);
  const InstrId n = m.operand(m.computation(m.entry()).root, 0);
  ShapeSizes kept;
  ASSERT_TRUE(m.payload(n).sizes.get(kept));
  const InstrId clone = copy.add_clone(copy.entry(), n, copy.operands(n));
  ShapeSizes cloned;
  ASSERT_TRUE(copy.payload(clone).sizes.get(cloned));
  EXPECT_EQ(cloned.bytes, kept.bytes);
  EXPECT_EQ(cloned.element_count, 32);
  copy.set_root(copy.entry(), clone);
  testing::expect_features_identical(copy);
}

// A shape changed through mutable_payload after the features were read is read again, in
// that module and not in the copy that still shares the old payload, whether the edit
// copied the payload first (shared) or changed it in place.
TEST(FeaturesReal, AnEditedShapeIsReadAgain) {
  Module m = frontend::parse_hlo("HloModule t\n\nENTRY e {\n a = f32[4,8] parameter(0)\n"
                                 " ROOT n = f32[4,8] negate(a)\n}\n", "edit.hlo");
  const Module before = m;
  EXPECT_EQ(extract_features(m).total_tensor_bytes, 2 * 4 * 32);
  for (InstrId i = 0; i < m.instruction_slots(); ++i) m.mutable_payload(i).shape = Shape(ElementType::kF32, {16, 8});
  testing::expect_features_identical(m);
  EXPECT_EQ(extract_features(m).total_tensor_bytes, 2 * 4 * 128);
  EXPECT_EQ(extract_features(m).flops, 128);
  // Edited in place now (m alone holds these payloads): mutable_payload drops the sizes.
  for (InstrId i = 0; i < m.instruction_slots(); ++i) m.mutable_payload(i).shape = Shape(ElementType::kF32, {2, 8});
  EXPECT_EQ(extract_features(m).total_tensor_bytes, 2 * 4 * 16);
  testing::expect_features_identical(m);
  EXPECT_EQ(extract_features(before).total_tensor_bytes, 2 * 4 * 32);
  testing::expect_features_identical(before);
}

}  // namespace
}  // namespace hlsgym::ir
