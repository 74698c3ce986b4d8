// dynamic-index-splitter (XLA DynamicIndexSplitter): the old form of dynamic-slice and
// dynamic-update-slice takes all start indices in one rank-1 operand,
// `dynamic-slice(x, idx:s32[2])`; it becomes one scalar index per dimension,
// `dynamic-slice(x, reshape(slice(idx, [0:1])), reshape(slice(idx, [1:2])))`, the form
// hlsgym's interpreter and the other passes read. On a rank-0 operand (no indices) the
// slice is the operand and the update is the update. Graphs built by hlsgym already use
// scalar indices, so the pass fires only on modules written in the old form.
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::CompId;
using ir::InstrId;
using ir::Opcode;

// Position of the index operand in the old form, or 0 when `i` is not in that form.
size_t vector_index_slot(const ir::Module& m, InstrId i) {
  const Opcode op = m.opcode(i);
  const size_t slot = op == Opcode::kDynamicSlice ? 1 : op == Opcode::kDynamicUpdateSlice ? 2 : 0;
  if (slot == 0 || m.operands(i).size() != slot + 1) return 0;
  const ir::Shape& idx = m.shape(m.operand(i, slot));
  const ir::Shape& x = m.shape(m.operand(i, 0));
  if (!idx.is_array() || idx.rank() != 1 || !x.is_array() || idx.dim(0) != x.rank()) return 0;
  return slot;
}

InstrId split(ir::Module& m, CompId c, InstrId i, size_t slot) {
  const InstrId idx = m.operand(i, slot);
  const int64_t rank = m.shape(idx).dim(0);
  if (rank == 0) return m.operand(i, slot - 1);  // the operand (slice) or the update
  std::vector<InstrId> ops(m.operands(i).begin(), m.operands(i).begin() + static_cast<std::ptrdiff_t>(slot));
  const ir::ElementType t = m.shape(idx).element_type();
  for (int64_t d = 0; d < rank; ++d) {
    ir::Attributes a;
    a.slice = {{d, d + 1, 1}};
    const InstrId idx_ops[] = {idx};
    const InstrId one = m.add_instruction(c, Opcode::kSlice, ir::Shape(t, {1}), idx_ops, a);
    const InstrId one_ops[] = {one};
    ops.push_back(m.add_instruction(c, Opcode::kReshape, ir::Shape::scalar(t), one_ops));
  }
  return m.add_clone(c, i, ops);
}

class DynamicIndexSplitter final : public Pass {
 public:
  std::string_view name() const override { return "dynamic-index-splitter"; }
  std::string_view description() const override {
    return "splits the rank-1 index operand of dynamic-slice/dynamic-update-slice into scalar indices";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (CompId c : m.live_computations()) {
      for (InstrId i : m.instructions(c)) {
        const size_t slot = vector_index_slot(m, i);
        if (slot == 0) continue;
        replace_instruction(m, i, split(m, c, i, slot));
        changed = true;
      }
    }
    return changed;
  }
};

}  // namespace

PassPtr make_dynamic_index_splitter() { return std::make_unique<DynamicIndexSplitter>(); }

}  // namespace hlsgym::passes
