// Cheap applicability: the opcodes a pass acts on, for the passes that act on nothing else.
// A module in which none of them occurs (ir::Features::opcode_counts, which the RL
// environment has for every state anyway) is one the pass cannot change, known without
// running it: the cost-aware action mask of rl/action_mask.h. Each entry
// is the opcode set the pass's own run() searches for (expand::find_all or its loop's
// test); tests/passes/applicability_test.cc runs every pass with an entry on every design
// and real graph whose counts say "cannot change" and fails if it changes anything.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "ir/opcode.h"

namespace hlsgym::passes {

// The opcodes `pass` acts on; empty: no such test (the pass may change any module).
const std::vector<ir::Opcode>& opcodes_acted_on(std::string_view pass);

// True when `pass` has a test and none of its opcodes occurs in the counts.
bool cannot_change(std::string_view pass, const std::array<int32_t, ir::kOpcodeCount>& opcode_counts);

}  // namespace hlsgym::passes
