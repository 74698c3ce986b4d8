// Every pass by name. The built-in passes are listed in catalog.cc (one line each), so
// the whole action space can be read in one place.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "passes/pass.h"

namespace hlsgym::passes {

// The RL action space is the registry's list, and policy files and datasets store action
// indices, so the list only ever grows at its end. It is laid out in action groups:
// group kFirstActions is the 55 passes of the first action list, sorted by name; each
// later group comes after every earlier one, sorted by name within:
//   kDirectiveActions  unroll-halve, unroll-x2 (HLS directives, passes/unroll_directives.cc)
//   kLoopPipelineActions  loop-pipeline-off, loop-pipeline-on (passes/pipeline_directives.cc)
// A new pass joins a new group at the end (never an existing one), so a file written for
// the actions of an older build names a prefix of this build's list (rl/action_names.h).
enum ActionGroup : int { kFirstActions = 0, kDirectiveActions = 1, kLoopPipelineActions = 2 };

struct PassInfo {
  std::string name;
  std::string description;
  std::function<PassPtr()> make;
  ActionGroup group = kFirstActions;
};

class Registry {
 public:
  // The registry of every built-in pass (catalog.cc fills it on first use).
  static const Registry& global();
  void add(PassInfo info);
  // Throws hlsgym::Error("unknown pass 'x'; did you mean 'y'?") for an unknown name.
  PassPtr create(std::string_view name) const;
  const PassInfo* find(std::string_view name) const;
  // By action group, then by name. The action space of the RL environment is this list,
  // in this order.
  const std::vector<PassInfo>& all() const { return passes_; }
  // How many actions the groups up to `last` make: the prefix of all() they fill.
  int count_through(ActionGroup last) const;

 private:
  std::vector<PassInfo> passes_;  // kept sorted by (group, name)
};

}  // namespace hlsgym::passes
