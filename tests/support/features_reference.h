// The features as defined (instruction by instruction, from the shapes and the public
// ir::instruction_cost), which ir::extract_features and ir::CostTable must equal bit for
// bit: the features are an RL observation, and the shipped policies were trained on them.
// Shared by the feature tests (tests/ir) and the pass tests (tests/passes: the sizes a
// payload keeps, InstrPayload::sizes, must follow every pass's edits).
#pragma once
#include "ir/features.h"
#include "ir/module.h"

namespace hlsgym::testing {

ir::Features reference_features(const ir::Module& m);
// Every feature, and the table's cost of every live instruction of every computation (with
// both byte conventions), equal to the definition's bit for bit (gtest failures otherwise).
void expect_features_identical(const ir::Module& m);

}  // namespace hlsgym::testing
