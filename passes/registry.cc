#include "passes/registry.h"
#include "passes/catalog.h"

#include <algorithm>

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
  auto at = std::lower_bound(passes_.begin(), passes_.end(), info.name,
                             [](const PassInfo& p, const std::string& n) { return p.name < n; });
  passes_.insert(at, std::move(info));
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
