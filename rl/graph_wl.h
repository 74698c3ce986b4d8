// Graph-structure features of a module for the flat observation vector (the "graph-wl"
// observation space, rl/spaces.h): what the opcode counts cannot say, namely which
// opcodes feed which. One Weisfeiler-Lehman-style refinement of each node's opcode label
// by its operands', hashed into fixed buckets, plus named patterns the passes match:
//
//   [0, kWlEdgeBuckets)               (producer opcode -> consumer opcode) data edges,
//                                     one per operand position, hashed
//   [.., + kWlPathBuckets)            2-hop paths (a -> b -> c), hashed
//   [.., + kWlPatterns)               named patterns (graph_wl_pattern_names()): e.g.
//                                     reshape -> elementwise (reshape-mover), transpose ->
//                                     dot (transpose folding), broadcast -> multiply,
//                                     convert -> convert, and the while/conditional
//                                     nesting (instructions inside loop bodies, depth)
//
// Every entry is a count of live instructions, edges or paths, returned raw; the
// environment divides them by the initial graph's instruction count, as it does the
// opcode counts, so graphs of any size look alike. The nesting depth is the one entry that
// is not a count (divided by kWlDepthScale). A single pass over the instruction slots,
// no allocation per instruction: issue 18 item 6 asks for <= 20 us per 1,000
// instructions (bench/rl_bench.cc, BM_GraphWl*).
#pragma once
#include <string>
#include <vector>

#include "ir/module.h"

namespace hlsgym::rl {

inline constexpr int kWlEdgeBuckets = 64;
inline constexpr int kWlPathBuckets = 64;
inline constexpr int kWlPatterns = 16;
inline constexpr int kGraphWlSize = kWlEdgeBuckets + kWlPathBuckets + kWlPatterns;
// Index of the nesting-depth entry (not a count) and what it is divided by.
inline constexpr int kWlDepthIndex = kWlEdgeBuckets + kWlPathBuckets + kWlPatterns - 1;
inline constexpr double kWlDepthScale = 4.0;

const std::vector<std::string>& graph_wl_pattern_names();  // kWlPatterns names

// kGraphWlSize raw counts (see above); `out` is resized and overwritten.
void graph_wl_counts(const ir::Module& m, std::vector<double>& out);

}  // namespace hlsgym::rl
