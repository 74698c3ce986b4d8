// Helpers for XLA's HLO evaluator cases (hlo_evaluator_test.cc) written as hlsgym tests:
// HLO text in, a literal out, compared with an expected literal written as HLO text.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir/literal.h"

namespace hlsgym::testing {

// The literal a constant of this shape and value denotes, e.g. "f32[2] {1, 2}" or
// "c64[] (1, 2)" (what XLA's HLO text writes after `constant(`).
ir::Literal literal(const std::string& shape_and_value);
ir::Literal tuple_literal(std::vector<ir::Literal> elements);

// A module of one entry computation with these instruction lines.
std::string entry_module(const std::string& body);

// The entry's root value of a whole HLO module (text), verified first, evaluated on
// `args` in the reference order; placeholders (rng, unknown custom-calls) are refused.
ir::Literal evaluate_text(const std::string& module, const std::vector<ir::Literal>& args = {});

// What evaluate_text(module, args) fails with (hlsgym::Error's message), or "NO ERROR".
std::string evaluation_failure(const std::string& module, const std::vector<ir::Literal>& args = {});

// Shape and every bit equal (NaNs with the same payload are equal); prints both values.
::testing::AssertionResult same_literal(const ir::Literal& want, const ir::Literal& got);

// XLA's LiteralTestUtil::Near with ErrorSpec{abs, rel}: shapes equal and each element (each
// part of a complex one) within abs or within rel relative to the expected value; NaN
// only where NaN is expected. Only where XLA's case itself compares with an error bound.
::testing::AssertionResult near_literal(const ir::Literal& want, const ir::Literal& got, double abs,
                                        double rel = 0);

}  // namespace hlsgym::testing
