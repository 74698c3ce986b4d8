// tree-height-reduction (an HLS pass, not in XLA): rebalances chains of one associative,
// commutative op so the longest path shrinks while the op count stays the same, as HLS
// tools do before scheduling (a chain of n adds takes n cycles, a balanced tree log2 n).
//
// A tree is a maximal set of instructions of one opcode and one shape whose inner nodes
// each have a single use (by the next node of the tree, once); its leaves are the other
// operands. The leaves are recombined like a Huffman code on their depths (the two
// shallowest first), which gives the smallest possible height for the tree given when
// each leaf is ready, so late leaves join near the root. The tree's instructions are
// reused (same names, same count); a tree is rewritten only when its height drops, so a
// second run finds nothing.
//
// Exactness: integer add/multiply/and/or/xor/maximum/minimum and pred and/or/xor wrap
// or are exact, so any grouping gives the same bits. Float maximum/minimum are exact too
// (any NaN operand gives NaN whatever the grouping; -0 and +0 compare equal by value).
// Float add and multiply round differently when regrouped and are never touched.
#include <algorithm>
#include <queue>
#include <vector>

#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

bool regroupable(const ir::Module& m, InstrId i) {
  const Opcode op = m.opcode(i);
  const ir::ElementType t = m.shape(i).element_type();
  if (!m.shape(i).is_array()) return false;
  switch (op) {
    case Opcode::kAdd: case Opcode::kMultiply:
      return ir::is_integral(t);
    case Opcode::kAnd: case Opcode::kOr: case Opcode::kXor:
      return ir::is_integral(t) || t == ir::ElementType::kPred;
    case Opcode::kMaximum: case Opcode::kMinimum:
      return ir::is_integral(t) || t == ir::ElementType::kPred || ir::is_floating(t);
    default:
      return false;
  }
}

// True if `o`, an operand of tree node `parent`, is an inner node of the same tree.
bool is_inner(const ir::Module& m, InstrId parent, InstrId o) {
  if (m.opcode(o) != m.opcode(parent) || !(m.shape(o) == m.shape(parent))) return false;
  if (m.users(o).size() != 1 || m.is_root(o)) return false;
  return m.operand(parent, 0) != m.operand(parent, 1);  // add(t, t) would duplicate t
}

struct Tree {
  std::vector<InstrId> inner;   // inner nodes (not the root), in discovery order
  std::vector<InstrId> leaves;  // operands from outside the tree, in operand order
};

Tree collect_tree(const ir::Module& m, InstrId root) {
  Tree t;
  std::vector<InstrId> stack{root};
  while (!stack.empty()) {
    const InstrId n = stack.back();
    stack.pop_back();
    // Operands pushed in reverse so leaves come out in left-to-right order.
    const auto ops = m.operands(n);
    for (size_t k = ops.size(); k-- > 0;) {
      if (is_inner(m, n, ops[k])) {
        t.inner.push_back(ops[k]);
        stack.push_back(ops[k]);
      } else {
        t.leaves.push_back(ops[k]);
      }
    }
  }
  std::reverse(t.leaves.begin(), t.leaves.end());
  return t;
}

class TreeHeightReduction final : public Pass {
 public:
  std::string_view name() const override { return "tree-height-reduction"; }
  std::string_view description() const override {
    return "HLS pass: rebalances chains of integer add/mul/and/or/xor/max/min (and float "
           "max/min) into balanced trees (same op count, depth ~log n)";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    depth_.assign(m.instruction_slots(), 0);
    for (ir::CompId c : m.live_computations()) changed |= run_on(m, c);
    return changed;
  }

 private:
  bool run_on(ir::Module& m, ir::CompId c) {
    bool changed = false;
    for (InstrId i : m.post_order(c)) {
      int d = 0;
      for (InstrId o : m.operands(i)) d = std::max(d, depth_[o]);
      const bool leaf = m.operands(i).empty();
      depth_[i] = leaf ? 0 : d + 1;
      if (!regroupable(m, i) || is_tree_inner(m, i)) continue;
      changed |= rebalance(m, i);
    }
    return changed;
  }

  // An inner node is handled with the root of its tree.
  static bool is_tree_inner(const ir::Module& m, InstrId i) {
    if (m.users(i).size() != 1) return false;
    const InstrId u = m.users(i)[0];
    return regroupable(m, u) && is_inner(m, u, i);
  }

  bool rebalance(ir::Module& m, InstrId root) {
    const Tree t = collect_tree(m, root);
    if (t.leaves.size() < 3) return false;
    // Nodes of the new tree: the leaves, then one per combination (index into `nodes`).
    std::vector<InstrId> nodes = t.leaves;
    std::vector<int> depth;
    for (InstrId l : t.leaves) depth.push_back(depth_[l]);
    // Huffman on depths: (depth, node index); the index keeps ties deterministic.
    using Entry = std::pair<int, size_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
    for (size_t k = 0; k < nodes.size(); ++k) ready.emplace(depth[k], k);
    std::vector<std::pair<size_t, size_t>> plan;  // combination j joins these two nodes
    while (ready.size() > 1) {
      const auto [da, a] = ready.top();
      ready.pop();
      const auto [db, b] = ready.top();
      ready.pop();
      plan.emplace_back(a, b);
      depth.push_back(std::max(da, db) + 1);
      ready.emplace(depth.back(), depth.size() - 1);
    }
    if (depth.back() >= depth_[root]) return false;  // no gain: leave the tree as it is
    // Combinations take the inner nodes' ids in turn; the last one is the root.
    for (size_t j = 0; j < plan.size(); ++j) {
      const InstrId node = j + 1 == plan.size() ? root : t.inner[j];
      const InstrId ops[] = {nodes[plan[j].first], nodes[plan[j].second]};
      m.set_operands(node, ops);
      depth_[node] = depth[t.leaves.size() + j];
      nodes.push_back(node);
    }
    return true;
  }

  std::vector<int> depth_;
};

}  // namespace

PassPtr make_tree_height_reduction() { return std::make_unique<TreeHeightReduction>(); }

}  // namespace hlsgym::passes
