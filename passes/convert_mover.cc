// convert-mover (XLA ConvertMover): converts move across pure data movement so that the
// movement runs on the narrower type:
//   movement(convert(x)) -> convert(movement(x))  when the convert widens,
//   convert(movement(x)) -> movement(convert(x))  when the convert narrows,
// for the single-operand movement ops that only copy elements (reshape, transpose,
// broadcast, slice, reverse, copy). Converting an element commutes with copying it, so
// the rewrite is exact; it only applies when the movement op has no other user.
#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

bool is_movement(Opcode op) {
  return op == Opcode::kReshape || op == Opcode::kTranspose || op == Opcode::kBroadcast || op == Opcode::kSlice ||
         op == Opcode::kReverse || op == Opcode::kCopy;
}

int width(ir::ElementType t) { return ir::byte_width(t); }

// A copy of `movement` applied to `x` (same attributes, element type of x).
InstrId move(ir::Module& m, InstrId movement, InstrId x) {
  ir::Shape s = m.shape(movement);
  s.set_element_type(m.shape(x).element_type());
  const InstrId ops[] = {x};
  return m.add_instruction(m.computation_of(movement), m.opcode(movement), s, ops, m.attrs(movement));
}

class ConvertMover final : public Pass {
 public:
  std::string_view name() const override { return "convert-mover"; }
  std::string_view description() const override {
    return "moves widening converts after data movement and narrowing converts before it";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId c : expand::find_all(m, {Opcode::kConvert})) {
      if (!m.is_live(c)) continue;
      const auto to = m.shape(c).element_type();
      const InstrId x = m.operand(c, 0);
      const auto from = m.shape(x).element_type();
      if (ir::is_complex(to) || ir::is_complex(from)) continue;
      // Narrowing convert of a movement result: convert first.
      if (width(to) < width(from) && is_movement(m.opcode(x)) && m.users(x).size() == 1 && !m.is_root(x)) {
        expand::Builder b(m, m.computation_of(c));
        expand::replace_with(m, c, move(m, x, b.convert(m.operand(x, 0), to)));
        changed = true;
        continue;
      }
      // Widening convert feeding movement ops: move each sole-use movement after it.
      if (width(to) <= width(from) || m.users(c).size() != 1 || m.is_root(c)) continue;
      const InstrId user = m.users(c)[0];
      if (!is_movement(m.opcode(user))) continue;
      expand::Builder b(m, m.computation_of(user));
      expand::replace_with(m, user, b.convert(move(m, user, x), to));
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_convert_mover() { return std::make_unique<ConvertMover>(); }

}  // namespace hlsgym::passes
