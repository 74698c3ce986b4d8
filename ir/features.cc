#include "ir/features.h"

#include <algorithm>
#include <vector>

#include "ir/cost_analysis.h"

namespace hlsgym::ir {

namespace {
constexpr const char* kScalarNames[] = {
    "instructions", "entry_instructions", "computations", "edges", "depth",
    "critical_path_flops", "max_fan_out", "mean_fan_out", "constants", "constant_elements",
    "parameters", "max_tensor_elements", "mean_tensor_elements", "total_tensor_bytes",
    "while_loops", "conditionals", "calls", "custom_calls", "flops", "transcendentals",
    "bytes_accessed"};

// Longest chain (in instructions) and largest flop sum along a chain in the entry; the
// per-instruction costs summed on the way are the module's cost (XLA's totals), summed
// in post order as they always were (the totals are bit-identical run to run and to the
// policies trained on them).
void entry_paths(const Module& m, CostTable& costs, Features& f) {
  if (m.entry() == kNoId) return;
  const auto order = m.post_order(m.entry());
  // By InstrId, one array (an operand's depth and flops are read together).
  struct Path {
    int64_t depth = 0;
    double flops = 0;
  };
  std::vector<Path> path(m.instruction_slots());
  for (InstrId i : order) {
    int64_t d = 0;
    double fl = 0;
    for (InstrId o : m.operands(i)) {
      d = std::max(d, path[o].depth);
      fl = std::max(fl, path[o].flops);
    }
    const Cost cost = costs.instruction(i);
    f.flops += cost.flops;
    f.transcendentals += cost.transcendentals;
    f.bytes_accessed += cost.bytes_accessed;
    path[i] = {d + 1, fl + cost.flops};
    f.depth = std::max(f.depth, d + 1);
    f.critical_path_flops = std::max(f.critical_path_flops, fl + cost.flops);
  }
}
}  // namespace

Features extract_features(const Module& m) {
  Features f;
  int64_t fan_out_sum = 0, tensors = 0;
  double tensor_elements_sum = 0;
  // Every shape is read once, here (issue 18 item 6: a shape is two pointer chases away,
  // and the cost formulas read each value's bytes once per use).
  CostTable costs(m);
  for (CompId c = 0; c < m.computation_slots(); ++c) {
    const Computation& comp = m.computation(c);
    if (comp.dead) continue;
    ++f.computations;
    for (InstrId i : comp.order) {
      if (!m.is_live(i)) continue;
      const Opcode op = m.opcode(i);
      ++f.opcode_counts[static_cast<int>(op)];
      ++f.instructions;
      if (c == m.entry()) ++f.entry_instructions;
      const auto n_ops = static_cast<int64_t>(m.operands(i).size());
      f.edges += n_ops;
      const auto fan_out = static_cast<int64_t>(m.users(i).size());
      f.max_fan_out = std::max(f.max_fan_out, fan_out);
      fan_out_sum += fan_out;
      const ValueSizes& s = costs.sizes(i);
      const int64_t n = s.element_count;
      if (s.array) {
        f.max_tensor_elements = std::max(f.max_tensor_elements, n);
        tensor_elements_sum += static_cast<double>(n);
        f.total_tensor_bytes += s.byte_size;
        ++tensors;
      }
      switch (op) {
        case Opcode::kConstant:
          ++f.constants;
          f.constant_elements += n;
          break;
        case Opcode::kParameter: ++f.parameters; break;
        case Opcode::kWhile: ++f.while_loops; break;
        case Opcode::kConditional: ++f.conditionals; break;
        case Opcode::kCall: ++f.calls; break;
        case Opcode::kCustomCall: ++f.custom_calls; break;
        default: break;
      }
    }
  }
  if (f.instructions) f.mean_fan_out = static_cast<double>(fan_out_sum) / static_cast<double>(f.instructions);
  if (tensors) f.mean_tensor_elements = tensor_elements_sum / static_cast<double>(tensors);
  entry_paths(m, costs, f);
  return f;
}

std::vector<double> Features::to_vector() const {
  std::vector<double> v;
  v.reserve(kOpcodeCount + std::size(kScalarNames));
  for (int32_t n : opcode_counts) v.push_back(n);
  for (double x : {double(instructions), double(entry_instructions), double(computations),
                   double(edges), double(depth), critical_path_flops, double(max_fan_out),
                   mean_fan_out, double(constants), double(constant_elements), double(parameters),
                   double(max_tensor_elements), mean_tensor_elements, double(total_tensor_bytes),
                   double(while_loops), double(conditionals), double(calls), double(custom_calls),
                   flops, transcendentals, bytes_accessed})
    v.push_back(x);
  return v;
}

std::vector<std::string> Features::names() {
  std::vector<std::string> n;
  for (int i = 0; i < kOpcodeCount; ++i) n.push_back("count_" + std::string(name(static_cast<Opcode>(i))));
  for (const char* s : kScalarNames) n.emplace_back(s);
  return n;
}

}  // namespace hlsgym::ir
