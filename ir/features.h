// Graph features: instruction count per opcode (the state of Ganai et al. 2023) plus
// structural features of the graph. The observation spaces of the RL environment are
// built from these.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "ir/module.h"

namespace hlsgym::ir {

struct Features {
  std::array<int32_t, kOpcodeCount> opcode_counts{};  // over all live computations
  int64_t instructions = 0;          // all computations
  int64_t entry_instructions = 0;
  int64_t computations = 0;
  int64_t edges = 0;                 // operand references
  int64_t depth = 0;                 // longest path (in instructions) through the entry
  double critical_path_flops = 0;    // max over paths of summed flops, entry computation
  int64_t max_fan_out = 0;
  double mean_fan_out = 0;
  int64_t constants = 0;
  int64_t constant_elements = 0;
  int64_t parameters = 0;
  int64_t max_tensor_elements = 0;
  double mean_tensor_elements = 0;
  int64_t total_tensor_bytes = 0;
  int64_t while_loops = 0, conditionals = 0, calls = 0, custom_calls = 0;
  double flops = 0, transcendentals = 0, bytes_accessed = 0;

  // Flat vector (opcode counts first, in Opcode order, then the scalars) and its names.
  std::vector<double> to_vector() const;
  static std::vector<std::string> names();
};

Features extract_features(const Module& m);

}  // namespace hlsgym::ir
