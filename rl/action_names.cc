#include "rl/action_names.h"

#include <fmt/core.h>

#include "ir/error.h"
#include "rl/env.h"

namespace hlsgym::rl {

std::vector<std::string> action_names() {
  std::vector<std::string> out;
  for (int a = 0; a < Env::action_count(); ++a) out.push_back(Env::action_name(a));
  return out;
}

void check_action_names(const std::vector<std::string>& stored, const std::string& file) {
  if (static_cast<int>(stored.size()) > Env::action_count())
    throw Error(fmt::format("{}: written for {} passes, this build has {}", file, stored.size(), Env::action_count()));
  for (int a = 0; a < static_cast<int>(stored.size()); ++a)
    if (stored[static_cast<size_t>(a)] != Env::action_name(a))
      throw Error(fmt::format("{}: action {} was '{}' when written but is '{}' in this build", file, a,
                              stored[static_cast<size_t>(a)], Env::action_name(a)));
}

}  // namespace hlsgym::rl
