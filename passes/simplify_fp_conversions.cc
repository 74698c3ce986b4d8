// simplify-fp-conversions (after XLA SimplifyFPConversions): convert(convert(x)) whose
// outer type equals x's type becomes x when both types are floating point and the middle
// type holds every value of x's type (f16 -> f32 -> f16, bf16 -> f32 -> bf16). XLA also
// removes narrowing round trips (f32 -> bf16 -> f32), which drops a rounding step and
// changes values by up to bf16 precision; that is not a rewrite a pass checker can accept
// as equivalent, so hlsgym leaves those alone. Exact.
#include "passes/expander_util.h"
#include "passes/pass.h"
#include "passes/rewrite_util.h"

namespace hlsgym::passes {
namespace {
using ir::InstrId;
using ir::Opcode;

class SimplifyFpConversions final : public Pass {
 public:
  std::string_view name() const override { return "simplify-fp-conversions"; }
  std::string_view description() const override {
    return "removes exact float convert round trips (bf16 -> f32 -> bf16 becomes the bf16 value)";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kConvert})) {
      if (!m.is_live(i)) continue;
      const InstrId inner = m.operand(i, 0);
      if (m.opcode(inner) != Opcode::kConvert) continue;
      const InstrId x = m.operand(inner, 0);
      const auto t = m.shape(i).element_type();
      if (!ir::is_floating(t) || !ir::is_floating(m.shape(inner).element_type()) || m.shape(x).element_type() != t ||
          !(m.shape(x).dims() == m.shape(i).dims()) || !expand::converts_exactly(t, m.shape(inner).element_type()))
        continue;
      replace_instruction(m, i, x);
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_simplify_fp_conversions() { return std::make_unique<SimplifyFpConversions>(); }

}  // namespace hlsgym::passes
