// Feature extraction reads every shape once and costs each called computation once
// (ir::CostTable, issue 18 item 6). These tests hold it to the plain definition bit for
// bit on all the real XLA files and on random modules: the features are an RL
// observation, and the shipped policies were trained on the old numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "frontend/hlo_parser.h"
#include "frontend/source_text.h"
#include "ir/cost_analysis.h"
#include "ir/features.h"
#include "ir/random_module.h"
#include "tests/support/test_data.h"

namespace hlsgym::ir {
namespace {

// The features as defined, instruction by instruction from the shapes and the public
// instruction_cost (what extract_features computed before the cost table).
Features reference_features(const Module& m) {
  Features f;
  int64_t fan_out_sum = 0, tensors = 0;
  double tensor_elements_sum = 0;
  for (CompId c = 0; c < m.computation_slots(); ++c) {
    if (m.computation(c).dead) continue;
    ++f.computations;
    for (InstrId i : m.computation(c).order) {
      if (!m.is_live(i)) continue;
      const Opcode op = m.opcode(i);
      ++f.opcode_counts[static_cast<int>(op)];
      ++f.instructions;
      f.entry_instructions += c == m.entry();
      f.edges += static_cast<int64_t>(m.operands(i).size());
      const auto fan_out = static_cast<int64_t>(m.users(i).size());
      f.max_fan_out = std::max(f.max_fan_out, fan_out);
      fan_out_sum += fan_out;
      const Shape& s = m.shape(i);
      if (s.is_array()) {
        f.max_tensor_elements = std::max(f.max_tensor_elements, s.element_count());
        tensor_elements_sum += static_cast<double>(s.element_count());
        f.total_tensor_bytes += s.byte_size();
        ++tensors;
      }
      f.constants += op == Opcode::kConstant;
      if (op == Opcode::kConstant) f.constant_elements += s.element_count();
      f.parameters += op == Opcode::kParameter;
      f.while_loops += op == Opcode::kWhile;
      f.conditionals += op == Opcode::kConditional;
      f.calls += op == Opcode::kCall;
      f.custom_calls += op == Opcode::kCustomCall;
    }
  }
  if (f.instructions) f.mean_fan_out = static_cast<double>(fan_out_sum) / static_cast<double>(f.instructions);
  if (tensors) f.mean_tensor_elements = tensor_elements_sum / static_cast<double>(tensors);
  if (m.entry() == kNoId) return f;
  std::vector<int64_t> depth(m.instruction_slots(), 0);
  std::vector<double> flops(m.instruction_slots(), 0);
  for (InstrId i : m.post_order(m.entry())) {
    int64_t d = 0;
    double fl = 0;
    for (InstrId o : m.operands(i)) d = std::max(d, depth[o]), fl = std::max(fl, flops[o]);
    const Cost cost = instruction_cost(m, i);
    f.flops += cost.flops;
    f.transcendentals += cost.transcendentals;
    f.bytes_accessed += cost.bytes_accessed;
    depth[i] = d + 1;
    flops[i] = fl + cost.flops;
    f.depth = std::max(f.depth, depth[i]);
    f.critical_path_flops = std::max(f.critical_path_flops, flops[i]);
  }
  return f;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every feature, and the table's cost of every live instruction of every computation (with
// both byte conventions), equal to the definition's bit for bit.
void expect_identical(const Module& m) {
  const std::vector<double> got = extract_features(m).to_vector(), want = reference_features(m).to_vector();
  const auto names = Features::names();
  ASSERT_EQ(got.size(), want.size());
  for (size_t k = 0; k < got.size(); ++k) EXPECT_TRUE(same_bits(got[k], want[k])) << names[k] << ": " << got[k] << " vs " << want[k];
  for (bool need_layout : {false, true}) {
    const CostOptions o{need_layout};
    CostTable table(m, o);
    for (InstrId i = 0; i < m.instruction_slots(); ++i) {
      if (!m.is_live(i)) continue;
      const Cost a = table.instruction(i), b = instruction_cost(m, i, o);
      ASSERT_TRUE(same_bits(a.flops, b.flops) && same_bits(a.transcendentals, b.transcendentals) &&
                  same_bits(a.bytes_accessed, b.bytes_accessed))
          << m.name(i) << " (" << name(m.opcode(i)) << "): " << a.flops << "/" << a.transcendentals << "/"
          << a.bytes_accessed << " vs " << b.flops << "/" << b.transcendentals << "/" << b.bytes_accessed;
      ASSERT_TRUE(same_bits(table.sizes(i).bytes, shape_bytes(m.shape(i), o))) << m.name(i);
    }
  }
}

TEST(FeaturesReal, CostTableFeaturesEqualTheDefinitionOnEveryRealFile) {
  const auto files = testing::all_hlo_files();
  EXPECT_GE(files.size(), 100u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    expect_identical(frontend::parse_hlo(frontend::read_file(path.string()), path.string()));
  }
}

TEST(FeaturesReal, CostTableFeaturesEqualTheDefinitionOnRandomModules) {
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    RandomModuleOptions o;
    o.seed = seed;
    o.instructions = static_cast<int>(20 + 11 * seed);
    SCOPED_TRACE(seed);
    expect_identical(random_module(o));
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
  expect_identical(m);
  EXPECT_DOUBLE_EQ(extract_features(m).flops, 100.0 * (32 - 4));
}

// A shape changed through mutable_payload after the features were read is read again, in
// that module and not in the copy that still shares the old payload.
TEST(FeaturesReal, AnEditedShapeIsReadAgain) {
  Module m = frontend::parse_hlo("HloModule t\n\nENTRY e {\n a = f32[4,8] parameter(0)\n"
                                 " ROOT n = f32[4,8] negate(a)\n}\n", "edit.hlo");
  const Module before = m;
  EXPECT_EQ(extract_features(m).total_tensor_bytes, 2 * 4 * 32);
  for (InstrId i = 0; i < m.instruction_slots(); ++i) m.mutable_payload(i).shape = Shape(ElementType::kF32, {16, 8});
  expect_identical(m);
  EXPECT_EQ(extract_features(m).total_tensor_bytes, 2 * 4 * 128);
  EXPECT_EQ(extract_features(m).flops, 128);
  EXPECT_EQ(extract_features(before).total_tensor_bytes, 2 * 4 * 32);
  expect_identical(before);
}

}  // namespace
}  // namespace hlsgym::ir
