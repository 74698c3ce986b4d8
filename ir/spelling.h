// "Did you mean ...?" for user-typed names (opcodes, passes, keys).
#pragma once
#include <span>
#include <string>
#include <string_view>

namespace hlsgym {

// Levenshtein distance.
size_t edit_distance(std::string_view a, std::string_view b);

// "; did you mean 'x'?" for the closest candidate within `max_distance` edits, else "".
std::string did_you_mean(std::string_view name, std::span<const std::string_view> candidates,
                         size_t max_distance = 3);

}  // namespace hlsgym
