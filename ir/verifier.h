// Structural and shape checks of a module: operand counts, defined-before-use within a
// computation (no cycles), parameter numbering, called computations with the right
// signatures, and every declared shape equal (layouts ignored) to the inferred one.
#pragma once
#include <string>
#include <vector>

#include "ir/module.h"

namespace hlsgym::ir {

struct VerifierIssue {
  InstrId instr = kNoId;  // kNoId for module/computation level issues
  CompId computation = kNoId;
  std::string message;    // "<instruction name>: what is wrong"
  int line = 0;           // source line of the instruction, when known
  int column = 0;         // and its column (0 when unknown)
};

// Every problem found (empty = valid).
std::vector<VerifierIssue> verify_all(const Module& m);

// Throws hlsgym::Error at the first issue, located at module.source_file():line.
void verify(const Module& m);

}  // namespace hlsgym::ir
