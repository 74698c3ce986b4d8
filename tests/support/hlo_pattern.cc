#include "tests/support/hlo_pattern.h"

namespace hlsgym::testing {

std::string expression(const ir::Module& m, ir::InstrId i, int depth) {
  std::string out(ir::name(m.opcode(i)));
  if (m.opcode(i) == ir::Opcode::kParameter) return out + "(" + std::to_string(m.attrs(i).parameter_number) + ")";
  if (m.opcode(i) == ir::Opcode::kConstant && m.shape(i).dims().empty()) return out + "(" + m.literal(i).to_string() + ")";
  const auto operands = m.operands(i);
  if (operands.empty() || depth == 0) return out;
  out += "(";
  for (size_t k = 0; k < operands.size(); ++k) out += (k ? ", " : "") + expression(m, operands[k], depth - 1);
  return out + ")";
}

std::string root_expression(const ir::Module& m, int depth) {
  return expression(m, m.computation(m.entry()).root, depth);
}

}  // namespace hlsgym::testing
