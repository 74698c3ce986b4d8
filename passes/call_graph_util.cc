#include "passes/call_graph_util.h"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "passes/rewrite_util.h"

namespace hlsgym::passes {
using ir::CompId;
using ir::InstrId;

namespace {
// The instructions of `from` to copy, operands first: what the root reaches, then what
// only control edges reach (with their operands).
std::vector<InstrId> copy_order(const ir::Module& m, CompId from) {
  std::vector<InstrId> order = m.post_order(from);
  std::unordered_set<InstrId> listed(order.begin(), order.end());
  std::unordered_map<std::string, InstrId> by_name;
  for (size_t k = 0; k < order.size(); ++k) {
    const ir::OpaqueAttribute* edges = m.attrs(order[k]).find_opaque("control-predecessors");
    if (!edges) continue;
    if (by_name.empty())
      for (InstrId i : m.instructions(from)) by_name.emplace(m.name(i), i);
    for (const std::string& name : control_predecessor_names(edges->value)) {
      const auto it = by_name.find(name);
      if (it == by_name.end() || listed.count(it->second)) continue;
      // Operands first (iterative post order), skipping what is listed already.
      std::vector<std::pair<InstrId, size_t>> stack{{it->second, 0}};
      listed.insert(it->second);
      while (!stack.empty()) {
        auto& [x, next] = stack.back();
        if (next < m.operands(x).size()) {
          const InstrId o = m.operand(x, next++);
          if (listed.insert(o).second) stack.emplace_back(o, 0);
          continue;
        }
        order.push_back(x);
        stack.pop_back();
      }
    }
  }
  return order;
}

// Copies every instruction of `from` into `to` in dependency order. Parameters map to
// `args` when given, else are copied. Returns the copy of `from`'s root. The old->new map
// holds only `from`'s instructions: a map over every instruction of the module made each
// copy cost the module's size, and inlining or flattening every call site quadratic.
InstrId copy_body(ir::Module& m, CompId from, CompId to, std::span<const InstrId> args, bool bind_params) {
  const std::vector<InstrId> order = copy_order(m, from);
  std::unordered_map<InstrId, InstrId> map;
  map.reserve(order.size());
  std::vector<InstrId> ops, with_edges;
  for (InstrId i : order) {
    if (bind_params && m.opcode(i) == ir::Opcode::kParameter) {
      map.emplace(i, args[static_cast<size_t>(m.attrs(i).parameter_number)]);
      continue;
    }
    ops.clear();
    for (InstrId o : m.operands(i)) ops.push_back(map.at(o));
    map.emplace(i, m.add_clone(to, i, ops));
    if (m.attrs(i).find_opaque("control-predecessors")) with_edges.push_back(i);
  }
  // The copies' control edges name the copies.
  if (!with_edges.empty()) {
    std::unordered_map<std::string, InstrId> copy_of;
    for (InstrId i : order) copy_of.emplace(m.name(i), map.at(i));
    for (InstrId i : with_edges) {
      ir::Attributes& attrs = m.mutable_payload(map.at(i)).attrs;
      for (ir::OpaqueAttribute& a : attrs.opaque) {
        if (a.key != "control-predecessors") continue;
        std::string renamed;
        for (const std::string& name : control_predecessor_names(a.value)) {
          const auto it = copy_of.find(name);
          renamed += (renamed.empty() ? "" : ", ") + (it == copy_of.end() ? name : m.name(it->second));
        }
        a.value = "{" + renamed + "}";
      }
    }
  }
  return map.at(m.computation(from).root);
}
}  // namespace

CompId clone_computation(ir::Module& m, CompId c, std::string name) {
  const CompId copy = m.add_computation(std::move(name));
  m.set_root(copy, copy_body(m, c, copy, {}, /*bind_params=*/false));
  return copy;
}

InstrId inline_computation(ir::Module& m, CompId callee, CompId into,
                           std::span<const InstrId> args) {
  return copy_body(m, callee, into, args, /*bind_params=*/true);
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
