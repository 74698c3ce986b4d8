#include "ir/spelling.h"

#include <algorithm>
#include <vector>

namespace hlsgym {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string did_you_mean(std::string_view name, std::span<const std::string_view> candidates,
                         size_t max_distance) {
  size_t best = SIZE_MAX;
  std::string_view choice;
  for (std::string_view c : candidates) {
    const size_t d = edit_distance(name, c);
    if (d < best) best = d, choice = c;
  }
  if (best > max_distance) return {};
  return "; did you mean '" + std::string(choice) + "'?";
}

}  // namespace hlsgym
