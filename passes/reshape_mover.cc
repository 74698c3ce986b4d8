// reshape-mover (XLA ReshapeMover): an elementwise op whose operands are all the same
// rearrangement (reshapes from one shape, or transposes with one permutation) of values
// of one shape — or scalar constants / broadcasts of scalars, which are rebuilt in the
// source shape — becomes that rearrangement of the elementwise op on the sources:
//   add(reshape(a), reshape(b)) -> reshape(add(a, b))
// Rearrangements sink towards the outputs, where they meet and cancel (algsimp merges
// reshape chains); no operand ever needs a new rearrangement of a non-scalar, so the
// rewrite never adds data movement. Data movement commutes with elementwise arithmetic:
// exact.
#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

bool is_rearrange(const ir::Module& m, InstrId i) {
  return m.opcode(i) == Opcode::kReshape || m.opcode(i) == Opcode::kTranspose;
}

// Same rearrangement: same opcode, same source dims, same attributes (permutation).
bool same_rearrange(const ir::Module& m, InstrId a, InstrId b) {
  return m.opcode(a) == m.opcode(b) && m.shape(m.operand(a, 0)).dims() == m.shape(m.operand(b, 0)).dims() &&
         m.attrs(a).dimensions == m.attrs(b).dimensions;
}

// A scalar constant or a broadcast of a scalar: rebuilt in any shape for free.
bool is_scalar_like(const ir::Module& m, InstrId i) {
  if (m.shape(i).rank() == 0) return m.opcode(i) == Opcode::kConstant;
  return m.opcode(i) == Opcode::kBroadcast && m.shape(m.operand(i, 0)).rank() == 0;
}

// The rearrangement all non-scalar operands share, or kNoId.
InstrId common_rearrange(const ir::Module& m, InstrId e) {
  InstrId first = ir::kNoId;
  for (InstrId o : m.operands(e)) {
    if (is_rearrange(m, o)) {
      if (first == ir::kNoId) first = o;
      else if (!same_rearrange(m, first, o)) return ir::kNoId;
    } else if (!is_scalar_like(m, o)) {
      return ir::kNoId;
    }
  }
  if (first == ir::kNoId || !m.shape(m.operand(first, 0)).is_static()) return ir::kNoId;
  return first;
}

class ReshapeMover final : public Pass {
 public:
  std::string_view name() const override { return "reshape-mover"; }
  std::string_view description() const override {
    return "sinks identical reshapes/transposes below the elementwise ops that consume them";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (ir::CompId c : m.live_computations())
      for (InstrId e : m.post_order(c)) {
        if (!m.is_live(e) || !ir::info(m.opcode(e)).elementwise || m.operands(e).empty() || has_side_effect(m, e))
          continue;
        const InstrId r = common_rearrange(m, e);
        if (r == ir::kNoId) continue;
        move_below(m, e, r);
        changed = true;
      }
    return changed;
  }

 private:
  static void move_below(ir::Module& m, InstrId e, InstrId r) {
    const std::vector<int64_t> source_dims = m.shape(m.operand(r, 0)).dims();
    expand::Builder b(m, m.computation_of(e));
    std::vector<InstrId> sources;
    const auto span = m.operands(e);
    const std::vector<InstrId> operands(span.begin(), span.end());  // the pool may grow below
    for (InstrId o : operands) {
      if (is_rearrange(m, o)) {
        sources.push_back(m.operand(o, 0));
      } else {
        const InstrId scalar = m.shape(o).rank() == 0 ? o : m.operand(o, 0);
        sources.push_back(b.broadcast(scalar, source_dims, {}));
      }
    }
    const ir::Shape s(m.shape(e).element_type(), source_dims);
    const InstrId inner = m.add_instruction(m.computation_of(e), m.opcode(e), s, sources, m.attrs(e));
    const InstrId ops[] = {inner};
    ir::Shape out(m.shape(e).element_type(), m.shape(e).dims());
    const InstrId outer = m.add_instruction(m.computation_of(e), m.opcode(r), out, ops, m.attrs(r));
    expand::replace_with(m, e, outer);
  }
};

}  // namespace

PassPtr make_reshape_mover() { return std::make_unique<ReshapeMover>(); }

}  // namespace hlsgym::passes
