// Converting IR values to JSON for `--json` output.
#pragma once
#include <nlohmann/json.hpp>

#include "ir/literal.h"
#include "ir/module.h"

namespace hlsgym::cli {

// Nested arrays following the shape; NaN and infinities become the strings "nan",
// "inf", "-inf" (JSON has no such numbers); complex numbers are [re, im]; tuples are
// arrays of their elements. At most `max_elements` elements per array are written
// (0 = all); a truncated array gets its shape and a "truncated" marker instead.
nlohmann::json literal_to_json(const ir::Literal& value, int64_t max_elements = 0);

// Reads a value for `shape` from the same JSON form (numbers, nested lists, strings for
// non-finite floats). Throws hlsgym::Error on a mismatch.
ir::Literal literal_from_json(const nlohmann::json& j, const ir::Shape& shape,
                              const std::string& what);

// Inputs from a JSON file: an object {parameter name: value} or a list in parameter
// order; values out of their type's range are refused.
std::vector<ir::Literal> inputs_from_json_file(const ir::Module& m, const std::string& path);

}  // namespace hlsgym::cli
