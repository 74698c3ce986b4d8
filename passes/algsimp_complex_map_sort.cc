// Rules of the algebraic simplifier for complex parts, maps and sorts: real(complex(r, i))
// -> r, imag(complex(r, i)) -> i, complex(real(c), imag(c)) -> c (each part is carried
// through unchanged, NaNs included); a map whose computation is one elementwise op of its
// parameters (or a parameter, or a scalar constant) becomes that op on the map's
// operands; a sort with nothing to reorder is its operands.
#include "passes/algsimp_rules.h"

namespace hlsgym::passes::algsimp {

bool simplify_complex_part(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const Opcode op = m.opcode(i);
  if (op == Opcode::kComplex) {
    const InstrId re = m.operand(i, 0), im = m.operand(i, 1);
    if (m.opcode(re) != Opcode::kReal || m.opcode(im) != Opcode::kImag) return false;
    const InstrId c = m.operand(re, 0);
    if (m.operand(im, 0) != c || !same_shape(m, c, i)) return false;
    return r.replace(i, c);
  }
  const InstrId c = m.operand(i, 0);
  if (m.opcode(c) != Opcode::kComplex) return false;
  return r.replace(i, m.operand(c, op == Opcode::kReal ? 0 : 1));
}

bool simplify_map(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  if (m.called(i).size() != 1) return false;
  const ir::Computation& body = m.computation(m.called(i)[0]);
  const InstrId root = body.root;
  const auto param_number = [&](InstrId p) -> int64_t {
    for (size_t k = 0; k < body.params.size(); ++k)
      if (body.params[k] == p) return static_cast<int64_t>(k);
    return -1;
  };
  if (const int64_t k = param_number(root); k >= 0) return r.replace(i, m.operand(i, static_cast<size_t>(k)));
  if (m.opcode(root) == Opcode::kConstant) {
    if (m.shape(root).rank() != 0 || m.literal(root).elided()) return false;
    const InstrId c = r.m.add_clone(r.comp, root, {});
    return r.replace(i, r.broadcast_scalar(c, m.shape(i).dims()));
  }
  if (!ir::info(m.opcode(root)).elementwise || m.opcode(root) == Opcode::kRng) return false;
  if (!m.called(root).empty()) return false;
  std::vector<InstrId> operands;
  for (InstrId o : m.operands(root)) {
    const int64_t k = param_number(o);
    if (k < 0) return false;  // anything but a parameter: not a single op
    operands.push_back(m.operand(i, static_cast<size_t>(k)));
  }
  if (operands.empty()) return false;
  const Shape shape(type_of(m, root), m.shape(i).dims());
  return r.replace(i, r.make_shaped(m.opcode(root), shape, operands, m.attrs(root)));
}

bool simplify_sort(Rewriter& r, InstrId i) {
  const ir::Module& m = r.m;
  const auto ops = m.operands(i);
  const auto& dims = m.attrs(i).dimensions;
  if (ops.empty() || dims.size() != 1) return false;
  const Shape& keys = m.shape(ops[0]);
  if (!static_array(keys) || dims[0] < 0 || dims[0] >= keys.rank()) return false;
  if (keys.element_count() != 0 && keys.dim(dims[0]) > 1) return false;
  if (ops.size() == 1) return r.replace(i, ops[0]);
  return r.replace(i, r.make_shaped(Opcode::kTuple, m.shape(i), ops));
}

}  // namespace hlsgym::passes::algsimp
