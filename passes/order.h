// Pass orders as users write them: `default` (XLA's order, default_order.h), a
// comma-separated list of pass names, or a text file of pass names (one or more per line,
// separated by commas or spaces; `#` starts a comment). Each listed pass runs once, in
// order, like `hlo-opt --passes=`.
#pragma once
#include <string>
#include <vector>

#include "passes/pass.h"

namespace hlsgym::passes {

struct Order {
  std::string spec;                // as given
  std::vector<std::string> names;  // the passes in run order (default: flattened)
  PassPtr pipeline;                // runs the order
};

// Throws hlsgym::Error for an unknown pass name (with a suggestion, and FILE:LINE for files)
// or an empty order.
Order parse_order(const std::string& spec);

// A pipeline running `names` once each, in order.
PassPtr make_pipeline(const std::vector<std::string>& names);

}  // namespace hlsgym::passes
