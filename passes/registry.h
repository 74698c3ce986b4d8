// Every pass by name. The built-in passes are listed in catalog.cc (one line each), so
// the whole action space can be read in one place.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "passes/pass.h"

namespace hlsgym::passes {

struct PassInfo {
  std::string name;
  std::string description;
  std::function<PassPtr()> make;
};

class Registry {
 public:
  // The registry of every built-in pass (catalog.cc fills it on first use).
  static const Registry& global();
  void add(PassInfo info);
  // Throws hlsgym::Error("unknown pass 'x'; did you mean 'y'?") for an unknown name.
  PassPtr create(std::string_view name) const;
  const PassInfo* find(std::string_view name) const;
  // Sorted by name. The action space of the RL environment is this list, in this order.
  const std::vector<PassInfo>& all() const { return passes_; }

 private:
  std::vector<PassInfo> passes_;  // kept sorted by name
};

}  // namespace hlsgym::passes
