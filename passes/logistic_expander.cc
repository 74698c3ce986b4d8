// logistic-expander (XLA LogisticExpander, kExp form): logistic(x) -> 1 / (1 + exp(-x)).
//
// The interpreter computes logistic of f32 and narrower types in float with exactly this
// formula (and f64 in double), so for f32/f64 the expansion is bit-exact. For f16, bf16
// and the f8 types XLA would evaluate each step in the narrow type, rounding four times;
// here the steps run in f32 between two converts, which rounds once, as logistic does.
#include "passes/expander_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

InstrId expand_logistic(ir::Module& m, InstrId i) {
  expand::Builder b(m, m.computation_of(i));
  const ElementType t = m.shape(i).element_type();
  const ElementType work = t == ElementType::kF64 ? ElementType::kF64 : ElementType::kF32;
  const InstrId x = b.convert(m.operand(i, 0), work);
  const InstrId one = b.splat(work, 1.0, m.shape(x).dims());
  const InstrId e = b.unary(Opcode::kExp, b.unary(Opcode::kNegate, x));
  const InstrId y = b.binary(Opcode::kDivide, one, b.binary(Opcode::kAdd, one, e));
  return b.convert(y, t);
}

class LogisticExpander final : public Pass {
 public:
  std::string_view name() const override { return "logistic-expander"; }
  std::string_view description() const override {
    return "expands logistic(x) into 1 / (1 + exp(-x))";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kLogistic})) {
      if (!ir::is_floating(m.shape(i).element_type()) || !m.shape(i).is_static()) continue;
      expand::replace_with(m, i, expand_logistic(m, i));
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_logistic_expander() { return std::make_unique<LogisticExpander>(); }

}  // namespace hlsgym::passes
