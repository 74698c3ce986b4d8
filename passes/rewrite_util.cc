#include "passes/rewrite_util.h"

#include <vector>

namespace hlsgym::passes {
using ir::InstrId;
using ir::Opcode;

namespace {
bool is_collective_with_channel(const ir::Module& m, InstrId i) {
  return ir::info(m.opcode(i)).category == ir::OpCategory::kCollective &&
         m.attrs(i).find_opaque("channel_id") != nullptr;
}

bool computation_has_side_effect(const ir::Module& m, ir::CompId c, int depth) {
  if (depth > 64) return true;  // conservatively, for absurdly deep call chains
  for (InstrId i : m.computation(c).order) {
    if (!m.is_live(i)) continue;
    const Opcode op = m.opcode(i);
    if (ir::info(op).side_effect) return true;
    if (op == Opcode::kCustomCall) {
      const auto* a = m.attrs(i).find_opaque("custom_call_has_side_effect");
      if (a && a->value == "true") return true;
    }
    if (is_collective_with_channel(m, i)) return true;
    for (ir::CompId k : m.called(i))
      if (computation_has_side_effect(m, k, depth + 1)) return true;
  }
  return false;
}
}  // namespace

bool has_side_effect(const ir::Module& m, InstrId i) {
  const Opcode op = m.opcode(i);
  if (ir::info(op).side_effect) return true;
  if (op == Opcode::kCustomCall) {
    const auto* a = m.attrs(i).find_opaque("custom_call_has_side_effect");
    return a && a->value == "true";
  }
  if (is_collective_with_channel(m, i)) return true;
  for (ir::CompId c : m.called(i))
    if (computation_has_side_effect(m, c, 0)) return true;
  return false;
}

int remove_if_dead(ir::Module& m, InstrId start) {
  int removed = 0;
  std::vector<InstrId> work{start};
  while (!work.empty()) {
    InstrId i = work.back();
    work.pop_back();
    if (!m.is_live(i) || !m.users(i).empty() || m.is_root(i)) continue;
    if (m.opcode(i) == Opcode::kParameter || has_side_effect(m, i)) continue;
    std::vector<InstrId> ops(m.operands(i).begin(), m.operands(i).end());
    m.remove_instruction(i);
    ++removed;
    work.insert(work.end(), ops.begin(), ops.end());
  }
  return removed;
}

void replace_instruction(ir::Module& m, InstrId old_id, InstrId new_id) {
  m.replace_all_uses(old_id, new_id);
  remove_if_dead(m, old_id);
}

const ir::Literal* scalar_constant(const ir::Module& m, InstrId i) {
  if (m.opcode(i) == Opcode::kBroadcast) i = m.operand(i, 0);
  if (m.opcode(i) != Opcode::kConstant) return nullptr;
  const ir::Literal& l = m.literal(i);
  if (l.is_tuple() || l.elided() || l.element_count() != 1) return nullptr;
  return &l;
}

bool is_all(const ir::Module& m, InstrId i, double value) {
  if (m.opcode(i) == Opcode::kBroadcast) i = m.operand(i, 0);
  if (m.opcode(i) != Opcode::kConstant) return false;
  const ir::Literal& l = m.literal(i);
  if (l.is_tuple() || l.elided() || ir::is_complex(l.shape().element_type())) return false;
  for (int64_t k = 0; k < l.element_count(); ++k)
    if (l.get_double(k) != value) return false;
  return true;
}

std::vector<std::string> control_predecessor_names(const std::string& value) {
  std::vector<std::string> names;
  std::string name;
  for (char ch : value + ",") {
    if (ch == ',' || ch == '}') {
      if (!name.empty()) names.push_back(name);
      name.clear();
    } else if (ch != '{' && ch != ' ') {
      name += ch;
    }
  }
  return names;
}

std::unordered_set<InstrId> with_control_edges(const ir::Module& m) {
  std::unordered_set<InstrId> out;
  for (ir::CompId c : m.live_computations()) {
    std::unordered_set<std::string> named;
    // The definition order read in place (no copy of the computation's live instructions:
    // most modules have no control edge, and this walk is all the work then).
    const std::vector<InstrId>& order = m.computation(c).order;
    for (InstrId i : order)
      if (m.is_live(i))
        if (const ir::OpaqueAttribute* a = m.attrs(i).find_opaque("control-predecessors")) {
          out.insert(i);
          for (std::string& n : control_predecessor_names(a->value)) named.insert(std::move(n));
        }
    if (named.empty()) continue;
    for (InstrId i : order)
      if (m.is_live(i) && named.count(m.name(i))) out.insert(i);
  }
  return out;
}

}  // namespace hlsgym::passes
