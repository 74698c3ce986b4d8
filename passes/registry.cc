#include "passes/registry.h"
#include "passes/catalog.h"

#include <algorithm>
#include <tuple>

#include "ir/error.h"
#include "ir/spelling.h"

namespace hlsgym::passes {

const Registry& Registry::global() {
  static const Registry r = [] {
    Registry reg;
    register_builtin_passes(reg);
    return reg;
  }();
  return r;
}

void Registry::add(PassInfo info) {
  auto at = std::lower_bound(passes_.begin(), passes_.end(), info, [](const PassInfo& a, const PassInfo& b) {
    return std::tie(a.group, a.name) < std::tie(b.group, b.name);
  });
  passes_.insert(at, std::move(info));
}

int Registry::count_through(ActionGroup last) const {
  return static_cast<int>(std::count_if(passes_.begin(), passes_.end(), [&](const PassInfo& p) { return p.group <= last; }));
}

const PassInfo* Registry::find(std::string_view name) const {
  for (const auto& p : all())
    if (p.name == name) return &p;
  return nullptr;
}

PassPtr Registry::create(std::string_view name) const {
  if (const PassInfo* p = find(name)) return p->make();
  std::vector<std::string_view> names;
  for (const auto& p : passes_) names.push_back(p.name);
  throw Error("unknown pass '" + std::string(name) + "'" + did_you_mean(name, names, 4) +
              " (`hlsgym passes` lists them all)");
}

}  // namespace hlsgym::passes
