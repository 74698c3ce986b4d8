// Element-type passes around dot and convolution.
//  - operand_upcaster (XLA OperandUpcaster): when the result type is wider than the type
//    the operands would give (f8 x f8 -> bf16, s8 x s8 -> s32), the operands are converted
//    to the result type. The interpreter multiplies exact operand values and accumulates
//    in double (floats) or wrapping 64-bit integers, so the rewrite is exact whenever the
//    converts are; operands whose convert would round (f16 -> bf16) are left alone.
//  - result_caster (XLA ResultCaster): when the result type differs from the operands'
//    type, the op is computed in the operands' type and converted. Exact, and applied,
//    only for integer results no wider than the operands' type (truncation commutes with
//    the wrapping sum); a float result would be rounded twice, and a wider integer result
//    would be truncated, so those are left alone.
//  - change-op-data-type (XLA ChangeOpDataType(F16 -> F32, dot|conv), as the CPU pipeline
//    runs it): an f16 dot/convolution is computed in f32 and converted back. The result is
//    rounded to f32 and then to f16 instead of once, which can differ in the last bit:
//    reassociates_floats() is true.
#include <tuple>

#include "passes/expander_util.h"
#include "passes/pass.h"

namespace hlsgym::passes {
namespace {
using ir::ElementType;
using ir::InstrId;
using ir::Opcode;

// (overflow exponent, significand bits) of a float type, for XLA's precision order.
std::pair<int, int> float_range(ElementType t) {
  switch (t) {
    case ElementType::kF16: return {16, 11};
    case ElementType::kBF16: return {128, 8};
    case ElementType::kF32: return {128, 24};
    case ElementType::kF64: return {1024, 53};
    case ElementType::kF8E5M2: case ElementType::kF8E5M2FNUZ: return {16, 3};
    case ElementType::kF8E4M3FN: return {9, 4};
    case ElementType::kF8E4M3: case ElementType::kF8E4M3FNUZ: return {8, 4};
    case ElementType::kF8E4M3B11FNUZ: return {5, 4};
    case ElementType::kF8E3M4: return {4, 5};
    case ElementType::kF4E2M1FN: return {3, 2};
    case ElementType::kF8E8M0FNU: return {128, 1};
    default: return {-1, -1};
  }
}

// XLA's primitive_util::HigherPrecisionType: floats over integers, then range, precision,
// width, signedness.
ElementType higher_precision(ElementType a, ElementType b) {
  auto key = [](ElementType t) {
    const auto [range, digits] = float_range(t);
    return std::make_tuple(ir::is_complex(t), range, digits, ir::bit_width(t), ir::is_signed_integral(t));
  };
  return key(a) >= key(b) ? a : b;
}

bool numeric(ElementType t) { return ir::is_integral(t) || ir::is_floating(t); }

// A dot or a two-operand convolution with static array shapes of numeric types.
bool contraction(const ir::Module& m, InstrId i) {
  if (m.operands(i).size() != 2) return false;
  for (InstrId s : {m.operand(i, 0), m.operand(i, 1), i})
    if (!m.shape(s).is_array() || !numeric(m.shape(s).element_type())) return false;
  return true;
}

ElementType inferred_type(const ir::Module& m, InstrId i) {
  return higher_precision(m.shape(m.operand(i, 0)).element_type(), m.shape(m.operand(i, 1)).element_type());
}

class OperandUpcaster final : public Pass {
 public:
  std::string_view name() const override { return "operand_upcaster"; }
  std::string_view description() const override {
    return "converts dot/convolution operands to a wider result type (exact converts only)";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kDot, Opcode::kConvolution})) {
      if (!contraction(m, i)) continue;
      const ElementType r = m.shape(i).element_type(), inferred = inferred_type(m, i);
      const ElementType a = m.shape(m.operand(i, 0)).element_type(), b = m.shape(m.operand(i, 1)).element_type();
      if ((a == r && b == r) || higher_precision(inferred, r) != r) continue;
      if (!expand::converts_exactly(a, r) || !expand::converts_exactly(b, r)) continue;
      expand::Builder builder(m, m.computation_of(i));
      for (size_t k = 0; k < 2; ++k) m.set_operand(i, k, builder.convert(m.operand(i, k), r));
      changed = true;
    }
    return changed;
  }
};

class ResultCaster final : public Pass {
 public:
  std::string_view name() const override { return "result_caster"; }
  std::string_view description() const override {
    return "computes integer dot/convolution in the operand type and converts to a narrower result";
  }
  bool run(ir::Module& m) override {
    bool changed = false;
    for (InstrId i : expand::find_all(m, {Opcode::kDot, Opcode::kConvolution})) {
      if (!contraction(m, i)) continue;
      const ElementType r = m.shape(i).element_type(), inferred = inferred_type(m, i);
      if (r == inferred || !ir::is_integral(r) || !ir::is_integral(inferred)) continue;
      if (ir::bit_width(r) > ir::bit_width(inferred)) continue;
      expand::Builder b(m, m.computation_of(i));
      const InstrId ops[] = {m.operand(i, 0), m.operand(i, 1)};
      const InstrId wide = m.add_clone(m.computation_of(i), i, ops);
      m.mutable_payload(wide).shape.set_element_type(inferred);
      expand::replace_with(m, i, b.convert(wide, r));
      changed = true;
    }
    return changed;
  }
};

class ChangeOpDataType final : public Pass {
 public:
  std::string_view name() const override { return "change-op-data-type"; }
  std::string_view description() const override {
    return "computes f16 dot/convolution in f32 and converts the result back to f16";
  }
  bool reassociates_floats() const override { return true; }
  bool run(ir::Module& m) override {
    bool changed = false;
    const ElementType f16 = ElementType::kF16, f32 = ElementType::kF32;
    for (InstrId i : expand::find_all(m, {Opcode::kDot, Opcode::kConvolution})) {
      if (!contraction(m, i) || m.shape(i).element_type() != f16 ||
          m.shape(m.operand(i, 0)).element_type() != f16 || m.shape(m.operand(i, 1)).element_type() != f16)
        continue;
      expand::Builder b(m, m.computation_of(i));
      const InstrId ops[] = {b.convert(m.operand(i, 0), f32), b.convert(m.operand(i, 1), f32)};
      const InstrId wide = m.add_clone(m.computation_of(i), i, ops);
      m.mutable_payload(wide).shape.set_element_type(f32);
      expand::replace_with(m, i, b.convert(wide, f16));
      changed = true;
    }
    return changed;
  }
};

}  // namespace

PassPtr make_operand_upcaster() { return std::make_unique<OperandUpcaster>(); }
PassPtr make_result_caster() { return std::make_unique<ResultCaster>(); }
PassPtr make_change_op_data_type() { return std::make_unique<ChangeOpDataType>(); }

}  // namespace hlsgym::passes
