// Random, shape- and type-correct modules for property tests and benchmarks.
//
// The generator is biased towards the patterns the passes rewrite — identities with
// constants, duplicated expressions, chains of data movement (reshape of reshape,
// transpose of transpose, slice of slice, adjacent slices concatenated), long
// associative chains, multiplies by small constants, counted while loops with invariant
// code, calls — so that a differential test over a few thousand graphs exercises every
// pass. Tensors stay small (at most `max_dim`^`max_rank` elements) so that interpreting a
// graph takes microseconds, and generation is linear in the instruction count, so the
// same generator builds the 100k-instruction graphs of the pass benchmarks.
#pragma once
#include <cstdint>

#include "ir/module.h"

namespace hlsgym::ir {

struct RandomModuleOptions {
  int instructions = 40;     // approximate number of entry instructions to emit
  uint64_t seed = 1;
  bool integers = true;      // s32 and friends (s8, s16, s64, u8, u32 through converts)
  bool floats = true;        // f32 (and f16/bf16 through converts)
  bool control_flow = true;  // counted while loops and calls
  bool calls = true;         // with control_flow: calls too (else only loops)
  int max_rank = 3;
  int max_dim = 4;
  int outputs = 6;           // unused values gathered into the root tuple (1 = no tuple)
};

Module random_module(const RandomModuleOptions& opts);

}  // namespace hlsgym::ir
