#include "passes/call_graph_util.h"

#include <vector>

namespace hlsgym::passes {
using ir::CompId;
using ir::InstrId;

namespace {
// Copies every instruction of `from` into `to` in dependency order. Parameters map to
// `args` when given, else are copied. Returns the old->new id map (indexed by old id).
std::vector<InstrId> copy_body(ir::Module& m, CompId from, CompId to,
                               std::span<const InstrId> args, bool bind_params) {
  std::vector<InstrId> map(m.instruction_slots(), ir::kNoId);
  std::vector<InstrId> ops;
  for (InstrId i : m.post_order(from)) {
    if (bind_params && m.opcode(i) == ir::Opcode::kParameter) {
      map[i] = args[static_cast<size_t>(m.attrs(i).parameter_number)];
      continue;
    }
    ops.clear();
    for (InstrId o : m.operands(i)) ops.push_back(map[o]);
    map[i] = m.add_clone(to, i, ops);
  }
  return map;
}
}  // namespace

CompId clone_computation(ir::Module& m, CompId c, std::string name) {
  const CompId copy = m.add_computation(std::move(name));
  auto map = copy_body(m, c, copy, {}, /*bind_params=*/false);
  m.set_root(copy, map[m.computation(c).root]);
  return copy;
}

InstrId inline_computation(ir::Module& m, CompId callee, CompId into,
                           std::span<const InstrId> args) {
  auto map = copy_body(m, callee, into, args, /*bind_params=*/true);
  return map[m.computation(callee).root];
}

bool remove_unreachable_computations(ir::Module& m) {
  std::vector<bool> reachable(m.computation_slots(), false);
  for (CompId c : m.computation_post_order()) reachable[c] = true;
  bool changed = false;
  for (CompId c : m.live_computations()) {
    if (!reachable[c]) {
      m.remove_computation(c);
      changed = true;
    }
  }
  return changed;
}

}  // namespace hlsgym::passes
