// comparison-expander (XLA ComparisonExpander): a float compare with type=TOTALORDER
// becomes a signed-integer compare of order-preserving keys. With s = bitcast<sN>(x) and
// u = bitcast<uN>(x), key = s < 0 ? bitcast<sN>(INT_MAX - u) : s, which orders
// -NaN < -inf < ... < -0 < +0 < ... < inf < NaN exactly as the interpreter's total order.
//
// XLA first converts bf16 operands to f32 (a backend limitation); here bf16 is keyed on
// its own 16 bits, because the f32 conversion quiets signalling NaNs and could reorder them.
#include "passes/expander_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

ElementType signed_of_width(int w) {
  switch (w) {
    case 8: return ElementType::kS8;
    case 16: return ElementType::kS16;
    case 32: return ElementType::kS32;
    default: return ElementType::kS64;
  }
}

ElementType unsigned_of_width(int w) {
  switch (w) {
    case 8: return ElementType::kU8;
    case 16: return ElementType::kU16;
    case 32: return ElementType::kU32;
    default: return ElementType::kU64;
  }
}

bool matches(const ir::Module& m, InstrId i) {
  if (m.attrs(i).comparison_type != "TOTALORDER" || !m.attrs(i).direction) return false;
  const ir::Shape& s = m.shape(m.operand(i, 0));
  const int w = ir::bit_width(s.element_type());
  // Byte-sized types only: a 4-bit float's byte image is not an s4 value.
  return s.is_array() && s.is_static() && ir::is_floating(s.element_type()) &&
         (w == 8 || w == 16 || w == 32 || w == 64) && ir::byte_width(s.element_type()) * 8 == w;
}

struct KeyConstants {
  ElementType signed_type, unsigned_type;
  InstrId zero, max_signed;  // broadcast to the operand shape
};

InstrId total_order_key(expand::Builder& b, InstrId x, const KeyConstants& k) {
  const InstrId s = b.bitcast_convert(x, k.signed_type);
  const InstrId u = b.bitcast_convert(x, k.unsigned_type);
  const InstrId flipped = b.bitcast_convert(b.binary(Opcode::kSubtract, k.max_signed, u), k.signed_type);
  const InstrId negative = b.compare(s, k.zero, ir::ComparisonDirection::kLt);
  return b.select(negative, flipped, s);
}

InstrId expand_compare(ir::Module& m, InstrId i) {
  expand::Builder b(m, m.computation_of(i));
  const ir::Shape& s = m.shape(m.operand(i, 0));
  const int w = ir::bit_width(s.element_type());
  KeyConstants k;
  k.signed_type = signed_of_width(w);
  k.unsigned_type = unsigned_of_width(w);
  k.zero = b.splat_int(k.signed_type, 0, s.dims());
  const int64_t max_signed = w == 64 ? INT64_MAX : (int64_t{1} << (w - 1)) - 1;
  k.max_signed = b.splat_int(k.unsigned_type, max_signed, s.dims());
  const InstrId lhs = total_order_key(b, m.operand(i, 0), k);
  const InstrId rhs = total_order_key(b, m.operand(i, 1), k);
  return b.compare(lhs, rhs, *m.attrs(i).direction);
}

class ComparisonExpander final : public Pass {
 public:
  std::string_view name() const override { return "comparison-expander"; }
  std::string_view description() const override {
    return "expands TOTALORDER float compares into integer compares of bitcast keys";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kCompare})) {
      if (!matches(m, i)) continue;
      expand::replace_with(m, i, expand_compare(m, i));
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_comparison_expander() { return std::make_unique<ComparisonExpander>(); }

}  // namespace hlsgym::passes
