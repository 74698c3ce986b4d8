// zero_sized_hlo_elimination (XLA ZeroSizedHloElimination): a side-effect-free,
// array-shaped, non-constant instruction with zero elements becomes constant({}).
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

class ZeroSizedHloElimination final : public Pass {
 public:
  std::string_view name() const override { return "zero_sized_hlo_elimination"; }
  std::string_view description() const override {
    return "replaces instructions producing zero-element arrays by empty constants";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (ir::CompId c : m.live_computations()) {
      for (InstrId i : m.instructions(c)) {
        const Opcode op = m.opcode(i);
        const ir::Shape& s = m.shape(i);
        if (op == Opcode::kConstant || op == Opcode::kParameter) continue;
        if (!s.is_array() || !s.is_static() || s.element_count() != 0) continue;
        if (has_side_effect(m, i)) continue;
        InstrId empty = m.add_constant(c, ir::Literal(s));
        replace_instruction(m, i, empty);
        changed = true;
      }
    }
    return changed;
  }
};

}  // namespace

PassPtr make_zero_sized_hlo_elimination() { return std::make_unique<ZeroSizedHloElimination>(); }

}  // namespace hlsgym::passes
