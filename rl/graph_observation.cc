#include "rl/graph_observation.h"

#include <cmath>

#include "ir/cost_analysis.h"

namespace hlsgym::rl {

const std::vector<std::string>& graph_node_feature_names() {
  static const std::vector<std::string> names = {
      "element_type", "rank", "log_elements", "log_bytes", "is_tuple", "is_root", "in_entry",
      "log_flops", "log_transcendentals", "log_bytes_accessed"};
  return names;
}

namespace {

// Single precision is what the features are stored in, and logf is several times faster
// than a double log1p (five per node: a measurable share of the 2 ms budget).
float log1p_float(float x) { return x > 0 ? std::log(1.0f + x) : 0.0f; }

}  // namespace

GraphObservation graph_observation(const ir::Module& m) {
  GraphObservation g;
  // Dense node ids over the live instructions, computation by computation.
  std::vector<int32_t> node_of(m.instruction_slots(), -1);
  const std::vector<ir::CompId> comps = m.live_computations();
  size_t n = 0;
  for (ir::CompId c : comps) n += m.instruction_count(c);
  g.opcode.reserve(n);
  g.instruction.reserve(n);
  g.features.reserve(n * kGraphNodeFeatures);
  for (ir::CompId c : comps)
    for (ir::InstrId i : m.instructions(c)) {
      node_of[i] = static_cast<int32_t>(g.opcode.size());
      g.opcode.push_back(static_cast<int32_t>(m.opcode(i)));
      g.instruction.push_back(i);
    }
  g.row_ptr.reserve(g.opcode.size() + 1);
  g.col.reserve(2 * g.opcode.size());  // most instructions have one or two operands
  g.edge_type.reserve(2 * g.opcode.size());
  g.row_ptr.push_back(0);
  ir::CostOptions cost_options;
  for (size_t node = 0; node < g.opcode.size(); ++node) {
    const ir::InstrId i = g.instruction[node];
    const ir::Shape& s = m.shape(i);
    const ir::CompId c = m.computation_of(i);
    // bytes from elements: Shape::byte_size would count the elements a second time.
    const float elements = s.is_array() ? static_cast<float>(s.element_count()) : 0.0f;
    const float bytes = s.is_array() ? elements * static_cast<float>(ir::byte_width(s.element_type())) : 0.0f;
    const ir::Cost cost = ir::instruction_cost(m, i, cost_options);
    const float f[kGraphNodeFeatures] = {static_cast<float>(s.element_type()),
                                         static_cast<float>(s.rank()),
                                         log1p_float(elements),
                                         log1p_float(bytes),
                                         s.is_tuple() ? 1.0f : 0.0f,
                                         m.is_root(i) ? 1.0f : 0.0f,
                                         c == m.entry() ? 1.0f : 0.0f,
                                         log1p_float(static_cast<float>(cost.flops)),
                                         log1p_float(static_cast<float>(cost.transcendentals)),
                                         log1p_float(static_cast<float>(cost.bytes_accessed))};
    g.features.insert(g.features.end(), f, f + kGraphNodeFeatures);
    for (ir::InstrId o : m.operands(i)) {
      g.col.push_back(node_of[o]);
      g.edge_type.push_back(0);
    }
    for (ir::CompId callee : m.called(i)) {
      const ir::InstrId root = m.computation(callee).root;
      if (root != ir::kNoId && node_of[root] >= 0) {
        g.col.push_back(node_of[root]);
        g.edge_type.push_back(1);
      }
    }
    g.row_ptr.push_back(static_cast<int64_t>(g.col.size()));
  }
  return g;
}

}  // namespace hlsgym::rl
