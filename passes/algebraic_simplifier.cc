// algsimp (XLA AlgebraicSimplifier with the 2023 CPU pipeline's options: layout
// insensitive, dot strength reduction off, minmax_propagate_nan=false): one walk over
// every live computation in post order, each instruction dispatched by opcode to its
// rules (algsimp_*.cc). A rule replaces the instruction and removes what became dead;
// instructions it creates are left for the next run, which the pipeline's fixed point
// provides. The rules are exact under ir::evaluate (see algsimp_rules.h), so the pass
// does not reassociate floats.
#include "passes/algsimp_rules.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using namespace algsimp;

// The result is an array and no shape involved has dynamic or unbounded dims: the rules
// never reason about those.
bool has_static_shapes(const ir::Module& m, InstrId i) {
  if (!static_array(m.shape(i))) return false;
  for (InstrId o : m.operands(i))
    if (!m.shape(o).is_static()) return false;
  return true;
}

// An elementwise op can match a rule only through its operands: a constant or broadcast
// operand, an operand used twice, or a few producers (negate(negate), not(not),
// (a % b) % b, select(not p), add(multiply, multiply), and(compare, compare)). Deciding that from the opcode and operand arrays alone
// keeps a run that finds nothing from touching every instruction's payload, which on
// large graphs is a cache miss per instruction.
bool may_match_elementwise(const ir::Module& m, InstrId i, Opcode op) {
  if (op == Opcode::kAbs || op == Opcode::kConvert || op == Opcode::kCopy || op == Opcode::kBitcastConvert ||
      op == Opcode::kReal || op == Opcode::kImag || op == Opcode::kComplex)
    return true;
  const auto ops = m.operands(i);
  for (size_t k = 0; k < ops.size(); ++k) {
    const Opcode p = m.opcode(ops[k]);
    if (p == Opcode::kConstant || p == Opcode::kBroadcast || p == op || p == Opcode::kNot) return true;
    if (op == Opcode::kAdd && p == Opcode::kMultiply) return true;
    if (op == Opcode::kAnd && p == Opcode::kCompare) return true;
    for (size_t j = 0; j < k; ++j)
      if (ops[j] == ops[k]) return true;
  }
  return false;
}

bool simplify_elementwise(Rewriter& r, InstrId i, Opcode op) {
  switch (op) {
    case Opcode::kAdd: return simplify_add(r, i);
    case Opcode::kSubtract: return simplify_subtract(r, i);
    case Opcode::kMultiply: return simplify_multiply(r, i);
    case Opcode::kDivide: return simplify_divide(r, i);
    case Opcode::kRemainder: return simplify_remainder(r, i);
    case Opcode::kPower: return simplify_power(r, i);
    case Opcode::kNegate: return simplify_negate(r, i);
    case Opcode::kNot: return simplify_not(r, i);
    case Opcode::kAnd: case Opcode::kOr: case Opcode::kXor: return simplify_and_or_xor(r, i);
    case Opcode::kAbs: return simplify_abs(r, i);
    case Opcode::kCompare: return simplify_compare(r, i);
    case Opcode::kMaximum: case Opcode::kMinimum: return simplify_min_max(r, i);
    case Opcode::kSelect: return simplify_select(r, i);
    case Opcode::kClamp: return simplify_clamp(r, i);
    case Opcode::kConvert: return simplify_convert(r, i);
    case Opcode::kCopy: case Opcode::kBitcastConvert: return simplify_identity_copy(r, i);
    case Opcode::kReal: case Opcode::kImag: case Opcode::kComplex: return simplify_complex_part(r, i);
    default: return false;
  }
}

bool has_movement_rules(Opcode op) {
  switch (op) {
    case Opcode::kConstant: case Opcode::kBroadcast: case Opcode::kReshape: case Opcode::kBitcast:
    case Opcode::kTranspose: case Opcode::kReverse: case Opcode::kPad: case Opcode::kSlice:
    case Opcode::kConcatenate: case Opcode::kDynamicSlice: case Opcode::kDynamicUpdateSlice:
    case Opcode::kReduce: case Opcode::kReduceWindow: case Opcode::kDot: case Opcode::kMap:
    case Opcode::kConvolution: case Opcode::kIota: case Opcode::kSort: case Opcode::kGather:
      return true;
    default:
      return false;
  }
}

bool simplify_instruction(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const Opcode op = m.opcode(i);
  if (op == Opcode::kGetTupleElement) return simplify_get_tuple_element(r, i);
  // A key/value sort's and a variadic reduce-window's results are tuples: their own rules
  // first, then the rules of tuple-shaped instructions.
  if (m.shape(i).is_tuple()) {
    if (op == Opcode::kSort && simplify_sort(r, i)) return true;
    if (op == Opcode::kReduceWindow && simplify_reduce_window(r, i)) return true;
    return simplify_tuple_shaped(r, i);
  }
  if (ir::info(op).elementwise || op == Opcode::kCopy) {
    if (!may_match_elementwise(m, i, op) || !has_static_shapes(m, i)) return false;
    return simplify_elementwise(r, i, op) || sink_elementwise_through_broadcasts(r, i);
  }
  if (!has_movement_rules(op)) return false;
  if (op == Opcode::kSort) return simplify_sort(r, i);
  if (!has_static_shapes(m, i)) return false;
  switch (op) {
    case Opcode::kConstant: return simplify_constant(r, i);
    case Opcode::kBroadcast: return simplify_broadcast(r, i);
    case Opcode::kReshape: return simplify_reshape(r, i);
    case Opcode::kBitcast: return simplify_identity_copy(r, i);
    case Opcode::kTranspose: return simplify_transpose(r, i);
    case Opcode::kReverse: return simplify_reverse(r, i);
    case Opcode::kPad: return simplify_pad(r, i);
    case Opcode::kSlice: return simplify_slice(r, i);
    case Opcode::kConcatenate: return simplify_concatenate(r, i);
    case Opcode::kDynamicSlice: return simplify_dynamic_slice(r, i);
    case Opcode::kDynamicUpdateSlice: return simplify_dynamic_update_slice(r, i);
    case Opcode::kReduce: return simplify_reduce(r, i);
    case Opcode::kReduceWindow: return simplify_reduce_window(r, i);
    case Opcode::kDot: return simplify_dot(r, i);
    case Opcode::kMap: return simplify_map(r, i);
    case Opcode::kConvolution: return simplify_convolution(r, i);
    case Opcode::kIota: return simplify_iota(r, i);
    case Opcode::kGather: return simplify_gather(r, i);
    default: return false;
  }
}

class AlgebraicSimplifier final : public Pass {
 public:
  std::string_view name() const override { return "algsimp"; }
  std::string_view description() const override {
    return "algebraic identities, constant operands, and simplification of data-movement chains";
  }
  bool run(ir::Module& m) override {
    Rewriter r(m);
    for (ir::CompId c : m.live_computations()) {
      r.comp = c;
      for (InstrId i : m.post_order(c))
        if (m.is_live(i)) simplify_instruction(r, i);
    }
    return r.rewrites() > 0;
  }
};

}  // namespace

PassPtr make_algsimp() { return std::make_unique<AlgebraicSimplifier>(); }

}  // namespace hlsgym::passes
