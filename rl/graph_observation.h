// The module as a graph for GNN policies (HloEnv's and ProGraML's observation): one node
// per live instruction of every live computation, node features in a dense row-major
// matrix, and edges in CSR form (row = the node that reads, columns = what it reads),
// next to the flat vector spaces of spaces.h.
//
// Node features (kGraphNodeFeatures, names in graph_node_feature_names()):
//   shape:  element type id, rank, log1p(elements), log1p(bytes), is tuple, is root of
//           its computation, is in the entry computation
//   cost:   log1p(flops), log1p(transcendentals), log1p(bytes accessed) of the
//           instruction (XLA's HloCostAnalysis formulas, ir/cost_analysis.h), which for
//           a reduce, map, fusion or while includes what it calls, as XLA counts it:
//           the scalar nodes of a to_apply say little about the work on their own
// Logarithms keep a 4k x 4k matmul and a scalar add on one scale. Edge types: 0 data
// (operand -> user, one edge per operand position, so `x * x` has two), 1 call (the
// root of a called computation -> the instruction that calls it).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ir/module.h"

namespace hlsgym::rl {

inline constexpr int kGraphNodeFeatures = 10;
const std::vector<std::string>& graph_node_feature_names();

struct GraphObservation {
  std::vector<int32_t> opcode;          // nodes: ir::Opcode as int
  std::vector<float> features;          // nodes x kGraphNodeFeatures
  std::vector<int64_t> row_ptr;         // nodes + 1
  std::vector<int32_t> col;             // edges: source node of each in-edge
  std::vector<int8_t> edge_type;        // edges
  std::vector<uint32_t> instruction;    // node -> ir::InstrId (for reading back names)
  int64_t nodes() const { return static_cast<int64_t>(opcode.size()); }
  int64_t edges() const { return static_cast<int64_t>(col.size()); }
};

GraphObservation graph_observation(const ir::Module& m);

}  // namespace hlsgym::rl
