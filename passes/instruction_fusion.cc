// fusion (XLA InstructionFusion / CpuInstructionFusion, loop fusion only), used here as
// an HLS pass: producer-consumer chains of elementwise instructions, with the
// broadcasts, reshapes, slices, transposes, reverses, copies and scalar constants
// feeding them, become one `fusion`
// instruction (kind=kLoop) whose called computation (fused_computation,
// fused_computation.1, ...) holds the fused ops. In hardware a loop fusion is one
// pipelined datapath with no intermediate buffers between its ops.
//
// Grouping: instructions are visited users first; a fusible producer joins its users'
// fusion when every user is in that same fusion (so nothing is duplicated, expensive or
// not, and every group is convex: no path leaves a group and comes back). A group is
// emitted when it holds at least two non-constant instructions, one of them elementwise.
// Side-effecting instructions never fuse. It runs on the entry and on the computations
// it reaches through while/conditional/call (reducers, sort comparators and existing
// fusion bodies are left as they are).
//
// Counts: the entry (and each fused-in computation) loses the fused instructions and
// gains one fusion instruction; counted over all computations the module grows by one
// fusion instruction and one parameter per distinct outside operand for each fusion.
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::CompId;
using ir::InstrId;
using ir::Opcode;

bool is_scalar_constant(const ir::Module& m, InstrId i) {
  if (m.opcode(i) != Opcode::kConstant) return false;
  const ir::Literal& l = m.literal(i);
  return !l.is_tuple() && !l.elided() && m.shape(i).rank() == 0;
}

bool fusible(const ir::Module& m, InstrId i) {
  const ir::Shape& s = m.shape(i);
  if (!s.is_array() || !s.is_static()) return false;
  const Opcode op = m.opcode(i);
  // Data movement whose every element is one operand element (XLA's loop fusion takes
  // these too): in hardware an address mapping of the fused loop's reads, not a pass.
  if (op == Opcode::kBroadcast || op == Opcode::kReshape || op == Opcode::kSlice || op == Opcode::kTranspose ||
      op == Opcode::kReverse || op == Opcode::kCopy || is_scalar_constant(m, i))
    return true;
  return ir::info(op).elementwise && m.called(i).empty() && !has_side_effect(m, i);
}

// The entry and what it reaches through while, conditional and call, each once.
std::vector<CompId> sequential_computations(const ir::Module& m) {
  std::vector<CompId> out;
  if (m.entry() == ir::kNoId) return out;
  std::vector<bool> seen(m.computation_slots(), false);
  out.push_back(m.entry());
  seen[m.entry()] = true;
  for (size_t k = 0; k < out.size(); ++k)
    for (InstrId i : m.computation(out[k]).order) {
      if (!m.is_live(i)) continue;
      const Opcode op = m.opcode(i);
      if (op != Opcode::kWhile && op != Opcode::kConditional && op != Opcode::kCall) continue;
      for (CompId c : m.called(i))
        if (c < seen.size() && !seen[c] && !m.computation(c).dead) {
          seen[c] = true;
          out.push_back(c);
        }
    }
  return out;
}

class InstructionFusion final : public Pass {
 public:
  std::string_view name() const override { return "fusion"; }
  std::string_view description() const override {
    return "HLS pass (XLA InstructionFusion, kLoop): fuses chains of elementwise ops with their "
           "broadcasts/reshapes/slices/transposes/reverses into fusion instructions (no duplication)";
  }
  bool run(ir::Module& m) override {
    group_.assign(m.instruction_slots(), -1);
    names_.clear();
    next_suffix_ = 1;
    bool changed = false;
    for (CompId c : sequential_computations(m)) changed |= fuse_in(m, c);
    return changed;
  }

 private:
  bool fuse_in(ir::Module& m, CompId c) {
    const std::vector<InstrId> post = m.post_order(c);
    std::vector<std::vector<InstrId>> groups;  // each: its root first, users before producers
    for (auto it = post.rbegin(); it != post.rend(); ++it) {
      const InstrId i = *it;
      if (!fusible(m, i)) continue;
      const int g = common_user_group(m, i);
      if (g >= 0) {
        group_[i] = g;
        groups[static_cast<size_t>(g)].push_back(i);
      } else if (m.opcode(i) != Opcode::kConstant) {
        group_[i] = static_cast<int>(groups.size());
        groups.push_back({i});
      }
    }
    bool changed = false;
    for (const auto& g : groups)
      if (worth_fusing(m, g)) {
        build_fusion(m, c, g);
        changed = true;
      }
    return changed;
  }

  // The group every user of `i` belongs to, or -1 if they are not all in one group.
  int common_user_group(const ir::Module& m, InstrId i) const {
    const auto users = m.users(i);
    if (users.empty() || m.is_root(i)) return -1;
    const int g = group_[users[0]];
    for (InstrId u : users)
      if (group_[u] != g) return -1;
    return g;
  }

  static bool worth_fusing(const ir::Module& m, const std::vector<InstrId>& g) {
    int ops = 0;
    bool elementwise = false;
    for (InstrId i : g) {
      if (m.opcode(i) == Opcode::kConstant) continue;
      ++ops;
      elementwise |= ir::info(m.opcode(i)).elementwise;
    }
    return ops >= 2 && elementwise;
  }

  std::string fused_computation_name(const ir::Module& m) {
    if (names_.empty())
      for (CompId c : m.live_computations()) names_.insert(m.computation(c).name);
    std::string name = "fused_computation";
    while (names_.count(name)) name = "fused_computation." + std::to_string(next_suffix_++);
    names_.insert(name);
    return name;
  }

  void build_fusion(ir::Module& m, CompId c, const std::vector<InstrId>& group) {
    const CompId body = m.add_computation(fused_computation_name(m));
    std::vector<InstrId> outside;  // the fusion's operands, one parameter each
    std::unordered_map<InstrId, InstrId> inside;  // original -> its copy in the body
    for (auto it = group.rbegin(); it != group.rend(); ++it) {  // producers first
      std::vector<InstrId> ops;
      // A copy: adding instructions may move the operand lists.
      const std::vector<InstrId> operands(m.operands(*it).begin(), m.operands(*it).end());
      for (InstrId o : operands) {
        auto found = inside.find(o);
        if (found == inside.end()) {
          const int64_t number = static_cast<int64_t>(outside.size());
          outside.push_back(o);
          const std::string pname = m.unique_name("param_" + std::to_string(number));
          found = inside.emplace(o, m.add_parameter(body, number, m.shape(o), pname)).first;
        }
        ops.push_back(found->second);
      }
      inside[*it] = m.add_clone(body, *it, ops);
    }
    const InstrId root = group.front();
    m.set_root(body, inside[root]);
    ir::Attributes attrs;
    attrs.fusion_kind = "kLoop";
    const InstrId fusion = m.add_instruction(c, Opcode::kFusion, m.shape(root), outside, std::move(attrs),
                                             m.unique_name("fusion"));
    m.mutable_payload(fusion).called = {body};
    m.replace_all_uses(root, fusion);
    for (InstrId i : group) m.remove_instruction(i);  // users before producers: each is unused
  }

  std::vector<int> group_;  // instruction -> its group in the computation being fused
  std::unordered_set<std::string> names_;
  int next_suffix_ = 1;
};

}  // namespace

PassPtr make_fusion() { return std::make_unique<InstructionFusion>(); }

}  // namespace hlsgym::passes
