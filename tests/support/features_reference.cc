#include "tests/support/features_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "ir/cost_analysis.h"

namespace hlsgym::testing {
using namespace hlsgym::ir;

namespace {
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
}  // namespace

// What extract_features computed before the cost table.
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

// Every feature, and the table's cost of every live instruction of every computation (with
// both byte conventions), equal to the definition's bit for bit.
void expect_features_identical(const Module& m) {
  const std::vector<double> got = extract_features(m).to_vector(), want = reference_features(m).to_vector();
  const auto names = Features::names();
  ASSERT_EQ(got.size(), want.size());
  for (size_t k = 0; k < got.size(); ++k) EXPECT_TRUE(same_bits(got[k], want[k])) << names[k] << ": " << got[k] << " vs " << want[k];
  // Again: the first extraction left each payload's sizes in it (InstrPayload::sizes), and
  // this one reads them instead of the shapes.
  const std::vector<double> again = extract_features(m).to_vector();
  for (size_t k = 0; k < got.size(); ++k) EXPECT_TRUE(same_bits(again[k], want[k])) << names[k] << " (sizes kept): " << again[k] << " vs " << want[k];
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

}  // namespace hlsgym::testing
