// tuple-simplifier (XLA TupleSimplifier): get-tuple-element(tuple(a0..an), i) -> ai, and
// tuple(gte(t,0), ..., gte(t,n-1)) -> t when it rebuilds t whole. As in XLA, not where
// the instruction replaced carries a sharding its replacement does not (the sharding
// would be lost).
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

// The tuple `i` rebuilds, or kNoId.
InstrId rebuilt_tuple(const ir::Module& m, InstrId i) {
  auto ops = m.operands(i);
  if (ops.empty()) return ir::kNoId;
  InstrId source = ir::kNoId;
  for (size_t k = 0; k < ops.size(); ++k) {
    if (m.opcode(ops[k]) != Opcode::kGetTupleElement) return ir::kNoId;
    if (m.attrs(ops[k]).tuple_index != static_cast<int64_t>(k)) return ir::kNoId;
    InstrId t = m.operand(ops[k], 0);
    if (source != ir::kNoId && t != source) return ir::kNoId;
    source = t;
  }
  if (m.shape(source).tuple_elements().size() != ops.size()) return ir::kNoId;
  if (!m.shape(source).compatible(m.shape(i))) return ir::kNoId;
  return source;
}

// True if replacing `old` by `replacement` would lose old's sharding.
bool loses_sharding(const ir::Module& m, InstrId old, InstrId replacement) {
  const ir::OpaqueAttribute* a = m.attrs(old).find_opaque("sharding");
  const ir::OpaqueAttribute* b = m.attrs(replacement).find_opaque("sharding");
  return a && !(b && b->value == a->value);
}

class TupleSimplifier final : public Pass {
 public:
  std::string_view name() const override { return "tuple-simplifier"; }
  std::string_view description() const override {
    return "forwards get-tuple-element of a tuple and removes tuples that rebuild a tuple";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (ir::CompId c : m.live_computations()) {
      for (InstrId i : m.post_order(c)) {
        if (!m.is_live(i)) continue;
        if (m.opcode(i) == Opcode::kGetTupleElement) {
          InstrId t = m.operand(i, 0);
          if (m.opcode(t) != Opcode::kTuple) continue;
          InstrId element = m.operand(t, static_cast<size_t>(m.attrs(i).tuple_index));
          if (!m.shape(element).compatible(m.shape(i)) || loses_sharding(m, i, element)) continue;
          replace_instruction(m, i, element);
          changed = true;
        } else if (m.opcode(i) == Opcode::kTuple) {
          InstrId source = rebuilt_tuple(m, i);
          if (source == ir::kNoId || loses_sharding(m, i, source)) continue;
          replace_instruction(m, i, source);
          changed = true;
        }
      }
    }
    return changed;
  }
};

}  // namespace

PassPtr make_tuple_simplifier() { return std::make_unique<TupleSimplifier>(); }

}  // namespace hlsgym::passes
